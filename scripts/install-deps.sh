#!/usr/bin/env bash
# Installs the Debian 12 packages nssim builds with, only those missing; with --tests also what
# the tests need beside them (scripts/test.sh passes it). Needs root (or sudo).
#   build:  the compiler, CMake and the libraries nssim links or its tests compile against;
#   tests:  clang-format; clang-14 and libclang-rt-14-dev (CI's second build: sanitizers, libFuzzer);
#           chromium (the report pages' browser checks); a JDK, Maven and python3 (tests/upstream,
#           the real NameServer beside nssim); python3-yaml (docs/ci.md's workflows parsed);
#           dpkg-dev (dpkg-shlibdeps: the .deb's dependencies, ctest package_deb);
#           iproute2 (the real cluster's network namespaces, scripts/calibrate.sh); strace (a kill -9
#           at a chosen rename, tests/scripts/check_command_groups.sh); Node and npm with ali-ons
#           (the `nssim serve` test).
#           nssim itself never needs them.
set -euo pipefail
packages=(g++ cmake make pkg-config libsimgrid-dev nlohmann-json3-dev libcli11-dev libasio-dev
          libgtest-dev libbenchmark-dev)
tests=false
[ "${1:-}" = "--tests" ] && tests=true
if $tests; then
  packages+=(clang-format clang-14 libclang-rt-14-dev chromium default-jdk-headless maven python3
            python3-yaml dpkg-dev iproute2 strace)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if $tests; then
  # Debian's Node, unless a node and npm are already on the PATH (a Node from elsewhere conflicts
  # with Debian's npm package).
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# ali-ons for the `nssim serve` test, pinned by tests/serve_node/package-lock.json.
if $tests; then bash "$(dirname "$0")/install-node-deps.sh"; fi
