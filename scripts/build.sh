#!/usr/bin/env bash
# Installs what the build needs when missing, then configures and builds into build/ (warnings are
# errors): the targets given (e.g. `nssim`), or the whole tree.
# usage: build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNSSIM_WERROR=ON >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
