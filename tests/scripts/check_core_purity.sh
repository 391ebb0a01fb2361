#!/usr/bin/env bash
# Fails when the pure NameServer core reaches for anything but the standard library's pure parts:
# the simulator, JSON, clocks, threads, global randomness or console I/O.
set -euo pipefail
core_dir=${1:?usage: check_core_purity.sh NAMESERVER_CORE_DIR}
banned='simgrid|xbt/|xbt_|system_clock|steady_clock|high_resolution_clock|[^_a-z]rand\(|random_device|std::thread|std::mutex|nlohmann|<iostream>|<fstream>|<cstdio>|<chrono>|<thread>|<mutex>'
if hits=$(grep -rnE "$banned" "$core_dir"); then
  echo "nameserver_core must stay pure; found:"
  echo "$hits"
  exit 1
fi
echo "nameserver_core is pure: 1 passed, 0 failed"
