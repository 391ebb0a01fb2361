#!/usr/bin/env bash
# ctest entry serve_alions: the ali-ons checks against `nssim serve` (alions_test.js). Skipped
# (77) when scripts/install-node-deps.sh has not installed ali-ons, unless CI is set.
set -euo pipefail
nssim=$1
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v node >/dev/null || [ ! -f "$here/node_modules/ali-ons/package.json" ]; then
  if [ -n "${CI:-}" ]; then
    echo "serve_alions: node or ali-ons missing; run scripts/install-deps.sh --tests" >&2
    exit 1
  fi
  echo "serve_alions: skipped, node or ali-ons missing (scripts/install-deps.sh --tests installs them)"
  exit 77
fi
NSSIM_EXECUTABLE="$nssim" exec node "$here/alions_test.js"
