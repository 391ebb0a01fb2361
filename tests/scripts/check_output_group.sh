#!/usr/bin/env bash
# nssim run's output folder holds one complete group at every instant: a kill -9 mid-run leaves
# the old group whole (and the next run removes what the killed one left beside it), concurrent
# runs into one --out each land whole, a new group replaces all of an old one, a folder holding
# what nssim did not write is refused, and a full disk is named as such.
# usage: check_output_group.sh NSSIM SCENARIO LONG_SCENARIO
set -uo pipefail
nssim=${1:?usage: check_output_group.sh NSSIM SCENARIO LONG_SCENARIO}
scenario=${2:?usage: check_output_group.sh NSSIM SCENARIO LONG_SCENARIO}
long=${3:?usage: check_output_group.sh NSSIM SCENARIO LONG_SCENARIO}
case $nssim in /*) ;; *) nssim=$PWD/$nssim ;; esac  # one run below changes folder
case $scenario in /*) ;; *) scenario=$PWD/$scenario ;; esac
source "$(dirname "$0")/check_harness.sh"

# The group of each seed, written alone: what a folder must equal byte for byte.
run run "$scenario" --seed 1 --out "$work/ref1"
run run "$scenario" --seed 2 --out "$work/ref2"
same_as() { diff -r "$1" "$2" >/dev/null 2>&1; }
nothing_beside() { [ -z "$(find "$work/groups" -maxdepth 1 -name '.*.nssim-*')" ]; }

mkdir -p "$work/groups"
run run "$scenario" --seed 1 --out "$work/groups/g" --trace
if [ "$code" -eq 0 ] && [ -s "$work/groups/g/trace.jsonl" ] && nothing_beside; then
  pass
else
  fail "run into a new folder"
fi
# A group replaces the whole of the older one: no trace.jsonl of the traced run stays.
run run "$scenario" --seed 2 --out "$work/groups/g"
if [ "$code" -eq 0 ] && same_as "$work/groups/g" "$work/ref2" && nothing_beside; then
  pass
else
  fail "a new group replaces the old whole"
fi

# kill -9 while the long run simulates: the old group is untouched; the staging folder it left
# is removed by the next run beside it.
run run "$scenario" --seed 1 --out "$work/groups/k"
"$nssim" run "$long" --out "$work/groups/k" >"$work/long.out" 2>&1 &
pid=$!
tries=0
until grep -qs '^seed=' "$work/long.out" || [ "$tries" -gt 600 ]; do
  tries=$((tries + 1))
  sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
left=$(find "$work/groups" -maxdepth 1 -name '.k.nssim-*' | wc -l)
if same_as "$work/groups/k" "$work/ref1" && [ "$left" -eq 1 ]; then
  pass
else
  fail "kill -9 mid-run keeps the old group (left $left staging folders)"
fi
run run "$scenario" --seed 2 --out "$work/groups/k"
if [ "$code" -eq 0 ] && same_as "$work/groups/k" "$work/ref2" && nothing_beside; then
  pass
else
  fail "the next run removes what a killed one left"
fi

# Eight runs at once into one folder, seeds 1 and 2: every one exits 0 and the folder is one
# whole group, exactly one seed's.
pids=()
for i in 1 2 3 4 5 6 7 8; do
  "$nssim" run "$scenario" --seed $(((i % 2) + 1)) --out "$work/groups/c" >/dev/null 2>"$work/c$i.err" &
  pids+=($!)
done
codes=0
for pid in "${pids[@]}"; do wait "$pid" || codes=$((codes + 1)); done
if [ "$codes" -eq 0 ] && { same_as "$work/groups/c" "$work/ref1" || same_as "$work/groups/c" "$work/ref2"; } &&
  nothing_beside; then
  pass
else
  fail "concurrent runs ($codes failed: $(cat "$work"/c*.err | head -n 3))"
fi

# Refusals: one line, exit 2, nothing on stdout, the folder untouched.
touch "$work/groups/g/notes.txt"
run run "$scenario" --out "$work/groups/g"
if [ "$code" -eq 2 ] && [ ! -s "$work/stdout" ] &&
  [ "$(cat "$work/stderr")" = "nssim run: --out: '$work/groups/g' holds 'notes.txt', which nssim run does not write: give a new or empty folder, or one an earlier run wrote" ] &&
  [ -e "$work/groups/g/notes.txt" ] && [ -s "$work/groups/g/result.json" ]; then
  pass
else
  fail "a folder holding a file nssim did not write is refused"
fi
mkdir -p "$work/empty"
(cd "$work/empty" && "$nssim" run "$scenario" --out . >"$work/stdout" 2>"$work/stderr")
code=$?
if [ "$code" -eq 2 ] &&
  [ "$(cat "$work/stderr")" = "nssim run: --out: '.' is the working folder or holds it: give a folder of its own" ] &&
  [ -z "$(ls -A "$work/empty")" ]; then pass; else fail "--out . is refused"; fi

# A full disk: a 64 KiB tmpfs in a mount namespace of this test's own (skipped where that
# cannot be made, e.g. without root).
if unshare -m true 2>/dev/null; then
  unshare -m bash -c "mkdir -p '$work/full' && mount -t tmpfs -o size=64k tmpfs '$work/full' &&
    '$nssim' run '$scenario' --out '$work/full/o' >'$work/stdout' 2>'$work/stderr'; echo \$? >'$work/code'"
  code=$(cat "$work/code")
  if [ "$code" -eq 2 ] && grep -q "^nssim run: cannot write '.*': No space left on device$" "$work/stderr" &&
    [ "$(wc -l <"$work/stderr")" -eq 1 ]; then
    pass
  else
    fail "full disk (exit $code)"
  fi
fi

finish "output group"
