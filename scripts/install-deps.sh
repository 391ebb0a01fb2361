#!/usr/bin/env bash
# Installs the Debian 12 packages nssim builds with, only those missing. Needs root (or sudo).
set -euo pipefail
packages=(g++ cmake make pkg-config clang-format libsimgrid-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libbenchmark-dev chromium libasio-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node for the ali-ons test: Debian's, unless a node and npm are already on the PATH (a Node
# from elsewhere conflicts with Debian's npm package).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# ali-ons for the `nssim serve` test, pinned by tests/serve_node/package-lock.json.
bash "$(dirname "$0")/install-node-deps.sh"
