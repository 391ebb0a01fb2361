#!/usr/bin/env bash
# One number per fault: its position in the scenario file. A file whose faults are written out of
# time order (faults[0] at 400 s, faults[1] at 200 s) is named the same way by the terminal,
# report.md, result.json, a sweep's terminal and `--set faults[j]`.
# usage: check_fault_numbers.sh NSSIM SCENARIO (a scenario with brokers broker-a-0 and broker-b-0)
set -uo pipefail
nssim=${1:?usage: check_fault_numbers.sh NSSIM SCENARIO}
scenario=${2:?usage: check_fault_numbers.sh NSSIM SCENARIO}
source "$(dirname "$0")/check_harness.sh"

faults='faults=[{"kind":"kill","node":"broker-b-0","at_ms":400000,"duration_ms":60000},{"kind":"kill","node":"broker-a-0","at_ms":200000,"duration_ms":60000}]'
# expect: nothing, so that exit 0 says the run itself went well.
args=("$scenario" --set "$faults" --set 'expect=[]' --set 'sweep.expect=[]')

# has NAME FILE TEXT: FILE holds the line TEXT (fixed string).
has() {
  if grep -qF -- "$3" "$2"; then pass; else fail "$1: no '$3' in $2"; fi
}

run run "${args[@]}" --out "$work/run"
[ "$code" -eq 0 ] && pass || fail "run (exit $code)"
has "terminal names the earlier fault faults[1]" "$work/stdout" \
  'outages[0] (faults[1]): kill of ["broker-a-0"] at 200.0 s'
has "terminal names the later fault faults[0]" "$work/stdout" \
  'outages[1] (faults[0]): kill of ["broker-b-0"] at 400.0 s'
has "report.md" "$work/run/report.md" '### outages[0]: faults[1] kill of broker-a-0 at 200.0 s'
has "report.md" "$work/run/report.md" '### outages[1]: faults[0] kill of broker-b-0 at 400.0 s'
python3 - "$work/run/result.json" <<'PY' && pass || fail "result.json numbers faults as the file does"
import json, sys
r = json.load(open(sys.argv[1]))
assert [(f["index"], f["at_ms"]) for f in r["faults"]] == [(0, 400000), (1, 200000)], r["faults"]
assert [o["fault"] for o in r["outages"]] == [1, 0], [o["fault"] for o in r["outages"]]
for b in r["timelines"]["brokers"]:
    spans = [s["fault"] for s in b["process"] if s["fault"] is not None]
    want = {"broker-a-0": [1], "broker-b-0": [0]}.get(b["node"], [])
    assert b["faults"] == want and spans == want, (b["node"], b["faults"], spans)
PY
if grep -q '"fault":1,"kind":"kill","nodes":\["broker-a-0"\]' "$work/run/events.jsonl"; then
  pass
else
  fail "events.jsonl: the fault_begin of broker-a-0 is fault 1"
fi

# The report's faults[1] is what --set faults[1] changes: broker-a-0 comes back 30 s later.
run run "${args[@]}" --set 'faults[1].duration_ms=90000' --out "$work/set"
[ "$code" -eq 0 ] && pass || fail "run --set faults[1] (exit $code)"
has "--set faults[1] changed faults[1]" "$work/set/report.md" \
  '### outages[0]: faults[1] kill of broker-a-0 at 200.0 s, back at 290.0 s'
has "--set faults[1] left faults[0]" "$work/set/report.md" \
  '### outages[1]: faults[0] kill of broker-b-0 at 400.0 s, back at 460.0 s'

run sweep "${args[@]}" --seeds 1 -j 1 --out "$work/sweep"
[ "$code" -eq 0 ] && pass || fail "sweep (exit $code)"
if grep -F '(faults[' "$work/stdout" | head -n 1 | grep -qF '(faults[1]'; then
  pass
else
  fail "sweep terminal: outages[0] is faults[1]"
fi

finish "fault numbers"
