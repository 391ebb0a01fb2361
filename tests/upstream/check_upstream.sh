#!/usr/bin/env bash
# ctest upstream_differential: every replay example and golden input, N generated sequences
# per line and E generated expiry sessions on 5.x, replayed in real time (about 20 s for 8),
# through nssim and the real NameServer of each line (docs/fidelity.md).
# Skips (exit 77) when java, mvn or the artifacts are unavailable, unless CI=true.
# usage: check_upstream.sh NSSIM [GENERATED_PER_LINE [EXPIRY_SESSIONS]]
set -uo pipefail
nssim=$1 generated=${2:-20} expiry=${3:-8}
root=$(cd "$(dirname "$0")/../.." && pwd)
check_name="upstream differential"
source "$(dirname "$0")/lib_check.sh"
need_tools java mvn python3
bash "$root/scripts/upstream.sh" fetch 4.9 5.x || skip "the upstream artifacts could not be fetched"
inputs=()
# tests/upstream/sessions: sessions written for differences the comparison found, kept in the set.
for input in "$root"/examples/replay/*.jsonl "$root"/tests/replay/*.jsonl "$root"/tests/upstream/sessions/*.jsonl; do
  case "$input" in *.expected.jsonl) ;; *) inputs+=("$input") ;; esac
done
python3 "$root/tests/upstream/compare.py" --nssim "$nssim" --generate "$generated" --expiry "$expiry" "${inputs[@]}"
