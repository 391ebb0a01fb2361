#!/usr/bin/env bash
# Flags every subcommand must refuse: one line on stderr naming the flag and what it expects,
# exit 2, nothing on stdout and no output folder. And `nssim --version`.
# usage: check_flags.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_flags.sh NSSIM SCENARIO}
scenario=${2:?usage: check_flags.sh NSSIM SCENARIO}
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

run --version
if [ "$code" -eq 0 ] && grep -qxE 'nssim [0-9]+\.[0-9]+\.[0-9]+' "$work/stdout"; then
  pass
else
  fail version
fi

finish "flags"
