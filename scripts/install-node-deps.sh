#!/usr/bin/env bash
# Installs the Node packages of the ali-ons test (tests/serve_node: package.json pins ali-ons
# 3.12.0, package-lock.json fixes the rest) into tests/serve_node/node_modules, which git ignores.
# Does nothing when the locked ali-ons is already there. Called by install-deps.sh --tests.
set -euo pipefail
cd "$(dirname "$0")/../tests/serve_node"
wanted=$(node -p "require('./package-lock.json').packages['node_modules/ali-ons'].version")
installed=$(node -p "require('./node_modules/ali-ons/package.json').version" 2>/dev/null || true)
[ "$installed" = "$wanted" ] && exit 0
echo "installing ali-ons $wanted into tests/serve_node/node_modules"
npm ci --no-audit --no-fund --loglevel=error
