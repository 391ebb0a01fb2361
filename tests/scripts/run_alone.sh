#!/usr/bin/env bash
# ctest's wrapper for every test that is a command (tests/CMakeLists.txt, nssim_alone): runs
# COMMAND in a session of its own and, once it has exited, fails when a process of that session
# is still alive (issue 27: two `nssim serve` outlived every run of upstream_real_client). The
# survivors are named, then killed by their pids. Otherwise the exit is COMMAND's, so a skip (77)
# stays a skip.
# usage: run_alone.sh COMMAND [ARG...]
# A process that leaves the session on purpose (setsid, a daemon) is not seen: the tests that
# start daemons (slurm_sweep) stop them by their pids in their own traps.
set -u
[ $# -ge 1 ] || { echo "usage: run_alone.sh COMMAND [ARG...]" >&2; exit 2; }
readonly exit_grace_polls=50  # 5 s in steps of 0.1 s: a process killed just before the end may
                              # still be on its way out

sid_file=$(mktemp)
sid=
# The session's live processes other than zombies (a zombie is dead, its parent not yet told).
session_processes() {
  ps -e -o pid=,sid=,stat=,args= | awk -v sid="$sid" '$2 == sid && $3 !~ /^Z/'
}
kill_session() {
  [ -n "$sid" ] || sid=$(cat "$sid_file" 2>/dev/null)
  [ -n "$sid" ] || return 0
  local pids
  pids=$(session_processes | awk '{print $1}')
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null
}
# ctest's timeout or a ^C ends the wrapper: the session goes with it.
trap 'kill_session; rm -f "$sid_file"; exit 143' TERM
trap 'kill_session; rm -f "$sid_file"; exit 130' INT

# After setsid (which forks first when it must), bash -c's $$ is the session leader: its pid is
# the session's id.
setsid --wait bash -c 'echo $$ >"$0"; exec "$@"' "$sid_file" "$@" &
leader=$!
wait "$leader"
code=$?
sid=$(cat "$sid_file")
rm -f "$sid_file"
[ -n "$sid" ] || { echo "run_alone.sh: setsid did not start '$1'" >&2; exit 1; }

left=$(session_processes)
for ((poll = 0; poll < exit_grace_polls && ${#left} > 0; poll++)); do
  sleep 0.1
  left=$(session_processes)
done
if [ -n "$left" ]; then
  echo "run_alone.sh: the test left these processes behind (killed now):"
  echo "$left" | sed 's/^/  /'
  kill_session
  exit 1
fi
exit "$code"
