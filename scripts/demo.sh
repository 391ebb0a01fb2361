#!/usr/bin/env bash
# The main job: installs what is missing, builds nssim, and runs the default scenario — a broker
# host powered off while producers keep sending — ending with the path of the run's report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh nssim  # the one binary the run needs, not the tests
scenario=${1:-scenarios/broker_poweroff.json}
echo "== build/nssim run $scenario"
build/nssim run "$scenario"
