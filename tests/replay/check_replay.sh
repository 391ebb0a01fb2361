#!/usr/bin/env bash
# Runs `nssim replay` on one input and compares stdout and the exit code with the golden ones.
# usage: check_replay.sh NSSIM INPUT EXPECTED_OUTPUT EXPECTED_EXIT [replay flags...]
set -uo pipefail
nssim=$1 input=$2 expected=$3 expected_exit=$4
shift 4
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
"$nssim" replay "$@" "$input" >"$actual"
code=$?
if ! diff -u "$expected" "$actual"; then
  echo "replay $(basename "$input"): output differs from $(basename "$expected")"
  exit 1
fi
if [ "$code" -ne "$expected_exit" ]; then
  echo "replay $(basename "$input"): exit code $code, expected $expected_exit"
  exit 1
fi
echo "replay $(basename "$input"): 1 passed, 0 failed"
