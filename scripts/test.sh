#!/usr/bin/env bash
# Everything CI checks: the full build and its tests, the whole tree built with Clang and its unit
# tests, the pure core's tests under AddressSanitizer and UBSan, and formatting. Installs what is
# missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc)")

echo "== Clang 14 build of the whole tree (warnings are errors) and its unit tests"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DNSSIM_WERROR=ON >/dev/null
cmake --build build-clang -j"$(nproc)"
# The test executables, each in one process (about 50 s); the GCC build's ctest above already ran
# every test in its own process and the commands' scripts.
for suite in core processor codec reports sim_model sim_world; do
  NSSIM_SOURCE_DIR="$PWD" "build-clang/tests/${suite}_tests" --gtest_brief=1
done

echo "== sanitizer build of the pure core (address,undefined)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DNSSIM_WERROR=ON -DNSSIM_ONLY_CORE=ON \
      -DNSSIM_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ctest --output-on-failure -j"$(nproc)")

echo "== clang-format"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.cpp' '*.h')
else
  files=$(find . -path ./build -prune -o -path ./build-asan -prune -o -path ./build-clang -prune -o \( -name '*.cpp' -o -name '*.h' \) -print)
fi
# shellcheck disable=SC2086
clang-format --dry-run -Werror $files
echo "formatting: 1 passed, 0 failed"
