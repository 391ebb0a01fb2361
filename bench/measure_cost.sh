#!/usr/bin/env bash
# Measures peak RSS (and user CPU, for reference only: the machine is shared) of the runs the cost
# estimate's memory terms are checked against, and writes them as JSON on stdout:
#   bench/measure_cost.sh build/nssim > bench/cost_measurements.json
# Each case is a file and the `nssim run` overrides that shape it; tests/sim_model/
# cost_fit_test.cpp estimates every case again and holds the fit to docs/performance.md's band.
set -euo pipefail
nssim=${1:?usage: measure_cost.sh NSSIM}
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

first=1
# measure NAME FILE SET...: one run, its --set overrides as given (also written to the JSON).
measure() {
  local name=$1 file=$2
  shift 2
  local args=()
  for set in "$@"; do args+=(--set "$set"); done
  /usr/bin/time -f "%M %U" -o "$work/time" \
    "$nssim" run "$root/$file" "${args[@]}" --out "$work/out" >/dev/null 2>"$work/stderr" || {
    local rc=$?
    ((rc == 1)) || { echo "measure_cost: $name exited $rc" >&2; cat "$work/stderr" >&2; exit 1; }
  }
  read -r rss_kb user <"$work/time"
  ((first)) || echo ","
  first=0
  python3 - "$name" "$file" "$rss_kb" "$user" "$@" <<'PY'
import json, sys
name, file, rss_kb, user, *sets = sys.argv[1:]
print("    " + json.dumps({"name": name, "scenario": file, "set": sets,
                          "peak_rss_bytes": int(rss_kb) * 1024, "user_cpu_s": float(user)}),
      end="")
PY
}

poweroff=scenarios/broker_poweroff.json
# The power-off case of issue 28 (100,000 producers at 4/s for 15 min) scaled down: memory is
# linear in producers, and the outage's share of it in producers x the stale-route window.
short=(duration_ms=480000 'expect=[]')
echo '{'
echo "  \"command\": \"bench/measure_cost.sh build/nssim > bench/cost_measurements.json\","
echo "  \"commit\": \"$(git -C "$root" rev-parse --short HEAD)\","
echo '  "runs": ['
for count in 2000 5000 10000 20000; do
  measure "broker_poweroff, $count producers, 8 min" $poweroff "${short[@]}" \
    "producers[0].count=$count"
done
measure "broker_poweroff, 10000 producers at 1/s, 8 min" $poweroff "${short[@]}" \
  producers[0].count=10000 producers[0].rate_per_s=1
measure "broker_poweroff, 10000 producers, 15 min" $poweroff 'expect=[]' producers[0].count=10000
for count in 5000 20000; do
  measure "broker_poweroff as a kill, $count producers, 8 min" $poweroff "${short[@]}" \
    "producers[0].count=$count" 'faults[0].kind="kill"'
  measure "broker_poweroff without faults, $count producers, 8 min" $poweroff "${short[@]}" \
    "producers[0].count=$count" 'faults=[]'
done
measure "broker_kill" scenarios/broker_kill.json
measure "large, 10 min, no faults" bench/scenarios/large.json duration_ms=600000 'faults=[]'
measure "producers_100k, 60 s, no faults" bench/scenarios/producers_100k.json duration_ms=60000 \
  'faults=[]'
for groups in 300 1000; do
  measure "groups_10k at $groups groups, 60 s, no faults" bench/scenarios/groups_10k.json \
    "broker_groups[0].count=$groups" duration_ms=60000 'faults=[]'
done
echo
echo '  ]'
echo '}'
