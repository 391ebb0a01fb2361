#!/usr/bin/env bash
# For every shipped scenario, both profiles: one seed swept (`nssim sweep --seeds N..N`) gives the
# figures and verdict `nssim run --seed N` writes to report.json, because both call the one
# analyze_run and judge_run (issue 22 item 2).
# usage: check_sweep_matches_run.sh NSSIM SCENARIOS_DIR
set -uo pipefail
nssim=${1:?usage: check_sweep_matches_run.sh NSSIM SCENARIOS_DIR}
scenarios=${2:?usage: check_sweep_matches_run.sh NSSIM SCENARIOS_DIR}
source "$(dirname "$0")/check_harness.sh"
compare="$(dirname "$0")/sweep_matches_run.py"
seed=3

for scenario in "$scenarios"/*.json; do
  name=$(basename "$scenario" .json)
  [ "$name" = schema ] && continue
  for profile in 4.9 5.x; do
    case_name="$name --profile $profile --seed $seed"
    run run "$scenario" --profile "$profile" --seed "$seed" --out "$work/run"
    if [ $code -gt 1 ]; then fail "run $case_name"; continue; fi
    run sweep "$scenario" --profile "$profile" --seeds "$seed..$seed" -j 1 --out "$work/sweep"
    if [ $code -gt 1 ]; then fail "sweep $case_name"; continue; fi
    if python3 "$compare" "$work/sweep/seeds.jsonl" "$work/run/report.json" >"$work/compared"; then
      pass
    else
      cat "$work/compared"
      fail "sweep and run differ: $case_name"
    fi
    rm -rf "$work/run" "$work/sweep"
  done
done
finish "sweep matches run"
