#!/usr/bin/env bash
# The real Apache RocketMQ NameServer on loopback, beside nssim (docs/fidelity.md).
#   scripts/upstream.sh fetch [LINE...]      fetch the artifacts into ~/.m2 and build the driver
#   scripts/upstream.sh start LINE DIR       start NamesrvStartup of LINE (4.9 or 5.x) with its
#                                            home in DIR; prints the port once it accepts
#   scripts/upstream.sh stop DIR             stop the NameServer started in DIR, by its pid
#   scripts/upstream.sh replay LINE FILE     a fresh NameServer answers FILE through ReplayOnWire
#   scripts/upstream.sh sessions LINE OUT FILE...
#                                            each FILE answered by a fresh NameServer started by
#                                            NamesrvStartup inside the driver's JVM, into OUT/
#                                            (ReplayOnWire's flags may come first: --paced
#                                            [--parallel N] [--stagger-ms MS], in real time)
# LINE 4.9 is rocketmq-namesrv 4.9.7 (4.9.8 is not on Maven Central), 5.x is 5.3.3
# (tests/upstream/pom.xml). Needs java and mvn (scripts/install-deps.sh --tests installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build-upstream
readonly start_timeout_s=60  # a safety net: a NameServer starts in about 2 s here

die() { echo "upstream.sh: $*" >&2; exit 2; }

check_line() {
  case "$1" in 4.9 | 5.x) ;; *) die "expected a line 4.9 or 5.x, got '$1'" ;; esac
}

fetch() {
  local lines=("$@") line
  [ ${#lines[@]} -gt 0 ] || lines=(4.9 5.x)
  for line in "${lines[@]}"; do
    check_line "$line"
    mvn -q -B -Dstyle.color=never -f "$root/tests/upstream/pom.xml" -P "rocketmq-$line" compile >&2 ||
      die "mvn could not fetch or build the $line artifacts (see above)"
  done
}

classpath() {
  [ -f "$out/$1/classpath.txt" ] || die "no build for $1: run scripts/upstream.sh fetch $1"
  echo "$out/$1/classes:$(cat "$out/$1/classpath.txt")"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local line=$1 dir=$2 port pid deadline
  check_line "$line"
  mkdir -p "$dir/conf"
  # 4.9's NamesrvStartup reads ROCKETMQ_HOME/conf/logback_namesrv.xml; its log goes nowhere.
  echo '<configuration><root level="OFF"/></configuration>' >"$dir/conf/logback_namesrv.xml"
  port=$(free_port)
  # bindAddress (5.x only; 4.9 binds every interface) keeps the NameServer on loopback.
  printf 'listenPort=%s\nbindAddress=127.0.0.1\n' "$port" >"$dir/namesrv.properties"
  # tls.server.mode=disabled: plain TCP, and no self-signed certificate built at start (0.6 s).
  ROCKETMQ_HOME=$dir java -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dtls.server.mode=disabled \
    -Duser.home="$dir" -Drocketmq.home.dir="$dir" -cp "$(classpath "$line")" \
    org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties" \
    >"$dir/namesrv.out" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"
  echo "$port" >"$dir/port"
  deadline=$((SECONDS + start_timeout_s))
  until accepts "$port"; do
    kill -0 "$pid" 2>/dev/null || die "the $line NameServer exited: $(tail -n 3 "$dir/namesrv.out")"
    [ $SECONDS -lt $deadline ] || { kill "$pid"; die "the $line NameServer did not accept on $port in ${start_timeout_s} s"; }
    sleep 0.05
  done
  echo "$port"
}

stop() {
  local dir=$1 pid
  [ -f "$dir/pid" ] || die "no NameServer was started in $dir"
  pid=$(cat "$dir/pid")
  # SIGKILL: the NameServer keeps nothing we need (its home is a temporary folder), and its
  # graceful shutdown spends ~4 s in Netty's quiet periods.
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  rm -f "$dir/pid"
}

replay() {
  local line=$1 file=$2 dir port code=0
  check_line "$line"
  dir=$(mktemp -d)
  port=$(start "$line" "$dir")
  java -Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$(classpath "$line")" \
    nssim.upstream.ReplayOnWire --addr "127.0.0.1:$port" --profile "$line" "$file" || code=$?
  stop "$dir"
  rm -rf "$dir"
  return $code
}

sessions() {
  local line=$1 outdir=$2 scratch code=0
  shift 2
  check_line "$line"
  scratch=$(mktemp -d)
  java -Xms64m -Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$(classpath "$line")" \
    nssim.upstream.ReplayOnWire --profile "$line" --fresh-namesrv "$scratch" --out-dir "$outdir" \
    "$@" || code=$?
  rm -rf "$scratch"
  return $code
}

[ $# -ge 1 ] || die "expected a command: fetch, start, stop, replay or sessions"
command=$1
shift
case "$command" in
  fetch) fetch "$@" ;;
  start) [ $# -eq 2 ] || die "usage: start LINE DIR"; start "$@" ;;
  stop) [ $# -eq 1 ] || die "usage: stop DIR"; stop "$@" ;;
  replay) [ $# -eq 2 ] || die "usage: replay LINE FILE"; replay "$@" ;;
  sessions) [ $# -ge 3 ] || die "usage: sessions LINE OUT FILE..."; sessions "$@" ;;
  *) die "expected a command: fetch, start, stop, replay or sessions, got '$command'" ;;
esac
