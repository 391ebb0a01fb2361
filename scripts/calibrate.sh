#!/usr/bin/env bash
# A real RocketMQ cluster beside nssim (docs/fidelity.md, "A real cluster beside the simulator").
#   scripts/calibrate.sh SCENARIO [--line 4.9|5.x] [--out DIR] [--seeds N] [--nssim BIN]
#                        [--assert FIGURE[:TOLERANCE]]...
# starts the cluster SCENARIO describes (scenarios/calibrate_*.json: its NameServers, broker
# masters and one set of producers at a fixed rate) on this machine: NamesrvStartup JVMs on the
# host, each BrokerStartup in a network namespace of its own joined to the host by a veth pair,
# the producer harness and the poller of tests/upstream/src. It plays the scenario's one fault at
# its time (kill: SIGKILL; pause: SIGSTOP, then SIGCONT; poweroff: the broker's end of the veth
# goes down, so its packets vanish; shutdown: SIGTERM, the broker unregisters; a partition of
# the producers from some masters, from time 0 to the end: those masters are made up, registered
# by tests/upstream's SilentBrokers at addresses whose packets vanish), measures what
# nssim measures (tests/upstream/calibrate.py), runs `nssim sweep` of the same scenario under the
# same line over N seeds (default 200) and writes DIR/calibration.md and DIR/calibration.json:
# each real figure beside nssim's distribution, inside or outside its [p1, p99]. Each
# --assert FIGURE[:TOLERANCE] (a figure of that table; TOLERANCE widens the range, in its unit)
# makes the exit 1 when the real value is outside. Exit 77 (skipped) when java, ip or the
# upstream build is missing, or when not root, unless CI=true.
# Everything it starts (processes, namespaces, veths) is removed on exit, also on failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
readonly start_timeout_s=120  # a safety net: a broker starts in about 10 s here

die() { echo "calibrate.sh: $*" >&2; exit 2; }
skip() {
  if [ "${CI:-}" = "true" ]; then echo "calibrate.sh: cannot run under CI=true: $*" >&2; exit 1; fi
  echo "calibrate.sh: skipped: $*"
  exit 77
}

[ $# -ge 1 ] || die "usage: calibrate.sh SCENARIO [--line 4.9|5.x] [--out DIR] [--seeds N] [--nssim BIN] [--assert FIGURE]..."
scenario=$1
shift
line=5.x out="" seeds=200 nssim=$root/build/nssim asserts=()
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 needs a value"
  case "$1" in
    --line) line=$2 ;;
    --out) out=$2 ;;
    --seeds) seeds=$2 ;;
    --nssim) nssim=$2 ;;
    --assert) asserts+=(--assert "$2") ;;
    *) die "unknown option '$1'" ;;
  esac
  shift 2
done
case "$line" in 4.9 | 5.x) ;; *) die "expected --line 4.9 or 5.x, got '$line'" ;; esac
[[ "$seeds" =~ ^[1-9][0-9]*$ ]] || die "expected --seeds N (a whole number >= 1), got '$seeds'"
[ -f "$scenario" ] || die "no scenario file '$scenario'"
[ -x "$nssim" ] || die "no nssim executable at '$nssim' (build it, or pass --nssim)"
command -v python3 >/dev/null || die "python3 is needed"
plan=$(python3 "$root/tests/upstream/calibrate.py" plan "$scenario") || exit 2
eval "$plan"
name=$(basename "$scenario" .json)
[ -n "$out" ] || out=$root/out/calibrate-$name-$line

command -v java >/dev/null || skip "java is not installed (scripts/install-deps.sh --tests installs it)"
command -v ip >/dev/null || skip "ip (iproute2) is not installed"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
[ -f "$root/build-upstream/$line/classpath.txt" ] ||
  skip "no upstream build for $line: run scripts/upstream.sh fetch $line"
classpath="$root/build-upstream/$line/classes:$(cat "$root/build-upstream/$line/classpath.txt")"
jvm=(-Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)

rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
tag=$(( $$ % 100000 ))  # names of this run's namespaces and veths (at most 15 characters)
pids=() namespaces=() veths=()

# Stops what this run started, in reverse: a SIGSTOPped broker is continued so SIGKILL lands.
cleanup() {
  local pid ns veth
  for pid in "${pids[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  for veth in "${veths[@]}"; do ip link del "$veth" 2>/dev/null || true; done
  for ns in "${namespaces[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  # The producers' client log (each attempt's exception), kept with the other raw logs.
  if [ -d "$work/logs/rocketmqlogs" ]; then
    mkdir -p "$out/client-logs" && cp "$work"/logs/rocketmqlogs/*.log "$out/client-logs/" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ms() { date +%s%3N; }
accepts() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("0.0.0.0", 0)); print(s.getsockname()[1])'
}
# The scenario's timeline is the experiment: wait for its instant on the wall clock.
sleep_until() {
  local target_ms=$1 left
  while left=$((target_ms - $(now_ms))); [ "$left" -gt 0 ]; do
    sleep "$(printf '0.%03d' $((left > 999 ? 999 : left)))"
  done
}
await_port() {
  local host=$1 port=$2 pid=$3 what=$4 deadline=$((SECONDS + start_timeout_s))
  until accepts "$host" "$port"; do
    kill -0 "$pid" 2>/dev/null || die "$what exited: $(tail -n 5 "$5")"
    [ $SECONDS -lt $deadline ] || die "$what did not accept on $host:$port in ${start_timeout_s} s"
    sleep 0.1
  done
}

# The NameServers' own log, with milliseconds, for the removal path (calibrate.py reads it):
# RocketmqNamesrv (RouteInfoManager) and RocketmqRemoting (the idle close).
namesrv_logback() {
  cat <<EOF
<configuration>
  <appender name="file" class="ch.qos.logback.core.FileAppender">
    <file>$1</file>
    <encoder><pattern>%d{yyyy-MM-dd HH:mm:ss.SSS,UTC} %p %t - %m%n</pattern></encoder>
  </appender>
  <logger name="RocketmqNamesrv" level="INFO" additivity="false"><appender-ref ref="file"/></logger>
  <logger name="RocketmqRemoting" level="INFO" additivity="false"><appender-ref ref="file"/></logger>
  <root level="OFF"/>
</configuration>
EOF
}

ns_addrs=() ns_ports=()
for ((i = 0; i < ns_count; i++)); do
  dir=$out/ns-$i
  mkdir -p "$dir/conf" "$work/ns-$i"
  port=$(free_port)
  namesrv_logback "$dir/namesrv.log" >"$dir/conf/logback_namesrv.xml"
  # 0.0.0.0: the brokers reach the NameServers through their veths (4.9 binds every interface).
  printf 'listenPort=%s\nbindAddress=0.0.0.0\n' "$port" >"$dir/namesrv.properties"
  # 4.9 reads ROCKETMQ_HOME/conf/logback_namesrv.xml, 5.x rmq.logback.configurationFile.
  ROCKETMQ_HOME=$dir java "${jvm[@]}" -Dtls.server.mode=disabled -Duser.home="$work/ns-$i" \
    -Drocketmq.home.dir="$dir" -Drmq.logback.configurationFile="$dir/conf/logback_namesrv.xml" \
    -cp "$classpath" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties" \
    >"$dir/stdout.txt" 2>&1 &
  pids+=($!)
  ns_ports+=("$port")
  ns_addrs+=("127.0.0.1:$port")
done
for ((i = 0; i < ns_count; i++)); do
  await_port 127.0.0.1 "${ns_ports[$i]}" "${pids[$i]}" "NameServer ns-$i" "$out/ns-$i/stdout.txt"
done

# Broker group k lives in namespace cal<k>n<tag> at 10.213.<k+1>.2, the host's end at .1.
broker_addrs=() broker_pids=() broker_ns=() broker_veth=()
k=0
for group in $real_groups; do
  ns=cal${k}n$tag host_veth=cal${k}h$tag broker_veth_name=cal${k}b$tag
  net=10.213.$((k + 1))
  ip netns add "$ns"
  namespaces+=("$ns")
  ip link add "$host_veth" type veth peer name "$broker_veth_name"
  veths+=("$host_veth")
  ip link set "$broker_veth_name" netns "$ns"
  ip addr add "$net.1/30" dev "$host_veth"
  ip link set "$host_veth" up
  ip -n "$ns" addr add "$net.2/30" dev "$broker_veth_name"
  ip -n "$ns" link set "$broker_veth_name" up
  ip -n "$ns" link set lo up
  # Fixed neighbours both ways: when the broker's link goes down (poweroff) packets to it are
  # dropped in silence, as to a dead host, instead of failing fast once ARP gives up.
  ip neigh replace "$net.2" lladdr "$(ip -n "$ns" link show "$broker_veth_name" | awk '/link\/ether/ {print $2}')" \
    nud permanent dev "$host_veth"
  ip -n "$ns" neigh replace "$net.1" lladdr "$(ip link show "$host_veth" | awk '/link\/ether/ {print $2}')" \
    nud permanent dev "$broker_veth_name"
  dir=$out/$group
  mkdir -p "$dir/conf" "$work/$group"
  echo '<configuration><root level="OFF"/></configuration>' >"$dir/conf/logback_broker.xml"
  namesrv_addr=$(printf "$net.1:%s;" "${ns_ports[@]}")
  cat >"$dir/broker.properties" <<EOF
brokerClusterName=DefaultCluster
brokerName=$group
brokerId=0
namesrvAddr=${namesrv_addr%;}
brokerIP1=$net.2
listenPort=10911
registerNameServerPeriod=$register_ms
storePathRootDir=$work/$group/store
storePathCommitLog=$work/$group/store/commitlog
mappedFileSizeCommitLog=8388608
mappedFileSizeConsumeQueue=60000
timerWheelEnable=false
EOF
  # ip netns exec execs java itself: the pid is the broker's, for kill, SIGSTOP and SIGCONT.
  # --add-opens: 4.9's MappedFile#clean reaches into DirectByteBuffer and its Cleaner by
  # reflection, which JDK 17 refuses: its shutdown would fail there, before
  # BrokerController#unregisterBrokerAll, and the JVM exit without unregistering.
  ROCKETMQ_HOME=$dir ip netns exec "$ns" java "${jvm[@]}" --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
    -Dtls.server.mode=disabled \
    -Duser.home="$work/$group" -Drocketmq.home.dir="$dir" -cp "$classpath" \
    org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.properties" >"$dir/stdout.txt" 2>&1 &
  pids+=($!)
  broker_pids+=($!)
  broker_ns+=("$ns")
  broker_veth+=("$broker_veth_name")
  broker_addrs+=("$net.2:10911")
  k=$((k + 1))
done
k=0
for group in $real_groups; do
  await_port "${broker_addrs[$k]%:*}" 10911 "${broker_pids[$k]}" "broker $group" "$out/$group/stdout.txt"
  k=$((k + 1))
done

namesrv_list=$(IFS=';'; echo "${ns_addrs[*]}")

# The partitioned masters: made up, registered with every NameServer by SilentBrokers, silent
# group j at 10.213.250.<j+2>, routed into a veth whose far end stays down, with fixed neighbour
# entries: the host's packets to them vanish, so a connect waits its whole timeout.
silent_addrs=() silent_list=""
if [ -n "$silent_groups" ]; then
  silent_veth=cals${tag}h
  ip link add "$silent_veth" type veth peer name "cals${tag}b"
  veths+=("$silent_veth")
  ip addr add 10.213.250.1/24 dev "$silent_veth"
  ip link set "$silent_veth" up
  silent_mac=$(ip link show "cals${tag}b" | awk '/link\/ether/ {print $2}')
  j=0
  for group in $silent_groups; do
    ip neigh replace "10.213.250.$((j + 2))" lladdr "$silent_mac" nud permanent dev "$silent_veth"
    silent_addrs+=("10.213.250.$((j + 2)):10911")
    silent_list+="${silent_list:+,}$group=10.213.250.$((j + 2)):10911"
    j=$((j + 1))
  done
  java -Xms32m -Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$classpath" nssim.upstream.SilentBrokers \
    --out "$out/silent.jsonl" --namesrv "$namesrv_list" --brokers "$silent_list" --topic "$topic" \
    --queues "$queues" --period-ms "$register_ms" >"$out/silent.err" 2>&1 &
  silent_pid=$!
  pids+=($silent_pid)
  deadline=$((SECONDS + start_timeout_s))
  until grep -qs '"event":"registered"' "$out/silent.jsonl"; do
    kill -0 "$silent_pid" 2>/dev/null || die "SilentBrokers exited: $(tail -n 5 "$out/silent.err")"
    [ $SECONDS -lt $deadline ] || die "SilentBrokers did not register in ${start_timeout_s} s"
    sleep 0.1
  done
fi
java -Xms32m -Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$classpath" \
  nssim.upstream.ClusterPoller --out "$out/poller.jsonl" --namesrv "$namesrv_list" \
  --interval-ms 100 >"$out/poller.err" 2>&1 &
pids+=($!)
stagger_ms=$(( (producers_start_max_ms - producers_start_min_ms) / producer_count ))
java "${jvm[@]}" -Duser.home="$work" -cp "$classpath" nssim.upstream.ClusterProducers \
  --out "$out/producers.jsonl" --namesrv "$namesrv_list" --brokers "$(IFS=','; echo "${broker_addrs[*]}")" \
  --producers "$producer_count" --rate "$rate_per_s" --topic "$topic" --queues "$queues" \
  --poll-ms "$poll_ms" --stagger-ms "$stagger_ms" --size "$message_size" \
  --route-brokers $((${#broker_addrs[@]} + ${#silent_addrs[@]})) \
  >"$out/producers.err" 2>&1 &
producers_pid=$!
pids+=($producers_pid)

# Time zero of the scenario: the first producer starts at producers.start.min_ms.
deadline=$((SECONDS + start_timeout_s))
until grep -qs '"event":"started"' "$out/producers.jsonl"; do
  kill -0 "$producers_pid" 2>/dev/null || die "the producers exited: $(tail -n 5 "$out/producers.err")"
  [ $SECONDS -lt $deadline ] || die "the producers did not start in ${start_timeout_s} s"
  sleep 0.1
done
first_ms=$(python3 -c 'import json,sys
print(next(json.loads(l)["t_ms"] for l in open(sys.argv[1]) if "\"started\"" in l))' "$out/producers.jsonl")
origin_ms=$((first_ms - producers_start_min_ms))
fault_ms=$((origin_ms + fault_at_ms))
end_ms=$((origin_ms + duration_ms))
target=-1 k=0
for group in $real_groups; do [ "$group" = "$fault_broker" ] && target=$k; k=$((k + 1)); done
if [ "$fault_kind" = partition ]; then
  echo "calibrate.sh: $name under $line: the producers cut from $silent_groups from the start, run ends at +$((duration_ms / 1000)) s" >&2
else
  [ "$target" -ge 0 ] || die "the fault's broker $fault_broker is not a group of the scenario"
  echo "calibrate.sh: $name under $line: $fault_kind of $fault_broker at +$((fault_at_ms / 1000)) s, run ends at +$((duration_ms / 1000)) s" >&2
fi

# nssim's kill is the process gone, its connections closed by its kernel at once. A real JVM
# dies some milliseconds after SIGKILL (its threads stopped, its memory unmapped, then its files
# closed): a watcher connection to the broker records when its kernel closed them, and the
# fault counts from then; kill_teardown_ms is the difference.
if [ "$fault_kind" = kill ]; then
  sleep_until $((fault_ms - 2000))
  python3 -c 'import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
print("ready", flush=True)
try:
    s.recv(1)
except OSError:
    pass
print(int(time.time() * 1000), flush=True)' "${broker_addrs[$target]%:*}" 10911 >"$work/closed" &
  watcher=$!
  pids+=($watcher)
  until grep -qs ready "$work/closed"; do kill -0 $watcher 2>/dev/null || die "the kill watcher exited"; sleep 0.05; done
fi
sleep_until "$fault_ms"
fault_played_ms=$(now_ms) teardown_ms=0
case "$fault_kind" in
  kill)
    kill -KILL "${broker_pids[$target]}"
    wait "$watcher" || die "the kill watcher failed"
    closed_ms=$(tail -n 1 "$work/closed")
    teardown_ms=$((closed_ms - fault_played_ms)) fault_played_ms=$closed_ms ;;
  pause) kill -STOP "${broker_pids[$target]}" ;;
  poweroff) ip -n "${broker_ns[$target]}" link set "${broker_veth[$target]}" down ;;
  shutdown) kill -TERM "${broker_pids[$target]}" ;;  # BrokerStartup's hook: BrokerController#shutdown
  partition) ;;  # silent since before the producers started
esac
fault_end_played_ms=null
if [ "$fault_kind" = pause ]; then
  sleep_until $((fault_ms + fault_duration_ms))
  fault_end_played_ms=$(now_ms)
  kill -CONT "${broker_pids[$target]}"
fi
sleep_until "$end_ms"
kill -0 "$producers_pid" 2>/dev/null || die "the producers exited early: $(tail -n 5 "$out/producers.err")"

cat >"$out/run.json" <<EOF
{"scenario": "$scenario", "line": "$line", "fault_kind": "$fault_kind", "poll_ms": $poll_ms, "origin_ms": $origin_ms, "fault_ms": $fault_played_ms,
 "fault_end_ms": $fault_end_played_ms, "kill_teardown_ms": $teardown_ms, "end_ms": $end_ms, "fault_broker": "$fault_broker",
 "fault_broker_addr": "$([ "$target" -ge 0 ] && echo "${broker_addrs[$target]}")",
 "silent_brokers": [$( ((${#silent_addrs[@]})) && printf '"%s",' "${silent_addrs[@]}" | sed 's/,$//')],
 "namesrvs": [$(printf '"%s",' "${ns_addrs[@]}" | sed 's/,$//')]}
EOF
cleanup
trap - EXIT
python3 "$root/tests/upstream/calibrate.py" measure "$out"
python3 "$root/tests/upstream/calibrate.py" compare "$out" --nssim "$nssim" --scenario "$scenario" \
  --line "$line" --seeds "$seeds" "${asserts[@]}"
