#!/usr/bin/env bash
# End-to-end tests of `nssim explore`: a planted property (the stale route bounded 10 s below
# what one long loss of broker-a's master gives) is found from the fault space alone, under both
# profiles, and shrunk to a scenario of one fault that `nssim run` fails and passes without that
# fault; -j changes no byte, nor a 3-way --shard and its merge; --for records the runs it did and
# --runs of them repeats it; coverage and the nearest runs; the committed counterexamples of the
# shipped explore scenarios regenerate byte for byte and `nssim run` fails each; bad input is one
# line, exit 2.
# usage: check_explore.sh NSSIM SOURCE_DIR
set -uo pipefail
nssim=${1:?usage: check_explore.sh NSSIM SOURCE_DIR}
root=${2:?usage: check_explore.sh NSSIM SOURCE_DIR}
source "$(dirname "$0")/check_harness.sh"

check() { if eval "$2"; then pass; else fail "$1 (exit $code)"; fi; }
# replace_first FILE OLD NEW: the first OLD in FILE becomes NEW (a doctored shard file).
replace_first() {
  python3 -c 'import sys; p, old, new = sys.argv[1:]; t = open(p).read(); open(p, "w").write(t.replace(old, new, 1))' "$@"
}
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

python3 - "$work/j1/explore.json" "$work/j1" >"$work/coverage.txt" 2>&1 <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
cov = doc["coverage"]
paths = ["unregister", "connection_close", "idle_close", "connection_exception", "scan_expiry"]
assert sorted(cov["all"]["removal_paths"]) == sorted(paths), cov["all"]["removal_paths"]
assert all(0 <= n <= doc["runs"] for group in ("removal_paths", "send_failures", "route_health_causes")
           for n in cov["all"][group].values())
assert cov["removal_paths_unreached"] == sorted(p for p in paths if cov["all"]["removal_paths"][p] == 0)
assert cov["by_kind"] and all(1 <= k["runs"] <= doc["runs"] for k in cov["by_kind"].values())
assert sum(cov["all"]["removal_paths"].values()) > 0  # the planted space loses masters
assert cov["all"]["route_health_causes"] and cov["all"]["send_failures"], cov["all"]
for prop in doc["properties"]:
    near = prop["nearest"]
    assert near is not None, prop["name"]
    assert os.path.exists(os.path.join(sys.argv[2], near["scenario"])), near
    assert (near["margin"] < 0) == (prop["broken_runs"] > 0), prop
print(json.load(open(sys.argv[1]))["properties"][0]["nearest"]["scenario"])
PY
covered=$?
check "coverage: every removal path counted per kind, unreached named, a nearest run per property" \
  '[ $covered -eq 0 ] || { cat "$work/coverage.txt"; false; }'
check "explore.html: the properties with their nearest runs' commands, the counterexamples, coverage" \
  'grep -q "<section id=\"coverage\">" "$work/j1/explore.html" &&
   grep -q "<section id=\"counterexamples\">" "$work/j1/explore.html" &&
   grep -q "nssim run $work/j/nearest/expect_0/scenario.json" "$work/j1/explore.html"'
run run "$work/j1/$(tail -n 1 "$work/coverage.txt")" --out "$work/run-nearest"
check "nssim run on the nearest run of the broken planted property exits 1" '[ $code -eq 1 ]'

for shard in 1 2 3; do
  run explore "$planted" --runs 30 -j 1 --shard "$shard/3" --out "$work/sharded"
  check "--shard $shard/3 writes its shard file" \
    '[ $code -eq 0 ] && [ -f "$work/sharded/shards/shard-$shard-of-3.json" ] &&
     [ ! -e "$work/sharded/explore.json" ]'
done
mv "$work/sharded/shards/shard-3-of-3.json" "$work/shard-3-of-3.json"
run explore merge "$work/sharded" --out "$work/j"
check "a merge missing a shard: exit 2, one line naming it" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "missing shards of 3: 3 (runs 20..30)" "$work/stderr"'
run explore merge "$work/sharded" "$work" --out "$work/j"
check "3 shards merged write the bytes of -j 1 (exit 1, shards/ kept)" \
  '[ $code -eq 1 ] && diff -r -x shards "$work/j1" "$work/j" >/dev/null'
run explore "$planted" --runs 29 --shard 1/3 --out "$work/other"
run explore merge "$work/sharded" "$work/other" --out "$work/j"
check "a shard of another explore: exit 2, one line" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "belongs to another explore than" "$work/stderr"'
replace_first "$work/shard-3-of-3.json" '"seed":' '"seed":-'
run explore merge "$work/sharded" "$work" --out "$work/j"
check "a doctored shard: exit 2, one line naming the file and the field" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "shard-3-of-3.json: records\[0\].seed: expected a whole number" "$work/stderr"'

replace_first "$work/shard-3-of-3.json" '"seed":-' '"seed":1'
run explore merge "$work/sharded" "$work" --out "$work/j"
check "a shard whose run has another seed: exit 2, one line naming the file and the record" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "shard-3-of-3.json: records\[0\].seed: expected [0-9]* (run 20 of the explore), got 1" "$work/stderr"'

cp "$planted" "$work/moving.json"
run explore "$work/moving.json" --runs 4 --shard 1/1 --out "$work/moved"
echo " " >>"$work/moving.json"
run explore merge "$work/moved"
check "a merge after the scenario file changed: exit 2, one line naming it" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "moving.json is not the file the shards ran" "$work/stderr" && [ ! -e "$work/moved/explore.json" ]'

run explore "$planted" --for 1s --runs 6 -j 2 --out "$work/for"
mv "$work/for" "$work/for-1s"
done_runs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"])' \
  "$work/for-1s/explore.json")
check "--for records the runs it did (1..6) and its budget" \
  '[ $code -le 1 ] && [ "$done_runs" -ge 1 ] && [ "$done_runs" -le 6 ] &&
   grep -q "\"for\": \"1s\"" "$work/for-1s/explore.json"'
run explore "$planted" --runs "$done_runs" -j 2 --out "$work/for"
check "--runs of the runs done repeats a --for explore (but for its \"for\", in both documents)" \
  'diff <(grep -v "\"for\":" "$work/for-1s/explore.json") "$work/for/explore.json" >/dev/null &&
   diff -r -x explore.json -x explore.html "$work/for-1s" "$work/for" >/dev/null'
for bad in "--shard 0/3" "--shard 4/3" "--shard 1" "--for 10" "--for 0s" "--for 8d" "--for 10m --shard 1/2" \
  "--slurm-dry-run" "--slurm-tasks 2" "--slurm --for 10m" "--slurm --slurm-dry-run --shard 1/2"; do
  # shellcheck disable=SC2086 # each case is several words
  run explore "$planted" --runs 3 $bad --out "$work/bad-flag"
  check "explore $bad: exit 2, one line, nothing written" \
    '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && [ ! -e "$work/bad-flag" ]'
done

PATH=/nonexistent run explore "$planted" --runs 3 --slurm --out "$work/bad-flag"
check "--slurm without sbatch: exit 2, one line, nothing written" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "^nssim explore: --slurm: sbatch not found in PATH" "$work/stderr" && [ ! -e "$work/bad-flag" ]'
# The job script: one array task per shard, each explore's own --shard run into the absolute
# folder (ctest slurm_explore submits one).
run explore "$planted" --runs 30 --slurm --slurm-dry-run --slurm-tasks 3 --slurm-arg=--time=5 \
  --profile 4.9 --out "$work/dry"
check "--slurm-dry-run writes the job-array script of explore's shards and runs nothing" \
  '[ $code -eq 0 ] && grep -qx "#SBATCH --array=1-3" "$work/dry/explore.sbatch" &&
   grep -qx "#SBATCH --time=5" "$work/dry/explore.sbatch" &&
   grep -qx "#SBATCH --job-name=nssim-explore-planted_stale_route" "$work/dry/explore.sbatch" &&
   grep -q -- " explore $planted --runs 30 --shrink-runs 500 --profile 4.9 -j \"\${SLURM_CPUS_PER_TASK:-1}\" --shard \"\${SLURM_ARRAY_TASK_ID}/3\" --out $work/dry$" "$work/dry/explore.sbatch" &&
   [ -z "$(ls "$work/dry/shards")" ] && [ ! -e "$work/dry/explore.json" ]'

for counterexample in "$root"/tests/explore/counterexamples/*/*/scenario.json; do
  run run "$counterexample" --out "$work/run-shipped"
  check "nssim run on ${counterexample#"$root"/} exits 1" '[ $code -eq 1 ]'
done

# The committed counterexamples of the shipped explore scenarios, regenerated byte for byte from the
# root, as tests/explore/counterexamples/README.md says.
nssim_path=$(cd "$(dirname "$nssim")" && pwd)/$(basename "$nssim")
while read -r name profile runs; do
  (cd "$root" && "$nssim_path" explore "scenarios/$name.json" --profile "$profile" --runs "$runs" \
    -j 2 --out "$work/regenerated") >"$work/stdout" 2>"$work/stderr"
  code=$?
  check "$name $profile --runs $runs regenerates tests/explore/counterexamples/$name-$profile" \
    '[ $code -eq 1 ] &&
     diff -r "$root/tests/explore/counterexamples/$name-$profile" "$work/regenerated/counterexamples"'
done <"$root/tests/explore/counterexamples/runs.txt"

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
