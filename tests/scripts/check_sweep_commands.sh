#!/usr/bin/env bash
# End-to-end tests of `nssim sweep` and `nssim sweep merge`: the documents do not depend on -j or
# on how the runs are cut into shards; merges refuse shards of another sweep, missing or doubled
# shards; sweep expectations fail with exit 1 and a worst-seed command that really reproduces the
# worst value; bad input is one line, exit 2, and nothing written.
# usage: check_sweep_commands.sh NSSIM SCENARIOS_DIR
set -uo pipefail
nssim=${1:?usage: check_sweep_commands.sh NSSIM SCENARIOS_DIR}
scenarios=${2:?usage: check_sweep_commands.sh NSSIM SCENARIOS_DIR}
source "$(dirname "$0")/check_harness.sh"
files="sweep.json seeds.jsonl sweep.html sweep.md junit.xml"

check() { if eval "$2"; then pass; else fail "$1 (exit $code)"; fi; }
same_files() {
  for f in $files; do cmp -s "$1/$f" "$2/$f" || { echo "  $f differs: $1 $2"; return 1; }; done
}

kill_scenario=$scenarios/broker_kill.json
# 7 seeds x 2 grid points = 14 runs; 3 shards cut them at 4 and 9, across the point boundary at 7.
plan=("$kill_scenario" --seeds 3..9 --grid 'producers[0].config.pollNameServerInterval=10000,30000')

run sweep "${plan[@]}" -j 1 --out "$work/j1"
check "sweep -j 1 exits 0 and names its report" \
  '[ $code -eq 0 ] && grep -qx "report: $work/j1/sweep.html" "$work/stdout"'
# Per point: the outage's longest lost route, then after the expectations the whole run's.
check "the summary gives each outage's longest lost route and the whole run's route windows" \
  '[ "$(grep -c "^  longest lost route: p50 [0-9.]* m\?s / p99 [0-9.]* m\?s / max [0-9.]* m\?s$" "$work/stdout")" -eq 4 ] &&
   grep -A1 "^  slowest producer.s stale route: " "$work/stdout" | grep -q "^  longest lost route: " &&
   [ "$(grep -c "^whole run:$" "$work/stdout")" -eq 2 ] &&
   grep -A3 "^whole run:$" "$work/stdout" | grep -q "^  longest stale route: p50 " &&
   grep -A3 "^whole run:$" "$work/stdout" | grep -q "^  longest missing broker at a NameServer: p50 "'
run sweep "${plan[@]}" -j 2 --out "$work/j2"
check "sweep -j 2 writes the same files as -j 1" '[ $code -eq 0 ] && same_files "$work/j1" "$work/j2"'
for i in 1 2 3; do run sweep "${plan[@]}" --shard "$i/3" --out "$work/sharded"; done
check "a shard writes only its shard file" \
  '[ -f "$work/sharded/shards/shard-3-of-3.json" ] && [ ! -e "$work/sharded/sweep.json" ]'
run sweep merge "$work/sharded"
check "merged shards give the same files as one machine" \
  '[ $code -eq 0 ] && same_files "$work/j1" "$work/sharded"'
check "seeds.jsonl holds one line per run, point by point" \
  '[ "$(wc -l <"$work/j1/seeds.jsonl")" -eq 14 ] &&
   head -n 1 "$work/j1/seeds.jsonl" | grep -q "\"point\":0,\"seed\":3," &&
   tail -n 1 "$work/j1/seeds.jsonl" | grep -q "\"point\":1,\"seed\":9,"'

# Merges that must be refused: one exit 2, one line, no documents.
mkdir -p "$work/mixed/shards" "$work/gap/shards" "$work/twice/a" "$work/twice/b"
cp "$work/sharded/shards/shard-1-of-3.json" "$work/sharded/shards/shard-3-of-3.json" "$work/gap/shards/"
run sweep merge "$work/gap"
check "a missing shard is named with its runs" \
  '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
   grep -q "missing shards of 3: 2 (runs 4..9)" "$work/stderr" && [ ! -e "$work/gap/sweep.json" ]'
cp "$work/sharded/shards/"*.json "$work/twice/a/"
cp "$work/sharded/shards/shard-2-of-3.json" "$work/twice/b/"
run sweep merge "$work/twice/a" "$work/twice/b" --out "$work/twice/out"
check "a shard given twice is refused" '[ $code -eq 2 ] && grep -q "is given twice" "$work/stderr"'
"$nssim" sweep "${plan[@]}" --set 'producers[0].rate_per_s=2' --shard 2/3 --out "$work/other" >/dev/null
cp "$work/sharded/shards/shard-1-of-3.json" "$work/sharded/shards/shard-3-of-3.json" "$work/other/shards/"
run sweep merge "$work/other"
check "shards of another setting are refused" \
  '[ $code -eq 2 ] && grep -q "belongs to another sweep" "$work/stderr" && [ ! -e "$work/other/sweep.json" ]'

# A sweep expectation that fails: exit 1, and its worst seed's command repeats the worst value.
sed -e 's/"outages\[0\].producers.stale_route_ms.max:p99 <= 155000"/"outages[0].producers.stale_route_ms.max:max < 1000"/' \
  -e 's/"seeds": 200/"seeds": 6/' "$scenarios/broker_poweroff.json" >"$work/tight.json"
run sweep "$work/tight.json" --out "$work/tight"
check "a failing sweep expectation exits 1 and prints the worst seed" \
  '[ $code -eq 1 ] && grep -q "FAIL outages\[0\].producers.stale_route_ms.max:max < 1000" "$work/stdout" &&
   grep -q "worst seed: nssim run $work/tight.json --profile 5.x --seed [1-6]$" "$work/stdout"'
worst=$(sed -n 's/^    worst seed: nssim run //p' "$work/stdout")
measured=$(sed -n 's/.*stale_route_ms.max:max = \([0-9]*\),.*/\1/p' "$work/stdout")
# shellcheck disable=SC2086
"$nssim" run $worst --out "$work/worst" >/dev/null
check "the worst seed's command gives the worst value" \
  'grep -q "\"max\": $measured," "$work/worst/result.json" && [ -n "$measured" ]'
check "junit.xml carries the failure and its command" \
  'grep -q "failures=\"1\"" "$work/tight/junit.xml" && grep -q "repeat: nssim run" "$work/tight/junit.xml"'

# nssim run: a failed expectation's repeat line, report.json, junit.xml and the report's header
# carry every override, and the repeated command gives the same failure.
sed 's/"outages\[0\].sends.failed.total > 0"/"outages[0].sends.failed.total > 100000"/' \
  "$scenarios/broker_poweroff.json" >"$work/run_fail.json"
run run "$work/run_fail.json" --set 'faults[0].duration_ms=200000' --set 'producers[0].count=10' \
  --out "$work/overrides"
repeat="nssim run $work/run_fail.json --profile 5.x --set 'faults[0].duration_ms=200000' --set 'producers[0].count=10' --seed 1"
check "run's repeat line, report.json, junit.xml and report.md carry every --set" \
  '[ $code -eq 1 ] && grep -qxF "repeat: $repeat" "$work/stdout" &&
   grep -qF "\"command\": \"$repeat\"" "$work/overrides/report.json" &&
   grep -qF "repeat: nssim run $work/run_fail.json --profile 5.x --set &apos;faults[0].duration_ms=200000&apos; --set &apos;producers[0].count=10&apos; --seed 1" "$work/overrides/junit.xml" &&
   grep -qF "Repeat it: \`$repeat\`" "$work/overrides/report.md" &&
   grep -qF "class=\"repeat\">nssim run $work/run_fail.json --profile 5.x --set &#39;faults[0]" "$work/overrides/report.html"'

# Bad input: exit 2, one line on stderr, no output folder.
bad() {
  run sweep "$@" --out "$work/bad"
  check "bad input: $*" '[ $code -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && [ ! -e "$work/bad" ]'
}
bad "$kill_scenario" --seeds 0
bad "$kill_scenario" --seeds 5..2
bad "$kill_scenario" --seeds x
bad "$kill_scenario" --grid 'producers[0].config.pollNameServerIntervl=5000'
bad "$kill_scenario" --grid 'producers[0].config.pollNameServerInterval=5000,fast'
bad "$kill_scenario" --grid 'producers[0].config.pollNameServerInterval='
bad "$kill_scenario" --grid 'profile=4.9,6.0'
bad "$kill_scenario" --shard 3/2
bad "$kill_scenario" --shard 0/2
bad "$kill_scenario" --profile 6.0
bad "$kill_scenario" --slurm-dry-run
bad "$work/nope.json"
PATH=/nonexistent run sweep "$kill_scenario" --slurm --out "$work/bad"
check "--slurm without sbatch is one line and writes nothing" \
  '[ $code -eq 2 ] && grep -q "sbatch not found" "$work/stderr" && [ ! -e "$work/bad" ]'
run sweep "$kill_scenario" --grid 'producers[0].config.pollNameServerInterval=5000,fast' --out "$work/bad"
check "a bad grid value names the point" \
  'grep -q "^nssim sweep: --grid producers\[0\].config.pollNameServerInterval=fast: " "$work/stderr"'

# The job script: one array task per shard, each a --shard run into the absolute folder.
run sweep "$kill_scenario" --seeds 8 --slurm --slurm-dry-run --slurm-tasks 4 --slurm-arg=--time=5 \
  --out "$work/dry"
check "--slurm-dry-run writes the job-array script and submits nothing" \
  '[ $code -eq 0 ] && grep -qx "#SBATCH --array=1-4" "$work/dry/sweep.sbatch" &&
   grep -qx "#SBATCH --time=5" "$work/dry/sweep.sbatch" &&
   grep -q -- "--shard \"\${SLURM_ARRAY_TASK_ID}/4\" --out $work/dry$" "$work/dry/sweep.sbatch" &&
   [ ! -e "$work/dry/sweep.json" ]'

finish "sweep commands"
