# Sourced by the tests that run nssim on a one-node local Slurm cluster (scripts/slurm-local.sh):
# check_slurm_sweep.sh and check_slurm_explore.sh. Defines result, fail and skip_or_fail for
# `test_name`, makes the folder `work` (removed, with the cluster stopped, on exit) and starts
# the cluster there: exit 77 (skipped) when Slurm cannot be installed or started, unless CI is
# set, where failing to start is a failure.
# shellcheck shell=bash
slurm_local=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/slurm-local.sh

result() { echo "$test_name: $1"; }
fail() { echo "FAIL: $*"; result "0 passed, 1 failed"; exit 1; }
skip_or_fail() {
  [ -n "${CI:-}" ] && fail "$1 (CI is set, so this does not skip)"
  echo "SKIP: $1"
  exit 77
}

work=$(mktemp -d)
# munged wants every folder above its socket searchable by all; mktemp -d gives 0700.
chmod 755 "$work"
# Our own cluster in our own folder: never the developer's /tmp/nssim-slurm, nor its ports.
export NSSIM_SLURM_DIR=$work/slurm-state
cleanup() {
  bash "$slurm_local" stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if ! env_line=$(bash "$slurm_local" start 2>"$work/start.log"); then
  cat "$work/start.log"
  skip_or_fail "a local Slurm could not be installed or started"
fi
eval "$env_line"
