#!/usr/bin/env bash
# Runs one explore twice, on this machine (-j 2) and as a 3-task Slurm job array on a one-node
# local cluster (scripts/slurm-local.sh), into the same --out (explore.json names it in its
# commands), and requires the same files byte for byte: sharding, submitting, waiting and merging
# must not change an explore's result. Then a lost shard: the same command resubmits only it.
# Exit 77 (skipped) when Slurm cannot be installed or started, unless CI is set, as
# check_slurm_sweep.sh.
set -euo pipefail
usage="usage: check_slurm_explore.sh NSSIM SCENARIO"
nssim=${1:?$usage}
scenario=${2:?$usage}
# The array tasks run the binary by the path written into explore.sbatch: make it absolute.
case $nssim in /*) ;; *) nssim=$PWD/$nssim ;; esac
test_name="slurm explore"
# shellcheck source=tests/scripts/lib_local_slurm.sh
source "$(dirname "$0")/lib_local_slurm.sh"

out=$work/out
# explore: exit 1 when a property broke (the planted one does), 2 on bad input.
explore() { # LOG ARGS...: bounded below ctest's timeout, so a hang still reaches the trap
  local log=$1 code=0
  shift
  timeout 1200 "$nssim" explore "$scenario" --runs 30 --out "$out" "$@" >"$work/$log" 2>&1 ||
    code=$?
  if [ $code -ne 1 ]; then
    tail -n 20 "$work/$log"
    for f in "$out"/slurm/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 10 "$f"; }; done
    fail "explore $* exited $code, not 1"
  fi
}
same() { # WHAT: the local explore's files and the Slurm one's, but for the Slurm job's own
  diff -r -x shards -x slurm -x explore.sbatch "$work/local" "$out" >"$work/diff" ||
    { head -n 20 "$work/diff"; fail "$1"; }
}

explore local.log -j 2
mv "$out" "$work/local"
explore slurm.log --slurm --slurm-tasks 3
grep -qx -- '#SBATCH --array=1-3' "$out/explore.sbatch" ||
  { cat "$out/explore.sbatch"; fail "explore.sbatch has no --array=1-3"; }
same "the Slurm explore of $scenario differs from the local one"
rm "$out/shards/shard-2-of-3.json" "$out/explore.json"
explore resubmit.log --slurm --slurm-tasks 3
grep -qx -- '#SBATCH --array=2' "$out/explore.sbatch" ||
  { cat "$out/explore.sbatch"; fail "the rerun did not resubmit only shard 2"; }
grep -q "(1 of 3 shards)" "$work/resubmit.log" || { cat "$work/resubmit.log"; fail "no '1 of 3 shards'"; }
same "the Slurm explore differs after resubmitting one shard"
result "1 passed, 0 failed"
