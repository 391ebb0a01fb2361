#!/usr/bin/env bash
# Installs what is missing, then configures and builds nssim into build/ (warnings are errors).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNSSIM_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
