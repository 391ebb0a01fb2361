#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for testing `nssim sweep --slurm` without a real
# cluster: munged, slurmctld and slurmd run as plain background daemons (no systemd, no cgroups,
# no accounting), and everything they write lives in one state folder.
#
#   scripts/slurm-local.sh start|stop|status|env
#   eval "$(scripts/slurm-local.sh env)"     # points sbatch/squeue/sinfo at this cluster
#
# State folder: $NSSIM_SLURM_DIR, default /tmp/nssim-slurm. Ports: $NSSIM_SLURM_PORT (slurmctld;
# slurmd takes the next one), default the first free pair from 6817 up. Installs Debian's
# slurm-wlm and munge when missing, here rather than in install-deps.sh, so that the normal
# build does not pay for them. Needs root (or sudo) only for that install.
set -euo pipefail

dir=${NSSIM_SLURM_DIR:-/tmp/nssim-slurm}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
conf=$dir/etc/slurm.conf
node=$(hostname -s)
daemons=(slurmd slurmctld munged) # stop order: the node first, munged (their auth) last

pidfile() { echo "$dir/run/$1.pid"; }

# A daemon that exited stays a zombie until pid 1 reaps it (seconds, in some containers): count
# that as gone.
alive() { kill -0 "$1" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

# Prints the pid of daemon $1 if its pid file names a live process of that name (the name check
# keeps a stale pid file from pointing us at an unrelated process that reused the pid).
running_pid() {
  local f pid
  f=$(pidfile "$1")
  [ -s "$f" ] || return 1
  pid=$(tr -dc 0-9 <"$f")
  [ -n "$pid" ] && alive "$pid" || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] || return 1
  echo "$pid"
}

install_if_missing() {
  local c missing=0
  for c in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$c" >/dev/null || missing=1
  done
  [ $missing -eq 0 ] && return 0
  local sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "slurm-local: slurm-wlm/munge missing and not root" >&2; return 1; }
    sudo_cmd=sudo
  fi
  echo "slurm-local: installing slurm-wlm munge" >&2
  local log rc=0
  log=$(mktemp)
  # In this project's containers (no systemd, a policy-rc.d that denies) the packages' own
  # services do not start; on a systemd host apt starts munge.service as it always does.
  { $sudo_cmd apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
      slurm-wlm munge; } >"$log" 2>&1 || { rc=1; tail -n 20 "$log" >&2; }
  rm -f "$log"
  return $rc
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {
  if [ -n "${NSSIM_SLURM_PORT:-}" ]; then
    ctld_port=$NSSIM_SLURM_PORT
  else
    # Probe pairs so a second cluster (a test's, beside a developer's) does not clash.
    ctld_port=6817
    local tries=0
    until port_free $ctld_port && port_free $((ctld_port + 1)); do
      tries=$((tries + 1))
      [ $tries -lt 50 ] || { echo "slurm-local: no free port pair from 6817 up" >&2; return 1; }
      ctld_port=$((ctld_port + 2))
    done
  fi
  slurmd_port=$((ctld_port + 1))
}

write_conf() {
  local cpus mem_mb
  cpus=$(nproc)
  # A bit under the real memory: slurmd drains a node that has less than RealMemory says.
  mem_mb=$(awk '/^MemTotal:/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)
  cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node test cluster; everything under $dir.
ClusterName=nssim-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# munged does not use the system socket here; every Slurm client and daemon reads this.
AuthInfo=socket=$dir/run/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$(pidfile slurmctld)
SlurmdPidFile=$(pidfile slurmd)
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups in a container: track job processes through /proc, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# No accounting, so keep a plain record of finished jobs (state and exit code per array task).
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.log
MpiDefault=none
SchedulerType=sched/builtin
# Start pending array tasks as soon as a CPU frees up (the default waits up to 3 s each time).
SchedulerParameters=batch_sched_delay=0
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Finished jobs leave squeue/scontrol quickly; a waiting client sees an empty squeue soon.
MinJobAge=2
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

log_tails() {
  local f
  for f in "$dir/munge/munged.log" "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/log/daemons.out"; do
    [ -f "$f" ] && { echo "--- tail of $f"; tail -n 15 "$f"; }
  done >&2
}

fail() { echo "slurm-local: $*" >&2; log_tails; do_stop >/dev/null 2>&1 || true; exit 1; }

do_start() {
  install_if_missing || { echo "slurm-local: could not install slurm-wlm/munge" >&2; exit 1; }
  if running_pid slurmctld >/dev/null && running_pid slurmd >/dev/null && running_pid munged >/dev/null; then
    echo "slurm-local: already running in $dir" >&2
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  do_stop >/dev/null # a half-started cluster from before: start clean
  mkdir -p "$dir"/{munge,run,etc,state,spool,log}
  # munged refuses a socket whose folders are not searchable by all, and a key folder others
  # can read; the state folder's parents must be a+x too (mktemp -d folders are 0700).
  chmod 755 "$dir" "$dir/run"
  chmod 700 "$dir/munge"
  [ -s "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null
  chmod 600 "$dir/munge/munge.key"
  munged --key-file="$dir/munge/munge.key" --socket="$dir/run/munge.socket" \
    --pid-file="$(pidfile munged)" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" </dev/null >>"$dir/log/daemons.out" 2>&1 ||
    fail "munged did not start"
  pick_ports
  write_conf
  # Daemon mode: they fork, write their pid files and keep no descriptor of ours (a ctest or a
  # caller's pipe would otherwise stay open until they exit). -c: start with no old jobs.
  slurmctld -c -f "$conf" </dev/null >>"$dir/log/daemons.out" 2>&1 || fail "slurmctld did not start"
  slurmd -f "$conf" -N "$node" </dev/null >>"$dir/log/daemons.out" 2>&1 || fail "slurmd did not start"
  export SLURM_CONF=$conf
  local i state=""
  for i in $(seq 1 150); do # 150 x 0.2 s = 30 s at most
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    # After 2 s (time to fork and write their pid files), a daemon that is gone failed.
    if [ "$i" -ge 10 ]; then
      running_pid slurmctld >/dev/null || fail "slurmctld exited"
      running_pid slurmd >/dev/null || fail "slurmd exited"
    fi
    sleep 0.2
  done
  [ "$state" = idle ] || fail "node $node not idle after 30 s (state: ${state:-none})"
  echo "slurm-local: running in $dir (slurmctld port $ctld_port, node $node, $(nproc) CPUs)" >&2
  echo "export SLURM_CONF=$conf"
}

stop_one() {
  local name=$1 pid i
  if pid=$(running_pid "$name"); then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do # 10 s at most, then KILL
      alive "$pid" || break
      sleep 0.2
    done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    echo "slurm-local: stopped $name ($pid)" >&2
  fi
  rm -f "$(pidfile "$name")"
}

do_stop() {
  # Cancel what still runs first, or its slurmstepd and job processes outlive slurmd.
  if [ -f "$conf" ] && running_pid slurmctld >/dev/null; then
    export SLURM_CONF=$conf
    if [ -n "$(squeue -h -o %A 2>/dev/null)" ]; then
      scancel --quiet --user="$(id -un)" 2>/dev/null || true
      local i
      for i in $(seq 1 50); do
        [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
        sleep 0.2
      done
    fi
  fi
  local d
  for d in "${daemons[@]}"; do stop_one "$d"; done
  rm -f "$dir/run/munge.socket" "$dir/run/munge.socket.lock"
}

do_status() {
  local d pid all=0
  for d in munged slurmctld slurmd; do
    if pid=$(running_pid "$d"); then echo "$d: running (pid $pid)"; else echo "$d: not running"; all=3; fi
  done
  if running_pid slurmctld >/dev/null; then SLURM_CONF=$conf sinfo -N -o '%N %T %c %m' || true; fi
  return $all
}

case ${1:-} in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: $0 start|stop|status|env   (state folder: \$NSSIM_SLURM_DIR, default /tmp/nssim-slurm)" >&2; exit 2 ;;
esac
