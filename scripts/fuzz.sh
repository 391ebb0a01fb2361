#!/usr/bin/env bash
# Usage: scripts/fuzz.sh scenario_fuzz|replay_fuzz|sweep_merge_fuzz SECONDS [LIBFUZZER_FLAG...]
# Builds the fuzz target with Clang's libFuzzer, ASan and UBSan (NSSIM_FUZZ) into
# $NSSIM_FUZZ_BUILD (default build-fuzz), makes its seeds from the shipped files, and fuzzes for
# SECONDS. The corpus it grows stays in $NSSIM_FUZZ_BUILD/fuzz-work/TARGET/corpus for the next
# run; a finding is written to .../artifacts/ and makes the exit code non-zero. docs/fuzzing.md
# says how to run long and how to replay a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/fuzz.sh scenario_fuzz|replay_fuzz|sweep_merge_fuzz SECONDS [LIBFUZZER_FLAG...]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
target=$1
seconds=$2
shift 2
case "$target" in scenario_fuzz | replay_fuzz | sweep_merge_fuzz) ;; *)
  echo "scripts/fuzz.sh: unknown target '$target' (scenario_fuzz, replay_fuzz or sweep_merge_fuzz)" >&2
  exit 2 ;;
esac
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "scripts/fuzz.sh: SECONDS: expected a whole number of at least 1, got '$seconds'" >&2
  exit 2
fi

build=${NSSIM_FUZZ_BUILD:-build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DNSSIM_WERROR=ON -DNSSIM_FUZZ=ON >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target "$target" >/dev/null

work=$build/fuzz-work/$target
mkdir -p "$work/corpus" "$work/artifacts"
bash fuzz/make_seeds.sh "$target" "$work"
# No leak is expected: the targets run no SimGrid, so LeakSanitizer stays on here. 2 GiB and 10 s
# per input bound what an input may cost; beyond is a finding.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$build/fuzz/$target" -max_total_time="$seconds" -dict="$work/$target.dict" \
  -artifact_prefix="$work/artifacts/" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "$@" \
  "$work/corpus" "$work/seeds"
