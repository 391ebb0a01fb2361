#!/usr/bin/env bash
# The output groups of sweep, sweep merge and compare go through the one StagedFolder path that
# check_output_group.sh checks for nssim run: a kill -9 at any rename of the swap leaves the old
# group or the new one whole, never a mix, and the next command removes what it left; a folder
# holding what the command does not write is refused; what each command keeps in --out (compare's
# a/ and b/, sweep's shards/) survives the swap, and a kill during it loses none of it. The kills
# are strace's fault injection (SIGKILL at the Nth rename of the command's own process); without
# strace those checks are skipped unless CI is set.
# usage: check_command_groups.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_command_groups.sh NSSIM SCENARIO}
scenario=${2:?usage: check_command_groups.sh NSSIM SCENARIO}
source "$(dirname "$0")/check_harness.sh"

same_as() { diff -r "$1" "$2" >/dev/null 2>&1; }
# nothing_beside DIR: no staging folder of DIR is left beside it.
nothing_beside() { [ -z "$(find "$(dirname "$1")" -maxdepth 1 -name ".$(basename "$1").nssim-*")" ]; }
have_strace=false
if command -v strace >/dev/null; then
  have_strace=true
elif [ -n "${CI:-}" ]; then
  fail "strace is missing (scripts/install-deps.sh --tests installs it)"
else
  echo "skipped: the kill -9 checks (no strace)"
fi
# killed_at CALL:N ARGS...: runs nssim ARGS with SIGKILL at the Nth call of CALL (strace counts
# each system call apart: rename moves a file or a kept folder, renameat2 is the swap) in its own
# process (its forked runs are not traced); sets $code.
killed_at() {
  local call=${1%:*} n=${1#*:}
  shift
  # In a subshell that waits for strace, so its "Killed" notice goes to /dev/null.
  (strace -qq -o /dev/null -e trace="$call" -e inject="$call":signal=KILL:when="$n" \
    "$nssim" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null; exit $?) 2>/dev/null
  code=$?
}

# The groups of seeds 1..2 and 3..4, each written alone: what a folder must equal byte for byte.
run sweep "$scenario" --seeds 2 --out "$work/ref-old"
run sweep "$scenario" --seeds 3..4 --out "$work/ref-new"
mkdir -p "$work/sweeps"

# (1) A sweep into the folder of an older one, killed at any rename: the folder is the old group
# or the new one, whole (file-by-file renames, rename:1..5, leave a mix from the 2nd on).
if $have_strace; then
  for n in rename:1 rename:2 rename:3 rename:4 rename:5 renameat2:1 renameat2:2; do
    rm -rf "$work/sweeps/s"
    cp -r "$work/ref-old" "$work/sweeps/s"
    killed_at "$n" sweep "$scenario" --seeds 3..4 --out "$work/sweeps/s"
    if same_as "$work/sweeps/s" "$work/ref-old" || same_as "$work/sweeps/s" "$work/ref-new"; then
      pass
    else
      fail "sweep killed at rename $n (exit $code) leaves a mix: $(cd "$work/sweeps/s" &&
        for f in *; do cmp -s "$f" "$work/ref-new/$f" && echo "new:$f" || echo "old:$f"; done | tr '\n' ' ')"
    fi
  done
fi
# The next sweep replaces the whole group and removes what a killed one left beside it.
run sweep "$scenario" --seeds 3..4 --out "$work/sweeps/s"
if [ "$code" -eq 0 ] && same_as "$work/sweeps/s" "$work/ref-new" && nothing_beside "$work/sweeps/s"; then
  pass
else
  fail "a sweep after a killed one"
fi

# Six sweeps at once into one folder, seeds 1..2 and 3..4: every one exits 0 and the folder is
# one whole group, exactly one of the two.
pids=()
for i in 1 2 3 4 5 6; do
  if [ $((i % 2)) -eq 0 ]; then seeds=2; else seeds=3..4; fi
  "$nssim" sweep "$scenario" --seeds "$seeds" -j 1 --out "$work/sweeps/c" >/dev/null 2>"$work/c$i.err" &
  pids+=($!)
done
codes=0
for pid in "${pids[@]}"; do wait "$pid" || codes=$((codes + 1)); done
if [ "$codes" -eq 0 ] && nothing_beside "$work/sweeps/c" &&
  { same_as "$work/sweeps/c" "$work/ref-old" || same_as "$work/sweeps/c" "$work/ref-new"; }; then
  pass
else
  fail "concurrent sweeps ($codes failed: $(cat "$work"/c*.err | head -n 3))"
fi

# (2) A file sweep does not write: refused before any run, one line, the folder untouched.
touch "$work/sweeps/s/notes.txt"
run sweep "$scenario" --seeds 2 --out "$work/sweeps/s"
if [ "$code" -eq 2 ] && [ ! -s "$work/stdout" ] &&
  [ "$(cat "$work/stderr")" = "nssim sweep: --out: '$work/sweeps/s' holds 'notes.txt', which nssim sweep does not write: give a new or empty folder, or one an earlier run wrote" ] &&
  rm "$work/sweeps/s/notes.txt" && same_as "$work/sweeps/s" "$work/ref-new" &&
  nothing_beside "$work/sweeps/s"; then
  pass
else
  fail "sweep --out holding a foreign file is refused"
fi
mkdir "$work/sweeps/r"
cp -r "$work/ref-new/." "$work/sweeps/r/" && rm "$work/sweeps/r/sweep.md" && mkdir "$work/sweeps/r/sweep.md"
run sweep merge "$work/sweeps/r"
if [ "$code" -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
  grep -qx "nssim sweep merge: --out: '$work/sweeps/r' holds a folder or special file named 'sweep.md', which nssim sweep does not write: .*" "$work/stderr"; then
  pass
else
  fail "a group name that is a folder is refused"
fi

# (4) Shards and merge: shards/ is kept across the swap, so the folder merges again, also after
# a merge killed just after it moved shards/ into its staging folder (at the swap).
for i in 1 2; do "$nssim" sweep "$scenario" --seeds 2 --shard "$i/2" --out "$work/sweeps/m" >/dev/null; done
cp -r "$work/sweeps/m/shards" "$work/shards"
for pass_no in 1 2; do
  run sweep merge "$work/sweeps/m"
  if [ "$code" -eq 0 ] && same_as "$work/sweeps/m/shards" "$work/shards" &&
    same_as <(ls "$work/sweeps/m") <(printf '%s\n' junit.xml seeds.jsonl shards sweep.html sweep.json sweep.md) &&
    cmp -s "$work/sweeps/m/sweep.json" "$work/ref-old/sweep.json" && nothing_beside "$work/sweeps/m"; then
    pass
  else
    fail "merge $pass_no keeps shards/"
  fi
done
if $have_strace; then
  killed_at renameat2:1 sweep merge "$work/sweeps/m"
  left=$(find "$work/sweeps" -maxdepth 1 -name '.m.nssim-*' | wc -l)
  if [ "$code" -ne 0 ] && [ ! -e "$work/sweeps/m/shards" ] && [ "$left" -eq 1 ]; then
    pass
  else
    fail "merge killed between moving shards/ and the swap (exit $code, $left left)"
  fi
  run sweep merge "$work/sweeps/m"
  if [ "$code" -eq 0 ] && same_as "$work/sweeps/m/shards" "$work/shards" &&
    cmp -s "$work/sweeps/m/sweep.json" "$work/ref-old/sweep.json" && nothing_beside "$work/sweeps/m"; then
    pass
  else
    fail "the next merge brings shards/ back from what a killed one left"
  fi
fi
# A whole sweep into the sharded folder keeps its shards too.
run sweep "$scenario" --seeds 3..4 --out "$work/sweeps/m"
if [ "$code" -eq 0 ] && same_as "$work/sweeps/m/shards" "$work/shards" &&
  cmp -s "$work/sweeps/m/sweep.json" "$work/ref-new/sweep.json"; then
  pass
else
  fail "a sweep keeps shards/"
fi

# (3) compare re-run into its --out: a/ and b/ hold the new runs, compare.* are swapped in whole.
run compare "$scenario" --a profile=4.9 --b profile=5.x --out "$work/cmp"
cp "$work/cmp/compare.json" "$work/compare-first.json"
run compare "$scenario" --a profile=5.x --b profile=4.9 --label-a first5x --out "$work/cmp"
if [ "$code" -eq 0 ] && grep -q '"label": "first5x"' "$work/cmp/compare.json" &&
  ! cmp -s "$work/cmp/compare.json" "$work/compare-first.json" &&
  grep -q '"profile": "5.x"' "$work/cmp/a/result.json" && [ -s "$work/cmp/a/stdout.txt" ] &&
  [ -s "$work/cmp/b/report.html" ] &&
  same_as <(ls "$work/cmp") <(printf '%s\n' a b compare.html compare.json compare.md) &&
  nothing_beside "$work/cmp"; then
  pass
else
  fail "compare re-run keeps a/ b/ and swaps compare.*"
fi
cp "$work/cmp/compare.json" "$work/compare-second.json"
if $have_strace; then
  # The comparison's own renames: a/ and b/ moved over, then the swap (2 calls).
  for n in rename:1 rename:2 renameat2:1 renameat2:2; do
    killed_at "$n" compare "$scenario" --a profile=4.9 --b profile=5.x --out "$work/cmp"
    killed=$code
    run compare "$scenario" --a profile=5.x --b profile=4.9 --label-a first5x --out "$work/cmp"
    if [ "$killed" -eq 137 ] && [ "$code" -eq 0 ] &&
      cmp -s "$work/cmp/compare.json" "$work/compare-second.json" &&
      [ -s "$work/cmp/a/result.json" ] && [ -s "$work/cmp/b/result.json" ] &&
      nothing_beside "$work/cmp"; then
      pass
    else
      fail "compare after one killed at rename $n (exit $killed)"
    fi
  done
fi
touch "$work/cmp/notes.txt"
run compare "$scenario" --a profile=4.9 --out "$work/cmp"
if [ "$code" -eq 2 ] && [ ! -s "$work/stdout" ] &&
  [ "$(cat "$work/stderr")" = "nssim compare: --out: '$work/cmp' holds 'notes.txt', which nssim compare does not write: give a new or empty folder, or one an earlier run wrote" ] &&
  cmp -s "$work/cmp/compare.json" "$work/compare-second.json"; then
  pass
else
  fail "compare --out holding a foreign file is refused"
fi
rm "$work/cmp/notes.txt"
# compare --seeds into the same --out: each side is a sweep's folder of its own, so the sides of
# the single-seed compare (a run's files) are refused, naming the side's folder.
run compare "$scenario" --a profile=4.9 --seeds 2 --out "$work/cmp"
if [ "$code" -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
  grep -q "^nssim compare: --out: '$work/cmp/a' holds '.*', which nssim compare --seeds does not write: " "$work/stderr"; then
  pass
else
  fail "compare --seeds refuses a run's side folder"
fi
run compare "$scenario" --a profile=4.9 --seeds 2 --out "$work/cmp-seeds"
run compare "$scenario" --a profile=4.9 --seeds 3..4 --out "$work/cmp-seeds"
if [ "$code" -eq 0 ] && cmp -s "$work/cmp-seeds/b/sweep.json" "$work/ref-new/sweep.json" &&
  same_as <(ls "$work/cmp-seeds") <(printf '%s\n' a b compare.html compare.json compare.md) &&
  nothing_beside "$work/cmp-seeds" && nothing_beside "$work/cmp-seeds/a"; then
  pass
else
  fail "compare --seeds re-run"
fi

finish "command output groups"
