#!/usr/bin/env bash
# A signal to `nssim check`, `compare` or `sweep` alone (not to its process group) stops its
# children too: each is stopped and reaped before the command ends, by the same signal (a shell
# sees 128+N), with one line on stderr; no child runs on to write its files later.
# usage: check_signals.sh NSSIM LONG_SCENARIO (one that runs for seconds)
set -uo pipefail
nssim=${1:?usage: check_signals.sh NSSIM LONG_SCENARIO}
scenario=${2:?usage: check_signals.sh NSSIM LONG_SCENARIO}
source "$(dirname "$0")/check_harness.sh"

# wait_for_children PID COUNT: until PID has COUNT children, at most 30 s (a safety net only).
wait_for_children() {
  local tries=0
  until [ "$(pgrep -P "$1" | wc -l)" -ge "$2" ]; do
    tries=$((tries + 1))
    [ "$tries" -gt 600 ] && return 1
    sleep 0.05
  done
}

# stopped NAME SIGNAL CHILDREN ARGS...: starts nssim ARGS (SIGINT back to its default, which a
# script's background job would ignore), waits for CHILDREN children, signals the parent only,
# and checks how everything ended.
stopped() {
  local name=$1 signal=$2 children=$3
  shift 3
  rm -rf "$work/out"
  perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' "$nssim" "$@" \
    >"$work/stdout" 2>"$work/stderr" </dev/null &
  local pid=$!
  if ! wait_for_children "$pid" "$children"; then
    kill -KILL "$pid"
    fail "$name (never started $children children)"
    return
  fi
  local kids
  kids=$(pgrep -P "$pid")
  kill -"$signal" "$pid"
  wait "$pid"
  code=$?
  local number
  number=$(kill -l "$signal")
  local alive=0
  for kid in $kids; do kill -0 "$kid" 2>/dev/null && alive=1; done
  if [ "$code" -eq $((128 + number)) ] && [ "$alive" -eq 0 ] &&
    [ "$(cat "$work/stderr")" = "nssim: stopped by SIG$signal; every child was stopped and reaped" ] &&
    [ -z "$(find "$work/out" -name result.json)" ]; then
    pass
  else
    fail "$name (exit $code, children alive: $alive)"
  fi
}

mkdir -p "$work/two"
sed '0,/"name": *"[^"]*"/s//"name": "long_a"/' "$scenario" >"$work/two/long_a.json"
sed '0,/"name": *"[^"]*"/s//"name": "long_b"/' "$scenario" >"$work/two/long_b.json"
stopped "check SIGTERM" TERM 2 check "$work/two" -j 2 --out "$work/out"
stopped "check SIGINT" INT 1 check "$scenario" -j 1 --out "$work/out"
stopped "compare SIGTERM" TERM 2 compare "$scenario" --a profile=4.9 --out "$work/out"
stopped "sweep SIGTERM" TERM 2 sweep "$scenario" --seeds 4 -j 2 --out "$work/out"
stopped "sweep SIGHUP" HUP 1 sweep "$scenario" --seeds 2 -j 1 --out "$work/out"

finish "signals"
