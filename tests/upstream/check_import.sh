#!/usr/bin/env bash
# ctest upstream_import: `nssim import` of a real cluster (the real NameServer of each line and
# HeldCluster's brokers: broker-a with a slave, broker-b; TopicTest on both, OrderTopic on
# broker-a) writes a scenario equal to tests/upstream/import/<line>.json once the NameServer's
# address is written NAMESRV, and `nssim run` takes it.
# Skips (exit 77) when java, mvn or the artifacts are unavailable, unless CI=true.
# usage: check_import.sh NSSIM [LINE...]     LINE: 4.9, 5.x (default both)
# UPDATE_GOLDEN=1 writes the goldens instead of comparing.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: check_import.sh NSSIM [LINE...]" >&2; exit 2; }
nssim=$1
shift
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(5.x 4.9)
root=$(cd "$(dirname "$0")/../.." && pwd)
upstream=$root/scripts/upstream.sh
readonly ready_timeout_s=120  # a safety net: the three brokers register within about 10 s here

check_name="import"
source "$(dirname "$0")/lib_check.sh"
need_tools java mvn
work=$(mktemp -d)
fetch_artifacts "$work" "${lines[@]}"
cluster_pid=
cleanup() {
  [ -z "$cluster_pid" ] || kill "$cluster_pid" 2>/dev/null
  for dir in "$work"/*/namesrv; do [ -f "$dir/pid" ] && bash "$upstream" stop "$dir"; done
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
for line in "${lines[@]}"; do
  dir=$work/$line
  mkdir -p "$dir"
  port=$(bash "$upstream" start "$line" "$dir/namesrv") || { failures=$((failures + 1)); continue; }
  mkfifo "$dir/hold"
  # The cluster reads the fifo until it closes: fd 3 keeps it open, closing fd 3 ends it.
  java -Xms64m -Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED -Dtls.server.mode=disabled \
    -cp "$root/build-upstream/$line/classes:$(cat "$root/build-upstream/$line/classpath.txt")" \
    nssim.upstream.HeldCluster --namesrv "127.0.0.1:$port" --home "$dir/cluster" \
    <"$dir/hold" >"$dir/cluster.out" 2>"$dir/cluster.err" &
  cluster_pid=$!
  exec 3>"$dir/hold"
  deadline=$((SECONDS + ready_timeout_s))
  until grep -qx ready "$dir/cluster.out" 2>/dev/null; do
    if ! kill -0 "$cluster_pid" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "import $line: the cluster did not come up:"
      tail -n 15 "$dir/cluster.err"
      break
    fi
    sleep 0.1
  done
  "$nssim" import --namesrv "127.0.0.1:$port" --producers 10@5 --out "$dir/imported.json" \
    >"$dir/import.out" 2>&1
  code=$?
  exec 3>&-
  wait "$cluster_pid" 2>/dev/null
  cluster_pid=
  bash "$upstream" stop "$dir/namesrv"
  if [ $code -ne 0 ]; then
    echo "import $line: nssim import exited $code: $(cat "$dir/import.out")"
    failures=$((failures + 1))
    continue
  fi
  sed "s/127\.0\.0\.1:$port/NAMESRV/g" "$dir/imported.json" >"$dir/normalised.json"
  golden=$root/tests/upstream/import/$line.json
  if [ -n "${UPDATE_GOLDEN:-}" ]; then
    mkdir -p "$(dirname "$golden")"
    cp "$dir/normalised.json" "$golden"
    echo "import $line: wrote $golden"
  elif ! diff -u --label "golden $line" --label "imported $line" "$golden" "$dir/normalised.json"; then
    failures=$((failures + 1))
    continue
  fi
  if ! "$nssim" run "$dir/imported.json" --out "$dir/run" >"$dir/run.out" 2>&1; then
    echo "import $line: nssim run of the imported scenario failed: $(tail -n 3 "$dir/run.out")"
    failures=$((failures + 1))
    continue
  fi
  echo "import $line: the imported scenario equals the golden and runs"
done
echo "import: ${#lines[@]} lines, $failures failing"
[ $failures -eq 0 ]
