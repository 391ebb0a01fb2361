#!/usr/bin/env bash
# Runs every shipped scenario (both profiles, two seeds) and both benchmark scenarios (the large one
# cut to 10 minutes) with one nssim binary into DIR, so that a speed change can show its outputs are
# byte-identical: run it with the binary before and after, then `diff -r BEFORE AFTER`.
# Usage: bench/snapshot_outputs.sh NSSIM DIR
set -euo pipefail
nssim=${1:?usage: snapshot_outputs.sh NSSIM DIR}
out=${2:?usage: snapshot_outputs.sh NSSIM DIR}
root="$(cd "$(dirname "$0")/.." && pwd)"
rm -rf "$out"
mkdir -p "$out"
run() {  # name, then nssim run's arguments
  local name=$1
  shift
  local rc=0
  "$nssim" run "$@" --out "$out/$name" >/dev/null || rc=$?
  # 1 is a failed expectation: the scenario's expectations hold for its own profile and seed only.
  if ((rc > 1)); then
    echo "snapshot: nssim run $* exited $rc" >&2
    exit "$rc"
  fi
}
for scenario in "$root"/scenarios/*.json; do
  base=$(basename "$scenario" .json)
  [[ $base == schema ]] && continue
  for profile in 4.9 5.x; do
    for seed in 1 2; do
      run "$base-$profile-$seed" "$scenario" --profile "$profile" --seed "$seed"
    done
  done
done
run bench-small "$root/bench/scenarios/small.json"
run bench-large-10min "$root/bench/scenarios/large.json" --set duration_ms=600000 \
  --set 'faults=[{"kind":"kill","node":"broker-0-0","at_ms":120000,"duration_ms":120000},{"kind":"poweroff","node":"broker-10-0","at_ms":300000,"duration_ms":200000}]'
echo "snapshot: $(find "$out" -type f | wc -l) files in $out"
