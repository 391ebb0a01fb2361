#!/usr/bin/env bash
# The package: `cpack -G DEB` of this build gives a .deb whose dependencies are Debian's runtime
# packages (no -dev), and the nssim it holds, unpacked into a scratch root (dpkg-deb -x, no
# installation), runs the shipped scenarios from its own prefix: `nssim check` without a PATH in
# a folder that has no scenarios/, each scenario's "$schema" resolving beside it.
# usage: check_package.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=${1:?usage: check_package.sh BUILD_DIR SOURCE_DIR}
source_dir=${2:?usage: check_package.sh BUILD_DIR SOURCE_DIR}
nssim=unused
source "$(dirname "$0")/check_harness.sh"

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/stdout" 2>"$work/stderr"
deb=$(ls "$work"/pkg/nssim_*.deb 2>/dev/null | head -n 1)
if [ -n "$deb" ]; then pass; else fail "cpack builds a .deb"; finish package; exit; fi

depends=$(dpkg-deb -f "$deb" Depends)
if grep -q 'libsimgrid3\.32' <<<"$depends" && ! grep -q -- '-dev' <<<"$depends"; then
  pass
else
  fail "runtime dependencies only: $depends"
fi

root="$work/root"
dpkg-deb -x "$deb" "$root"
installed="$root/usr/bin/nssim"
nssim=$installed
run --version
if [ "$code" -eq 0 ] && grep -qx "nssim [0-9.]*" "$work/stdout"; then pass; else fail version; fi

shipped=$(find "$source_dir/scenarios" -maxdepth 1 -name '*.json' ! -name schema.json | wc -l)
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && "$installed" check --no-sweeps -j 2 --out "$work/check" \
  >"$work/stdout" 2>"$work/stderr" </dev/null)
code=$?
if [ "$code" -eq 0 ] && grep -q "^$shipped scenarios: .* 0 failed, 0 errors" "$work/stdout" &&
  [ -d "$work/check/broker_kill" ]; then
  pass
else
  fail "check without a PATH runs the $shipped installed scenarios"
fi

unresolved=0
for scenario in "$root"/usr/share/nssim/scenarios/*.json; do
  [ "$(basename "$scenario")" = schema.json ] && continue
  schema=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("$schema", ""))' "$scenario")
  if [ -n "$schema" ] && [ ! -f "$(dirname "$scenario")/$schema" ]; then
    unresolved=$((unresolved + 1))
    echo "unresolved \$schema in $scenario: $schema"
  fi
done
if [ "$unresolved" -eq 0 ]; then pass; else fail "every \$schema resolves"; fi

run run "$root/usr/share/nssim/scenarios/broker_kill.json" --out "$work/one"
if [ "$code" -eq 0 ] && [ -s "$work/one/report.html" ] &&
  [ -s "$root/usr/share/nssim/docs/cli.md" ] && [ -s "$root/usr/share/nssim/README.md" ]; then
  pass
else
  fail "an installed scenario runs, and the docs are there"
fi

finish package
