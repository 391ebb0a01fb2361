#!/usr/bin/env bash
# The main command until the simulator exists: installs what is missing, builds nssim, and replays
# the broker lifecycle example (docs/replay.md explains the lines, examples/replay/README.md the
# session).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
example=examples/replay/broker_lifecycle_5x.jsonl
echo "== build/nssim replay $example"
build/nssim replay "$example"
