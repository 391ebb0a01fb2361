#!/usr/bin/env bash
# Flags every subcommand must refuse: one line on stderr naming the flag and what it expects,
# exit 2, nothing on stdout and no output folder. And `nssim --version`.
# usage: check_flags.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_flags.sh NSSIM SCENARIO}
scenario=${2:?usage: check_flags.sh NSSIM SCENARIO}
case $nssim in /*) ;; *) nssim=$PWD/$nssim ;; esac  # the runs below change folder
case $scenario in /*) ;; *) scenario=$PWD/$scenario ;; esac
source "$(dirname "$0")/check_harness.sh"

# refused NAME EXPECTED_STDERR ARGS...: runs nssim ARGS (with --out into the scratch folder unless
# ARGS name their own) and checks the refusal.
refused() {
  local name=$1 expected=$2
  shift 2
  rm -rf "$work/out"
  (cd "$work" && "$nssim" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null)
  code=$?
  if [ "$code" -eq 2 ] && [ "$(cat "$work/stderr")" = "$expected" ] && [ ! -s "$work/stdout" ] &&
    [ ! -e "$work/out" ]; then pass; else fail "$name (exit $code)"; fi
}

seed_error="expected a decimal whole number in 0..18446744073709551615, got"
for seed in -1 18446744073709551616 "" 0x10 " 1" "1 " +1 1e3; do
  refused "run --seed '$seed'" "nssim: --seed: $seed_error '$seed'" \
    run "$scenario" --seed "$seed" --out out
  refused "check --seed '$seed'" "nssim: --seed: $seed_error '$seed'" \
    check "$scenario" --seed "$seed" --out out
  refused "compare --seed '$seed'" "nssim: --seed: $seed_error '$seed'" \
    compare "$scenario" --a profile=4.9 --seed "$seed" --out out
done
empty="expected a non-empty value, got ''"
refused "run --profile ''" "nssim: --profile: $empty" run "$scenario" --profile "" --out out
refused "run --out ''" "nssim: --out: $empty" run "$scenario" --out ""
refused "check --out ''" "nssim: --out: $empty" check "$scenario" --out ""
refused "check --junit ''" "nssim: --junit: $empty" check "$scenario" --junit "" --out out
refused "compare --out ''" "nssim: --out: $empty" compare "$scenario" --a profile=4.9 --out ""
refused "compare --label-a ''" "nssim: --label-a: $empty" \
  compare "$scenario" --a profile=4.9 --label-a "" --out out
refused "sweep --out ''" "nssim: --out: $empty" sweep "$scenario" --out ""
refused "sweep --profile ''" "nssim: --profile: $empty" sweep "$scenario" --profile "" --out out
refused "replay --profile ''" "nssim: --profile: $empty" replay --profile "" /dev/null
# Empty values that were once taken as "not given" (issue 28): the scenario's seeds, one seed,
# the whole sweep, no partition.
refused "sweep --seeds ''" "nssim: --seeds: $empty" sweep "$scenario" --seeds "" --out out
refused "compare --seeds ''" "nssim: --seeds: $empty" \
  compare "$scenario" --a profile=4.9 --seeds "" --out out
refused "check --seeds ''" "nssim: --seeds: $empty" check "$scenario" --seeds "" --out out
refused "sweep --shard ''" "nssim: --shard: $empty" sweep "$scenario" --shard "" --out out
refused "sweep --slurm-partition ''" "nssim: --slurm-partition: $empty" \
  sweep "$scenario" --slurm --slurm-dry-run --slurm-partition "" --out out
refused "sweep --slurm-arg ''" "nssim: --slurm-arg: $empty" \
  sweep "$scenario" --slurm --slurm-dry-run --slurm-arg "" --out out
refused "sweep ''" "nssim: scenario: $empty" sweep "" --out out
for jobs in 0 -1 1025 x; do
  jobs_error="nssim: --jobs: expected a decimal whole number in 1..1024, got '$jobs'"
  refused "check -j '$jobs'" "$jobs_error" check "$scenario" -j "$jobs" --out out
  refused "sweep -j '$jobs'" "$jobs_error" sweep "$scenario" -j "$jobs" --out out
done
refused "sweep --slurm-tasks 0" \
  "nssim: --slurm-tasks: expected a decimal whole number in 1..4000001, got '0'" \
  sweep "$scenario" --slurm --slurm-tasks 0 --out out
# --set takes one value each time: a scenario after it is the positional, not a second value.
refused "run --set SCENARIO takes one value" \
  "nssim run: $scenario: no_such_field: unknown field" run --set no_such_field=1 "$scenario" --out out
refused "sweep --set takes one value" \
  "nssim sweep: $scenario: no_such_field: unknown field" \
  sweep --set no_such_field=1 "$scenario" --out out

# The cost estimate: a run above --memory-limit or --cpu-limit is refused before it starts, with
# the value that lets it through, and so is one whose NameServer links 5.x's refreshMetadata
# saturates unless --cpu-limit is given; a sweep counts its -j runs at once against the memory limit.
groups_10k="$(cd "$(dirname "$0")/../.." && pwd)/bench/scenarios/groups_10k.json"
estimate="estimated 58.5 k sends, 1.6 k route polls, 1.2 M registrations, 770 MiB, 25 min"
refused "run whose NameServer links refreshMetadata saturates" \
  "nssim run: $groups_10k: $estimate: 5.x refreshMetadata's cluster-info answers need 11.7 times each NameServer's link (nameservers.link.bandwidth_mbps 1000), so transfers pile up without bound and so does the run's cost; give the NameServers more bandwidth or fewer groups, or set --cpu-limit to run it anyway" \
  run "$groups_10k" --out out
refused "run above --memory-limit" \
  "nssim run: $groups_10k: $estimate: more memory than --memory-limit 500.0 MiB (524288000 bytes); raise it with --memory-limit 770M or make the run smaller" \
  run "$groups_10k" --memory-limit 500M --cpu-limit 100000 --out out
refused "run above --cpu-limit" \
  "nssim run: $groups_10k: $estimate: longer than --cpu-limit 60 s; raise it with --cpu-limit 1501 or make the run smaller" \
  run "$groups_10k" --cpu-limit 60 --out out
refused "sweep: -j runs share the memory limit" \
  "nssim sweep: $scenario: estimated 53.1 k sends, 450 route polls, 270 registrations, 67 MiB, 0.0 s; 2 runs at once: more memory than --memory-limit 100.0 MiB (104857600 bytes); raise it with --memory-limit 135M or make the run smaller" \
  sweep "$scenario" --memory-limit 100M -j 2 --seeds 2 --out out
refused "run --memory-limit 1x" \
  "nssim: --memory-limit: expected a byte count of at least 1 such as 8589934592, 500M or 16G (K, M, G, T: powers of 1024), got '1x'" \
  run "$scenario" --memory-limit 1x --out out
refused "run --cpu-limit 0" "nssim: --cpu-limit: expected a decimal whole number in 1..1099511627776, got '0'" \
  run "$scenario" --cpu-limit 0 --out out

# A sweep's whole cost: every run's estimate added up, refused above --total-cpu-limit (default a
# CPU-day) before any run starts or anything is written; exactly at the limit it goes through.
# check and compare --seeds count their runs the same way.
million="estimate: 1000000 runs x (0.0 s, 67 MiB) = 8.7 h CPU, 4.4 h wall at -j 2"
refused "sweep: 1,000,000 seeds of a 0.2 s run, above a CPU-day" \
  "nssim sweep: $scenario: estimate: 1000000 runs x (0.2 s, 67 MiB) = 61.8 h CPU, 30.9 h wall at -j 2: more CPU than --total-cpu-limit 86400 s; raise it with --total-cpu-limit 222624 or run fewer seeds" \
  sweep "$scenario" --seeds 1000000 --set 'producers[0].rate_per_s=40' -j 2 --out out
refused "sweep: one second above --total-cpu-limit" \
  "nssim sweep: $scenario: $million: more CPU than --total-cpu-limit 31463 s; raise it with --total-cpu-limit 31464 or run fewer seeds" \
  sweep "$scenario" --seeds 1000000 --total-cpu-limit 31463 -j 2 --out out
# At the limit: through to the Slurm script (--slurm-dry-run runs nothing), the estimate first.
rm -rf "$work/out"
(cd "$work" && "$nssim" sweep "$scenario" --seeds 1000000 --total-cpu-limit 31464 -j 2 --slurm \
  --slurm-dry-run --out out >"$work/stdout" 2>"$work/stderr" </dev/null)
code=$?
if [ "$code" -eq 0 ] && [ "$(head -n 1 "$work/stdout")" = "$million" ]; then
  pass
else
  fail "sweep exactly at --total-cpu-limit (exit $code)"
fi
refused "check: its sweeps count, above --total-cpu-limit" \
  "nssim check: estimate: 1000001 runs x (0.0 s, 67 MiB) = 8.7 h CPU, 4.4 h wall at -j 2: more CPU than --total-cpu-limit 3600 s; raise it with --total-cpu-limit 31464 or run fewer seeds" \
  check "$scenario" --seeds 1000000 --total-cpu-limit 3600 -j 2 --out out
refused "compare --seeds: both sides count, above --total-cpu-limit" \
  "nssim compare: $scenario: estimate: 2000000 runs x (up to 0.0 s, 67 MiB) = 17.5 h CPU, 8.7 h wall at -j 2: more CPU than --total-cpu-limit 3600 s; raise it with --total-cpu-limit 62831 or run fewer seeds" \
  compare "$scenario" --a profile=4.9 --seeds 1000000 --total-cpu-limit 3600 -j 2 --out out
refused "sweep --total-cpu-limit 0" \
  "nssim: --total-cpu-limit: expected a decimal whole number in 1..1099511627776, got '0'" \
  sweep "$scenario" --total-cpu-limit 0 --out out
# A factor too large for fixed notation is printed in scientific form, not cut at 31 digits.
refused "run: a link 1e-300 Mbps wide" \
  "nssim run: $scenario: estimated 53.1 k sends, 450 route polls, 270 registrations, 67 MiB, 0.0 s: 5.x refreshMetadata's cluster-info answers need 9.12e+296 times each NameServer's link (nameservers.link.bandwidth_mbps 1e-300), so transfers pile up without bound and so does the run's cost; give the NameServers more bandwidth or fewer groups, or set --cpu-limit to run it anyway" \
  run "$scenario" --set nameservers.link.bandwidth_mbps=1e-300 --out out

# An expectation naming no figure of any run is bad input like a field's typo, before the run.
refused "run: a typo in an expectation's figure" \
  "nssim run: $scenario: expect[0]: 'sends.failed.totl': unknown figure (did you mean sends.failed.total?)" \
  run "$scenario" --set 'expect=["sends.failed.totl == 0"]' --out out
refused "sweep: a typo in a sweep expectation's figure" \
  "nssim sweep: $scenario: sweep.expect[0]: 'sends.okk': unknown figure (did you mean sends.ok?)" \
  sweep "$scenario" --set 'sweep.expect=["sends.okk:p50 > 0"]' --seeds 2 --out out

commands="replay, serve, run, check, compare, sweep, explore, import"
for args in "frobnicate" "frobnicate --help" "frobnicate $scenario --seed 3"; do
  # shellcheck disable=SC2086
  refused "nssim $args" "nssim: unknown command 'frobnicate'; the commands are $commands (nssim --help)" $args
done
refused "nssim runn" "nssim: unknown command 'runn' (did you mean run?); the commands are $commands (nssim --help)" \
  runn "$scenario"

run --version
if [ "$code" -eq 0 ] && grep -qxE 'nssim [0-9]+\.[0-9]+\.[0-9]+' "$work/stdout"; then
  pass
else
  fail version
fi

finish "flags"
