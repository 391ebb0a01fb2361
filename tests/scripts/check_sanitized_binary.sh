#!/usr/bin/env bash
# The whole nssim binary under AddressSanitizer and UBSan (a build with
# -DNSSIM_SANITIZE=address,undefined): every shipped scenario under both profiles, `check`,
# `compare` and a small `sweep` on a few, `sweep merge` on doctored shards, and `replay` on every
# replay input. A sanitizer report from any process, children of check, compare and sweep
# included, fails the check, and so does an exit code a run should not have. Usable by hand on
# any sanitized build:
# usage: check_sanitized_binary.sh NSSIM SOURCE_DIR
set -uo pipefail
nssim=${1:?usage: check_sanitized_binary.sh NSSIM SOURCE_DIR}
root=${2:?usage: check_sanitized_binary.sh NSSIM SOURCE_DIR}
case $nssim in /*) ;; *) nssim=$PWD/$nssim ;; esac
source "$(dirname "$0")/check_harness.sh"

# Reports go to files, one per process (log_path), so that a child whose output its parent
# captures cannot hide one. Exit code 86 marks a sanitizer stop; 1 and 2 mean other things.
# LeakSanitizer is off: SimGrid switches actor stacks, and blocks reachable only from a parked
# actor's stack look leaked. -fno-sanitize-recover makes every UBSan finding stop the process.
export ASAN_OPTIONS="detect_leaks=0:exitcode=86:log_path=$work/sanitizer"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86:log_path=$work/sanitizer"

# expect_exit NAME CODES...: the last run's exit code is one of CODES and no process reported.
expect_exit() {
  local name=$1 allowed reports=()
  shift
  mapfile -t reports < <(grep -l -E 'ERROR: [A-Za-z]+Sanitizer|runtime error:' \
    "$work"/sanitizer.* 2>/dev/null)
  if [ ${#reports[@]} -gt 0 ]; then
    fail "$name: sanitizer report"
    cat "${reports[@]}"
    rm -f "${reports[@]}"
    return
  fi
  for allowed in "$@"; do
    [ "$code" -eq "$allowed" ] && { pass; return; }
  done
  fail "$name: exit $code, expected $*"
}

# Every shipped scenario under both profiles: its own profile passes its expectations (as
# `nssim check scenarios` asserts); the other may fail one (1), never more than that.
for scenario in "$root"/scenarios/*.json; do
  name=$(basename "$scenario" .json)
  [ "$name" = schema ] && continue
  own=$(sed -n 's/^  "profile": "\([^"]*\)".*/\1/p' "$scenario")
  for profile in 4.9 5.x; do
    run run "$scenario" --profile "$profile" --out "$work/run/$name-$profile"
    if [ "$profile" = "${own:-5.x}" ]; then expect_exit "run $name --profile $profile" 0
    else expect_exit "run $name --profile $profile" 0 1; fi
  done
done

# check (children, sweep blocks over 3 seeds), compare (one run and seeds), a small sweep.
run check "$root/scenarios/broker_kill.json" "$root/scenarios/nameserver_restart_5322.json" \
  -j 2 --seeds 3 --out "$work/check"
expect_exit "check" 0
run compare "$root/scenarios/broker_poweroff.json" --a profile=4.9 --b profile=5.x \
  --out "$work/compare"
expect_exit "compare" 0
run compare "$root/scenarios/latency_fault_4_9_vs_5x.json" \
  --a producers[0].config.sendLatencyFaultEnable=false \
  --b producers[0].config.sendLatencyFaultEnable=true --seeds 3 -j 2 --out "$work/compare-seeds"
expect_exit "compare --seeds" 0
run sweep "$root/scenarios/broker_poweroff.json" --seeds 4 --grid nameservers.count=2,3 -j 2 \
  --out "$work/sweep"
expect_exit "sweep" 0 1

# Doctored shard files for `sweep merge` (check_shard_merge.sh), each process watched as above.
run_script() { bash "$@" >"$work/stdout" 2>"$work/stderr" </dev/null; code=$?; }
run_script "$(dirname "$0")/check_shard_merge.sh" "$nssim" "$root/scenarios/broker_kill.json"
expect_exit "sweep merge of doctored shards" 0

# Every replay input under both profiles; the malformed lines make 2.
for input in "$root"/examples/replay/*.jsonl "$root"/tests/replay/*.jsonl; do
  case "$input" in *.expected.jsonl) continue ;; esac
  for profile in 4.9 5.x; do
    run replay --profile "$profile" "$input"
    case "$(basename "$input")" in
      malformed_*) expect_exit "replay $(basename "$input") --profile $profile" 2 ;;
      *) expect_exit "replay $(basename "$input") --profile $profile" 0 ;;
    esac
  done
done

# ASan's warnings are no findings; one line says how many processes gave which. SimGrid runs
# actors on stacks of its own, where ASan cannot unpoison the stack for a throw or longjmp
# ("ignoring requested __asan_handle_no_return"); that could only hide an error, or report a
# false stack-use one, which would fail above. None has been seen.
warnings=$(cat "$work"/sanitizer.* 2>/dev/null | sed -n 's/^==[0-9]*==WARNING: \([^:]*\).*/\1/p' |
  sort | uniq -c)
if [ -n "$warnings" ]; then
  echo "ASan warnings (processes, warning):"
  echo "$warnings"
fi
finish "sanitized binary"
