#!/usr/bin/env bash
# End-to-end tests of `nssim explore`: a planted property (the stale route bounded 10 s below
# what one long loss of broker-a's master gives) is found from the fault space alone, under both
# profiles, and shrunk to a scenario of one fault that `nssim run` fails and passes without that
# fault; -j changes no byte; the shipped explore scenario runs; bad input is one line, exit 2.
# usage: check_explore.sh NSSIM SOURCE_DIR
set -uo pipefail
nssim=${1:?usage: check_explore.sh NSSIM SOURCE_DIR}
root=${2:?usage: check_explore.sh NSSIM SOURCE_DIR}
source "$(dirname "$0")/check_harness.sh"

check() { if eval "$2"; then pass; else fail "$1 (exit $code)"; fi; }
faults_in() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["faults"]))' "$1"; }

planted=$root/tests/explore/planted_stale_route.json
for profile in 5.x 4.9; do
  out=$work/planted-$profile
  run explore "$planted" --profile "$profile" --runs 30 -j 2 --out "$out"
  check "$profile: the planted property breaks (exit 1) and is named with its command" \
    '[ $code -eq 1 ] &&
     grep -qx "broken: expect_0 (run [0-9]*, [0-9]* -> 1 fault(s) in [0-9]* shrink runs): nssim run $out/counterexamples/expect_0/scenario.json" "$work/stdout"'
  counterexample=$out/counterexamples/expect_0/scenario.json
  check "$profile: the counterexample holds one fault and the planted expectation" \
    '[ "$(faults_in "$counterexample")" = 1 ] &&
     grep -q "\"route_health.stale.total_ms <= 100000\"" "$counterexample" &&
     grep -q "\"profile\": \"$profile\"" "$counterexample"'
  run run "$counterexample" --out "$work/run-$profile"
  check "$profile: nssim run on the counterexample exits 1" '[ $code -eq 1 ]'
  run run "$counterexample" --set 'faults=[]' --out "$work/run-$profile"
  check "$profile: without its one fault the property holds (1-minimal)" '[ $code -eq 0 ]'
done

run explore "$planted" --runs 30 -j 1 --out "$work/j"
mv "$work/j" "$work/j1"
run explore "$planted" --runs 30 -j 2 --out "$work/j"
check "-j 1 and -j 2 write the same bytes" 'diff -r "$work/j1" "$work/j" >/dev/null'
run explore "$planted" --runs 30 -j 2 --out "$work/j"
check "explore writes over its own earlier output" '[ $code -eq 1 ] && diff -r "$work/j1" "$work/j" >/dev/null'

run explore "$root/scenarios/explore_host_loss.json" --runs 4 -j 2 --out "$work/shipped"
check "the shipped explore scenario runs (exit 0 or 1) and writes explore.json" \
  '[ $code -le 1 ] && grep -q "\"schema\": \"nssim.explore/1\"" "$work/shipped/explore.json"'
for counterexample in "$work"/shipped/counterexamples/*/scenario.json; do
  [ -e "$counterexample" ] || continue
  run run "$counterexample" --out "$work/run-shipped"
  check "nssim run on $counterexample exits 1" '[ $code -eq 1 ]'
done

run explore "$root/scenarios/broker_kill.json" --runs 2 --out "$work/none"
check "a scenario without an explore block: exit 2, one line" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "broker_kill.json: explore: is required by nssim explore" "$work/stderr" &&
   [ ! -e "$work/none" ]'
python3 - "$planted" "$work/bad.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["explore"]["targets"][1] = "ns-9"
json.dump(doc, open(sys.argv[2], "w"))
PY
run explore "$work/bad.json" --runs 2 --out "$work/bad"
check "a bad explore block: exit 2, one line naming the JSON path" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "bad.json: explore.targets\[1\]: no node, group or keyword named .ns-9." "$work/stderr"'

finish explore
