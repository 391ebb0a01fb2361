#!/usr/bin/env bash
# Keeps docs/architecture.md true to the tree: every path it names in backquotes exists, and every
# folder that holds nssim's sources (each folder of sim/, reports/ and cli/, and the top-level
# libraries) is named in it, so a moved file or a new folder cannot leave the map behind.
set -euo pipefail
root=${1:?usage: check_architecture_map.sh SOURCE_DIR}
doc="$root/docs/architecture.md"
passed=0
failed=0
fail() {
  echo "docs/architecture.md: $1"
  failed=$((failed + 1))
}
# Backquoted words with a slash: `sim/world/world.cpp`, `reports/html/`, `common/invariant.h`.
mapfile -t named < <(grep -o '`[A-Za-z0-9_./-]*/[A-Za-z0-9_./-]*`' "$doc" | tr -d '`' | sort -u)
for path in "${named[@]}"; do
  if [[ -e "$root/$path" ]]; then
    passed=$((passed + 1))
  else
    fail "names $path, which does not exist"
  fi
done
# Source folders: every folder of sim/, reports/ and cli/ holding a .cpp or .h, and each
# top-level library as a whole.
mapfile -t folders < <(cd "$root" && {
  find sim reports cli -name '*.cpp' -o -name '*.h' | xargs -n1 dirname
  printf '%s\n' common nameserver_core nameserver_codec serve
} | sort -u)
for folder in "${folders[@]}"; do
  if grep -q "\`$folder/\`" "$doc"; then
    passed=$((passed + 1))
  else
    fail "does not name the source folder $folder/"
  fi
done
echo "architecture map: $passed passed, $failed failed"
((failed == 0))
