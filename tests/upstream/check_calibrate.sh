#!/usr/bin/env bash
# ctest upstream_calibrate_kill: the real cluster of scripts/calibrate.sh under 5.x with short
# timing (scenarios/calibrate_kill_short.json: broker-a killed; producers poll every 5 s),
# beside nssim's 200-seed sweep of the same scenario (docs/fidelity.md). It asserts that every
# NameServer dropped the broker, within nssim's [p1, p99] of the last drop, and that the slowest
# producer let go of it within nssim's [p1, p99] of that; each widened by 100 ms, the real
# NameServer's and client's own processing (their event threads, 5.x's
# BatchUnregistrationService, the route request), which nssim's zero-time actors do not spend.
# Skips (exit 77) when java, mvn, ip, root or the artifacts are unavailable, unless CI=true.
# usage: check_calibrate.sh NSSIM
set -uo pipefail
nssim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
check_name="upstream calibrate"
source "$(dirname "$0")/lib_check.sh"
need_tools java mvn python3 ip
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
bash "$root/scripts/upstream.sh" fetch 5.x || skip "the upstream artifacts could not be fetched"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash "$root/scripts/calibrate.sh" "$root/scenarios/calibrate_kill_short.json" --line 5.x \
  --seeds 200 --nssim "$nssim" --out "$out/run" \
  --assert 'outages[0].nameserver_drop_ms.never' \
  --assert 'outages[0].nameserver_drop_ms.max:100' \
  --assert 'outages[0].producers.stale_route_ms.never' \
  --assert 'outages[0].producers.stale_route_ms.max:100'
