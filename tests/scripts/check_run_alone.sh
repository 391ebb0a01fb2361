#!/usr/bin/env bash
# ctest run_alone_catches_leftovers: run_alone.sh, the wrapper of every command test, fails a
# test that leaves a process behind (and kills it), passes its exit through otherwise (0, 77, 3);
# and every add_test COMMAND in tests/CMakeLists.txt goes through it, so a new test cannot skip it.
# usage: check_run_alone.sh TESTS_CMAKELISTS
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: check_run_alone.sh TESTS_CMAKELISTS" >&2; exit 2; }
lists=$1
alone=$(cd "$(dirname "$0")" && pwd)/run_alone.sh
failures=0
expect() {
  local want=$1 label=$2 got
  shift 2
  "$@" >"$log" 2>&1
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "run_alone: $label: exit $got, expected $want:"
    cat "$log"
    failures=$((failures + 1))
  fi
}
# A planted leftover: the sleep's pid is written so the check can see it was killed.
pid_file=$(mktemp)
log=$(mktemp)
trap 'rm -f "$pid_file" "$log"' EXIT
expect 1 "a test leaving 'sleep 300 &' behind" \
  bash "$alone" bash -c 'sleep 300 & echo $! >"$0"' "$pid_file"
left=$(cat "$pid_file")
if [ -n "$left" ] && kill -0 "$left" 2>/dev/null && ! grep -q '^Z' <<<"$(ps -o stat= -p "$left")"; then
  echo "run_alone: the planted sleep ($left) is still alive"
  kill "$left"
  failures=$((failures + 1))
fi
expect 1 "a leftover in a subshell" bash "$alone" bash -c '(sleep 300 &); exit 0'
expect 0 "a test that waits for its child" bash "$alone" bash -c 'sleep 0.1 & wait'
expect 77 "a skip" bash "$alone" bash -c 'exit 77'
expect 3 "a failure that killed its child" bash "$alone" bash -c 'sleep 300 & kill $!; exit 3'
# This test runs the wrapper itself, so it is the one COMMAND without it.
unwrapped=$(grep -n 'COMMAND ' "$lists" | grep -v '^[0-9]*: *#' | grep -v 'COMMAND ${nssim_alone} ' |
  grep -v 'check_run_alone.sh')
if [ -n "$unwrapped" ]; then
  echo "run_alone: these tests in $lists do not run through \${nssim_alone}:"
  echo "$unwrapped" | sed 's/^/  /'
  failures=$((failures + 1))
fi
echo "run_alone: 6 cases, $failures failing"
[ $failures -eq 0 ]
