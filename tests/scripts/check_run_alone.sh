#!/usr/bin/env bash
# ctest run_alone_catches_leftovers: run_alone.sh, the wrapper of every command test, fails a
# test that leaves a process behind (and kills it), passes its exit through otherwise (0, 77, 3).
# usage: check_run_alone.sh
set -uo pipefail
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
echo "run_alone: 5 cases, $failures failing"
[ $failures -eq 0 ]
