#!/usr/bin/env bash
# Runs one sweep twice, on this machine (-j 2) and as a Slurm job array on a one-node local
# cluster (scripts/slurm-local.sh), and requires the same sweep.json byte for byte: sharding,
# submitting, waiting and merging must not change a sweep's result.
# Exit 77 (skipped) when Slurm cannot be installed or started, unless CI is set: there the test
# must run, so that failing to start is a failure.
set -euo pipefail
usage="usage: check_slurm_sweep.sh NSSIM SCENARIO"
nssim=${1:?$usage}
scenario=${2:?$usage}
# The array tasks run the binary by the path written into sweep.sbatch: make it absolute.
case $nssim in /*) ;; *) nssim=$PWD/$nssim ;; esac
test_name="slurm sweep"
# shellcheck source=tests/scripts/lib_local_slurm.sh
source "$(dirname "$0")/lib_local_slurm.sh"

# Bounded below ctest's default timeout, so that a hang still reaches the trap and stops Slurm.
timeout 1200 "$nssim" sweep "$scenario" --seeds 40 -j 2 --out "$work/local" >"$work/local.log" 2>&1 ||
  { tail -n 20 "$work/local.log"; fail "local sweep failed"; }
if ! timeout 1200 "$nssim" sweep "$scenario" --seeds 40 --slurm --slurm-tasks 4 \
  --out "$work/slurm" >"$work/slurm.log" 2>&1; then
  tail -n 20 "$work/slurm.log"
  for f in "$work"/slurm/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 10 "$f"; }; done
  fail "slurm sweep failed"
fi

grep -q -- '--array=1-4' "$work/slurm/sweep.sbatch" ||
  { cat "$work/slurm/sweep.sbatch"; fail "sweep.sbatch has no --array=1-4"; }
if ! cmp "$work/local/sweep.json" "$work/slurm/sweep.json"; then
  diff <(head -c 2000 "$work/local/sweep.json") <(head -c 2000 "$work/slurm/sweep.json") || true
  fail "sweep.json differs between the local and the Slurm sweep of $scenario"
fi
# A lost shard: the same command resubmits only that shard, and the merge is the same again.
rm "$work/slurm/shards/shard-2-of-4.json" "$work/slurm/sweep.json"
if ! timeout 1200 "$nssim" sweep "$scenario" --seeds 40 --slurm --slurm-tasks 4 \
  --out "$work/slurm" >"$work/resubmit.log" 2>&1; then
  tail -n 20 "$work/resubmit.log"
  fail "the resubmitting slurm sweep failed"
fi
grep -qx -- '#SBATCH --array=2' "$work/slurm/sweep.sbatch" ||
  { cat "$work/slurm/sweep.sbatch"; fail "the rerun did not resubmit only shard 2"; }
grep -q "(1 of 4 shards)" "$work/resubmit.log" || { cat "$work/resubmit.log"; fail "no '1 of 4 shards'"; }
cmp "$work/local/sweep.json" "$work/slurm/sweep.json" ||
  fail "sweep.json differs after resubmitting one shard"
result "1 passed, 0 failed"
