#!/usr/bin/env bash
# Installs the Debian 12 packages nssim builds with, only those missing. Needs root (or sudo).
set -euo pipefail
# clang-14 and libclang-rt-14-dev (its sanitizer and libFuzzer runtimes): CI's second build.
packages=(g++ clang-14 libclang-rt-14-dev cmake make pkg-config clang-format libsimgrid-dev
          nlohmann-json3-dev libcli11-dev libgtest-dev libbenchmark-dev chromium
          # tests/upstream (the real NameServer beside nssim): nssim itself never needs them
          default-jdk-headless maven python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
