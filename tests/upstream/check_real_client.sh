#!/usr/bin/env bash
# ctest upstream_real_client: the real Java client and broker of each line against the real
# NameServer and against `nssim serve`, the same fixed script of steps (RealClientCheck), the two
# outputs diffed (docs/fidelity.md, "The real client against nssim serve").
# Skips (exit 77) when java, mvn or the artifacts are unavailable, unless CI=true.
# usage: check_real_client.sh NSSIM [LINE...]     LINE: 4.9, 5.x (default both)
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: check_real_client.sh NSSIM [LINE...]" >&2; exit 2; }
nssim=$1
shift
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(5.x 4.9)
root=$(cd "$(dirname "$0")/../.." && pwd)
upstream=$root/scripts/upstream.sh
readonly listen_timeout_s=10  # a safety net: nssim serve is listening within milliseconds
readonly run_timeout_s=300    # a safety net: one run takes 3-4 s here; its own waits end at 60 s

check_name="real client"
source "$(dirname "$0")/lib_check.sh"
for line in "${lines[@]}"; do
  case "$line" in 4.9 | 5.x) ;; *) echo "check_real_client.sh: expected a line 4.9 or 5.x, got '$line'" >&2; exit 2 ;; esac
done
[ -x "$nssim" ] || { echo "check_real_client.sh: no nssim executable at '$nssim'" >&2; exit 2; }
need_tools java mvn
work=$(mktemp -d)
fetch_artifacts "$work" "${lines[@]}"
serve_pid=
cleanup() {
  [ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null
  for dir in "$work"/*/real/namesrv; do [ -f "$dir/pid" ] && bash "$upstream" stop "$dir"; done
  [ -n "${KEEP_WORK:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# RealClientCheck against the NameServer at $3, in home $2; its step lines into $2/steps.jsonl.
run_client() {
  local line=$1 home=$2 namesrv=$3
  mkdir -p "$home"
  # --add-opens: the store's mapped-file release (UtilAll#cleanBuffer, ReferenceResource#shutdown)
  # reflects into java.nio, as upstream's runbroker.sh allows on JDK 9 and later.
  timeout "$run_timeout_s" java -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
    -Dtls.server.mode=disabled \
    -cp "$root/build-upstream/$line/classes:$(cat "$root/build-upstream/$line/classpath.txt")" \
    nssim.upstream.RealClientCheck --namesrv "$namesrv" --home "$home/client" \
    >"$home/client.out" 2>"$home/client.err"
  local code=$?
  # BrokerStartup#start prints its boot line on stdout too; the steps are the JSON lines.
  grep '^{' "$home/client.out" >"$home/steps.jsonl"
  if [ $code -ne 0 ]; then
    echo "real client $line: RealClientCheck failed (exit $code) against $namesrv:"
    tail -n 15 "$home/client.err"
    return 1
  fi
}

# What the broker logged while serving (broker.served.log: up to its shutdown) at ERROR, and at
# WARN naming the NameServer, spelt so two runs compare.
broker_log_findings() {
  local home=$1 namesrv=$2
  grep -E "^ERROR |^WARN .*$namesrv" "$home/client/broker.served.log" |
    sed -e "s/$namesrv/namesrv/g" -e 's/[0-9]\+/N/g' | sort -u
}

# Sets serve_pid and serve_addr. Called in this shell, never in $(...): a subshell's serve_pid
# would be lost, and stop_serve and the EXIT trap would leave the server running.
start_serve() {
  local line=$1 dir=$2 deadline
  mkdir -p "$dir"
  "$nssim" serve --listen 127.0.0.1:0 --profile "$line" --log >"$dir/serve.log" 2>&1 &
  serve_pid=$!
  deadline=$((SECONDS + listen_timeout_s))
  until head -n 1 "$dir/serve.log" | grep -q 'listening on'; do
    kill -0 "$serve_pid" 2>/dev/null || { echo "real client $line: nssim serve exited: $(cat "$dir/serve.log")"; return 1; }
    [ $SECONDS -lt $deadline ] || { echo "real client $line: nssim serve did not listen in ${listen_timeout_s} s"; return 1; }
    sleep 0.02
  done
  serve_addr=$(head -n 1 "$dir/serve.log" | sed -E 's/.*listening on ([0-9.]+:[0-9]+) .*/\1/')
}

stop_serve() {
  kill "$serve_pid" 2>/dev/null
  wait "$serve_pid" 2>/dev/null
  serve_pid=
}

failures=0
total_steps=0
for line in "${lines[@]}"; do
  started=$SECONDS
  dir=$work/$line
  mkdir -p "$dir/real"
  port=$(bash "$upstream" start "$line" "$dir/real/namesrv") || { failures=$((failures + 1)); continue; }
  real_ok=1
  run_client "$line" "$dir/real" "127.0.0.1:$port" || real_ok=0
  real_log=$(broker_log_findings "$dir/real" "127.0.0.1:$port")
  bash "$upstream" stop "$dir/real/namesrv"
  [ $real_ok -eq 1 ] || { failures=$((failures + 1)); continue; }

  start_serve "$line" "$dir/nssim" || { failures=$((failures + 1)); stop_serve; continue; }
  addr=$serve_addr
  nssim_ok=1
  run_client "$line" "$dir/nssim" "$addr" || nssim_ok=0
  stop_serve
  [ $nssim_ok -eq 1 ] || { failures=$((failures + 1)); continue; }
  nssim_log=$(broker_log_findings "$dir/nssim" "$addr")

  steps=$(wc -l <"$dir/real/steps.jsonl")
  total_steps=$((total_steps + steps))
  differences=0
  if ! diff -u --label "real NameServer $line" --label "nssim serve $line" \
    "$dir/real/steps.jsonl" "$dir/nssim/steps.jsonl" >"$dir/steps.diff"; then
    # A step that differs is a line on each side; a step only one side printed, one line.
    removed=$(grep -c '^-{' "$dir/steps.diff")
    added=$(grep -c '^+{' "$dir/steps.diff")
    differences=$((removed > added ? removed : added))
    cat "$dir/steps.diff"
  fi
  if [ "$real_log" != "$nssim_log" ]; then
    echo "real client $line: the broker's log differs (ERROR, or WARN naming the NameServer):"
    diff <(echo "$real_log") <(echo "$nssim_log") | sed -e 's/^</  real: /' -e 's/^>/  nssim:/' | grep -E '^  (real|nssim)'
    differences=$((differences + 1))
  fi
  if grep -q 'bad frame' "$dir/nssim/serve.log"; then
    echo "real client $line: nssim serve closed a connection on a bad frame:"
    grep 'bad frame' "$dir/nssim/serve.log"
    differences=$((differences + 1))
  fi
  codes=$(grep -o 'request #[0-9]* code=[0-9]*' "$dir/nssim/serve.log" | sed 's/.*code=//' | sort -n | uniq -c |
    awk '{printf "%s%s*%s", sep, $2, $1; sep=" "}')
  echo "real client $line: $steps steps compared, $differences differences," \
    "broker log findings $(echo -n "$real_log" | grep -c .) real / $(echo -n "$nssim_log" | grep -c .) nssim," \
    "nssim serve answered codes [$codes], $((SECONDS - started)) s"
  [ "$differences" -eq 0 ] || failures=$((failures + 1))
done
echo "real client: ${#lines[@]} lines, $total_steps steps compared, $failures failing"
[ $failures -eq 0 ]
