#!/usr/bin/env bash
# End-to-end tests of `nssim check` and `nssim compare` on copies of shipped scenarios: exit codes
# 0/1/2, the printed lines, the JUnit file, and that bad input writes nothing.
# usage: check_commands.sh NSSIM SCENARIOS_DIR
set -uo pipefail
nssim=${1:?usage: check_commands.sh NSSIM SCENARIOS_DIR}
scenarios=${2:?usage: check_commands.sh NSSIM SCENARIOS_DIR}
case $nssim in /*) ;; *) nssim=$PWD/$nssim ;; esac  # some runs below change folder
source "$(dirname "$0")/check_harness.sh"
# expect_output NAME EXIT EXPECTED_STDOUT: checks the last run's exit code and whole stdout.
expect_output() {
  if [ "$code" -eq "$2" ] && [ "$(cat "$work/stdout")" = "$3" ]; then pass; else fail "$1 (exit $code)"; fi
}

# A passing scenario, one whose expectation cannot hold, and one that is not JSON.
mkdir -p "$work/suite" "$work/good"
cp "$scenarios/broker_kill.json" "$work/suite/broker_kill.json"
cp "$scenarios/broker_kill.json" "$work/good/broker_kill.json"
sed -e 's/"name": "steady_state"/"name": "steady_tight"/' \
    -e 's/"sends.failed.total == 0"/"sends.failed.total == 1"/' \
    "$scenarios/steady_state.json" >"$work/suite/steady_tight.json"
cp "$scenarios/schema.json" "$work/suite/schema.json"  # never taken for a scenario
mkdir -p "$work/bad"
cp "$work/suite/broker_kill.json" "$work/suite/steady_tight.json" "$work/bad/"
printf '{"name": "broken",\n' >"$work/bad/broken.json"

pass_line="PASS broker_kill (7 expectations)"
fail_lines="FAIL steady_tight
  FAIL sends.failed.total == 1: sends.failed.total = 0, expected == 1 (off by -1)"
# broker_kill has a sweep block: check runs it after the plain runs (--seeds keeps it short).
sweep_line="PASS broker_kill sweep (4 expectations over 5 seeds)"

# check first prints its whole cost: every scenario's run and its sweep's runs.
run check "$work/good" -j 2 --out "$work/out-good" --seeds 5
expect_output check-pass 0 "estimate: 6 runs x (0.0 s, 67 MiB) = 0.2 s CPU, 0.1 s wall at -j 2
$pass_line
$sweep_line
1 scenario: 1 passed, 0 failed, 0 errors; 1 sweep: 1 passed, 0 failed, 0 errors"

run check "$work/suite" -j 2 --out "$work/out-suite" --seeds 5
expect_output check-fail 1 "estimate: 7 runs x (up to 0.0 s, 67 MiB) = 0.2 s CPU, 0.1 s wall at -j 2
$pass_line
$fail_lines
$sweep_line
2 scenarios: 1 passed, 1 failed, 0 errors; 1 sweep: 1 passed, 0 failed, 0 errors"
# Not a terminal: no progress line, no carriage return.
if grep -q $'\r' "$work/stdout"; then fail check-no-progress; else pass; fi
# Each run's folder holds its files and the captured output of its child.
if [ -s "$work/out-suite/steady_tight/report.json" ] &&
  [ -s "$work/out-suite/steady_tight/stdout.txt" ]; then pass; else fail check-run-folders; fi

run check "$work/suite" -j 1 --out "$work/out-suite" --verbose --seeds 5
# Every expectation that held: broker_kill's 7, steady_tight's 4 of 5, the sweep's 4.
if [ "$code" -eq 1 ] && [ "$(grep -c '^  pass ' "$work/stdout")" -eq 15 ]; then
  pass
else
  fail check-verbose
fi

run check "$work/bad" -j 3 --out "$work/out-bad" --junit "$work/junit/results.xml" --seeds 5
first_line=$(sed -n 2p "$work/stdout")
if [ "$code" -eq 2 ] && [[ "$first_line" == "ERROR broken.json: $work/bad/broken.json: "* ]] &&
  [ "$(sed -n 1p "$work/stdout")" = "estimate: 7 runs x (up to 0.0 s, 67 MiB) = 0.2 s CPU, 0.1 s wall at -j 3" ] &&
  [[ "$first_line" == *"invalid JSON"* ]] && [ "$(sed -n '3,$p' "$work/stdout")" = "$pass_line
$fail_lines
$sweep_line
3 scenarios: 1 passed, 1 failed, 1 error; 1 sweep: 1 passed, 0 failed, 0 errors" ]; then
  pass
else
  fail check-error
fi

junit="$work/junit/results.xml"
if [ -s "$junit" ] && grep -q '<testsuites' "$junit" && grep -q 'name="broken"' "$junit" &&
  grep -q 'name="run"' "$junit" && grep -q 'name="steady_tight"' "$junit" &&
  grep -q '<failure' "$junit" && grep -q 'name="broker_kill sweep"' "$junit" &&
  ! ls -a "$work/junit" | grep -q '\.tmp$'; then
  pass
else
  fail check-junit
fi

# What a JUnit viewer shows, read as one reads the XML: every case of a run, passed (broker_kill)
# or failed (steady_tight), carries its seed, measured value and bound; a sweep case its seeds and
# worst seed.
if python3 - "$junit" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
def props(case):
    return {p.get("name"): p.get("value") for p in case.iter("property")}
cases = {(s.get("name"), c.get("name")): c for s in root.iter("testsuite") for c in s.iter("testcase")}
passed = [c for (suite, _), c in cases.items() if suite == "broker_kill" and c.find("failure") is None]
failed = [c for (suite, _), c in cases.items() if suite == "steady_tight" and c.find("failure") is not None]
sweep = [c for (suite, _), c in cases.items() if suite == "broker_kill sweep"]
ok = passed and failed and sweep
for case in passed + failed:
    p = props(case)
    ok = ok and p.get("seed") and p.get("measured") not in (None, "") and p.get("expected")
    ok = ok and "measured: " in (case.findtext("system-out") or "")
for case in sweep:
    p = props(case)
    ok = ok and p.get("seeds") and p.get("worst_seed") and p.get("statistic")
sys.exit(0 if ok else 1)
PY
then pass; else fail check-junit-values; fi

run check "$work/no/such/folder" --out "$work/out-missing"
if [ "$code" -eq 2 ] && [ ! -s "$work/stdout" ] &&
  [ "$(cat "$work/stderr")" = "nssim check: $work/no/such/folder: no such file or folder" ] &&
  [ ! -e "$work/out-missing" ]; then pass; else fail check-missing-path; fi

run check "$work/good" -j 0
if [ "$code" -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ]; then pass; else fail check-bad-jobs; fi

# compare: the same scenario under 4.9 and 5.x.
run compare "$work/good/broker_kill.json" --a profile=4.9 --b profile=5.x --out "$work/cmp"
if [ "$code" -eq 0 ] && [ -s "$work/cmp/compare.json" ] && [ -s "$work/cmp/compare.md" ] &&
  [ -s "$work/cmp/compare.html" ] && [ -s "$work/cmp/a/report.json" ] &&
  [ "$(tail -n 1 "$work/stdout")" = "report: $work/cmp/compare.html" ] &&
  grep -q '^A: profile=4.9 ' "$work/stdout" && grep -q '"profile": "4.9"' "$work/cmp/compare.json"
then pass; else fail compare-profiles; fi

# compare, one seed a side: a poll of 5 s against 30 s. The terminal's ten changes are ranked by
# the size of the relative move, and in compare.md's outage table the slowest producer's stale route moves from within Q + 1 s = 31 s to
# within 5 s + 1 s = 6 s (spec 11: producers follow a connection close within one poll).
poll=producers[0].config.pollNameServerInterval
run compare "$work/good/broker_kill.json" --a "$poll=30000" --b "$poll=5000" --out "$work/cmp-poll"
moves=$(sed -n 's/^  [^ ]*: .* (.*, \([-+]\{0,1\}[0-9.]*\)%)$/\1/p' "$work/stdout" | tr -d +-)
stale_row=$(grep '^| `producers\.stale_route_ms\.max` | ' "$work/cmp-poll/compare.md" | head -n 1)
# Durations read in seconds ("29.5 s"), as everywhere a person reads them.
stale_a=$(echo "$stale_row" | sed -n 's/^| [^|]* | \([0-9.]*\) s | \**\([0-9.]*\) s\** |.*/\1/p')
stale_b=$(echo "$stale_row" | sed -n 's/^| [^|]* | \([0-9.]*\) s | \**\([0-9.]*\) s\** |.*/\2/p')
if [ "$code" -eq 0 ] && [ "$(echo "$moves" | wc -l)" -eq 10 ] &&
  [ "$moves" = "$(echo "$moves" | sort -g -r)" ] && [ -n "$stale_a" ] && [ -n "$stale_b" ] &&
  awk -v a="$stale_a" -v b="$stale_b" 'BEGIN { exit !(a <= 31.0 && b <= 6.0 && b < a) }' &&
  grep -q '^note: a single sample' "$work/stdout"; then
  pass
else
  fail "compare-single-seed-ranking (moves '$moves', stale '$stale_a' -> '$stale_b')"
fi

# Bad input on one side: one line naming the side, exit 2, nothing written.
run compare "$work/good/broker_kill.json" --a producers[0].config.sendMsgTimout=5 --out "$work/cmp-bad"
if [ "$code" -eq 2 ] && [ ! -e "$work/cmp-bad" ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
  grep -q "^nssim compare: --a: .*did you mean sendMsgTimeout" "$work/stderr"; then
  pass
else
  fail compare-bad-setting
fi

run compare "$work/good/broker_kill.json" --b profile=6.0 --out "$work/cmp-bad"
expect_output compare-bad-profile 2 ""
if [ "$(cat "$work/stderr")" = "nssim compare: --b: profile: expected 4.9 or 5.x, got '6.0'" ] &&
  [ ! -e "$work/cmp-bad" ]; then pass; else fail compare-bad-profile-message; fi

run compare "$work/good/broker_kill.json" --out "$work/cmp-bad"
if [ "$code" -eq 2 ] && [ ! -e "$work/cmp-bad" ]; then pass; else fail compare-no-sides; fi

# A failing sweep block fails check with its worst seed's command.
mkdir -p "$work/sweepfail"
sed 's/"outages\[0\].producers.stale_route_ms.max:p99 <= 31000"/"outages[0].producers.stale_route_ms.max:p99 <= 1000"/' \
  "$work/good/broker_kill.json" >"$work/sweepfail/broker_kill.json"
run check "$work/sweepfail" --out "$work/out-sweepfail" --seeds 3..6
if [ "$code" -eq 1 ] && grep -qx "FAIL broker_kill sweep (over 4 seeds)" "$work/stdout" &&
  grep -q "^  FAIL outages\[0\].producers.stale_route_ms.max:p99 <= 1000: " "$work/stdout" &&
  grep -q "^    worst seed: nssim run $work/sweepfail/broker_kill.json --profile 5.x --seed [3-6]$" \
    "$work/stdout"; then pass; else fail check-sweep-fails; fi

# --no-sweeps: the quick gate runs each scenario once and leaves the failing sweep block alone.
run check "$work/sweepfail" --out "$work/out-nosweeps" --no-sweeps
if [ "$code" -eq 0 ] && [ "$(tail -n 1 "$work/stdout")" = "1 scenario: 1 passed, 0 failed, 0 errors" ] &&
  [ ! -e "$work/out-nosweeps/broker_kill/sweep" ]; then pass; else fail check-no-sweeps; fi

# compare over seeds: the same setting written twice is noise only; a poll interval of 5 s
# instead of 30 s shortens the stale route beyond any noise.
run compare "$work/good/broker_kill.json" --a "$poll=30000" --b "$poll=30000" --seeds 12 \
  --out "$work/cmp-noise"
if [ "$code" -eq 0 ] && grep -qx "no change beyond seed noise and big enough to matter" "$work/stdout" &&
  grep -q '"changes": \[\]' "$work/cmp-noise/compare.json" &&
  [ -s "$work/cmp-noise/a/sweep.json" ]; then pass; else fail compare-seeds-noise; fi
run compare "$work/good/broker_kill.json" --a "$poll=30000" --b "$poll=5000" --seeds 12 \
  --out "$work/cmp-real"
if [ "$code" -eq 0 ] && grep -q "^stale route, longest of the run: p50 .*: changed$" "$work/stdout" &&
  grep -q "paired bootstrap" "$work/cmp-real/compare.json" &&
  grep -q "No change beyond seed noise and big enough to matter" "$work/cmp-noise/compare.md" &&
  grep -q 'id="cdf-1"' "$work/cmp-real/compare.html"; then pass; else fail compare-seeds-change; fi
# The claim latency_fault_4_9_vs_5x exists for: after the stall, 4.9's fault strategy keeps
# avoiding the broker (10 min), 5.x's lets go after 10 s and retries into it, so 5.x fails
# several times more sends, beyond seed noise.
run compare "$scenarios/latency_fault_4_9_vs_5x.json" --a profile=4.9 --b profile=5.x --seeds 8 \
  --out "$work/cmp-versions"
failed_line=$(grep "^failed sends: p50 " "$work/stdout")
a=$(echo "$failed_line" | sed -n 's/.*p50 \([0-9]*\) -> \([0-9]*\).*/\1/p')
b=$(echo "$failed_line" | sed -n 's/.*p50 \([0-9]*\) -> \([0-9]*\).*/\2/p')
if [ "$code" -eq 0 ] && [ -n "$a" ] && [ -n "$b" ] && [ "$b" -ge $((3 * a)) ]; then
  pass
else
  fail "compare-versions-latency-fault (4.9 p50 '$a', 5.x p50 '$b')"
fi

run compare "$work/good/broker_kill.json" --a "$poll=5000" --seeds 0 --out "$work/cmp-bad"
if [ "$code" -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && [ ! -e "$work/cmp-bad" ]; then
  pass
else
  fail compare-bad-seeds
fi

# nssim run: the summary's first and last lines, the default output folder, exit 2 on bad input
# with one line and nothing written.
mkdir -p "$work/cwd"
(cd "$work/cwd" && "$nssim" run "$work/good/broker_kill.json" >"$work/stdout" 2>"$work/stderr")
code=$?
if [ "$code" -eq 0 ] && [ "$(head -n 1 "$work/stdout")" = "seed=1 scenario=broker_kill profile=5.x estimate: 53.1 k sends, 450 route polls, 270 registrations, 67 MiB, 0.0 s" ] &&
  [ "$(tail -n 1 "$work/stdout")" = "report: out/broker_kill-seed1/report.html" ] &&
  grep -qx "outages\[0\] (faults\[0\]): kill of \[\"broker-a-0\"\] at 300.0 s" "$work/stdout" &&
  [ -s "$work/cwd/out/broker_kill-seed1/report.html" ]; then pass; else fail run-default-folder; fi
# The route-health line follows the outage lines: one entry per kind of window the run had, with
# its count, p50 and max of the ended windows (milliseconds under a second) and the causes.
route_line='^route health: stale 15 \(p50 [0-9]+\.[0-9] s, max [0-9]+\.[0-9] s; broker_down 15\), '
route_line+='lost 15 \(p50 [0-9]+\.[0-9] s, max [0-9]+\.[0-9] s; awaiting_route_poll 15\), '
route_line+='missing 3 \(p50 [0-9]+ ms, max [0-9]+ ms; awaiting_registration 3\)$'
if [ "$(grep -cE "$route_line" "$work/stdout")" -eq 1 ] &&
  grep -B1 '^route health: ' "$work/stdout" | head -n 1 | grep -q '^  sends in the outage: ' &&
  grep -A1 '^route health: ' "$work/stdout" | tail -n 1 | grep -q '^nameservers disagreed '
then pass; else fail run-route-health-line; fi
# A run without any stale, lost or missing window prints no such line.
run run "$scenarios/steady_state.json" --out "$work/steady"
if [ "$code" -eq 0 ] && grep -q '^nameservers disagreed ' "$work/stdout" &&
  ! grep -q '^route health' "$work/stdout"; then pass; else fail run-no-route-health-line; fi
mkdir -p "$work/cwd2"
(cd "$work/cwd2" && "$nssim" run "$work/nope.json" >"$work/stdout" 2>"$work/stderr")
code=$?
if [ "$code" -eq 2 ] && [ "$(cat "$work/stderr")" = "nssim run: $work/nope.json: no such file" ] &&
  [ ! -s "$work/stdout" ] && [ ! -e "$work/cwd2/out" ]; then pass; else fail run-bad-file; fi
# A NameServer that kept the broker says why, in words: a 60 s pause is shorter than any
# detection RocketMQ's rules allow, so keeping it is right, and no stale time reads "never"; the
# producers' line says how long they were stale and that they never dropped it; no report draws
# a predicted window the rules cannot reach within the pause.
run run "$scenarios/broker_pause.json" --out "$work/pause"
if [ "$code" -eq 0 ] && [ "$(grep -c "^  ns-[0-2] kept 10.1.0.1:10911: unreachable for 60.0 s, too short for RocketMQ's rules to drop it$" "$work/stdout")" -eq 3 ] &&
  ! grep -q "never$\|never /" "$work/stdout" &&
  grep -qx "  producers with a stale route: 15, stale for p50 60.0 s / max 60.0 s; never dropped by 15 (broker_returned_before_nameservers_dropped_it 15)" "$work/stdout" &&
  grep -q "| none: the fault ends by the earliest removal, 90.0 s |" "$work/pause/report.md" &&
  ! grep -q "90.0 s \.\. " "$work/pause/report.md" &&
  [ "$(grep -c 'class="predicted"' "$work/pause/report.html")" -eq 0 ]; then
  pass
else
  fail run-kept-outcome
fi
# bench/scenarios/producers_100k.json cut to 50 s: 100,000 producers, none a SimGrid actor, start
# between 15 and 45 s, poll their route once and send; every process is up and no poll fails.
bench="$(cd "$(dirname "$0")/../.." && pwd)/bench/scenarios"
run run "$bench/producers_100k.json" --set duration_ms=50000 --set 'faults=[]' --out "$work/many"
if [ "$code" -eq 0 ] &&
  [ "$(grep -c '"kind":"process_start","node":"producer-' "$work/many/events.jsonl")" -eq 100000 ] &&
  ! grep -q '"kind":"route_poll_failed"' "$work/many/events.jsonl"; then
  pass
else
  fail run-100k-producers
fi

# A scenario that checks nothing is said as such, never as a PASS, and counted apart.
mkdir -p "$work/unchecked"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("expect"); d.pop("sweep", None); json.dump(d, open(sys.argv[2], "w"))' \
  "$scenarios/steady_state.json" "$work/unchecked/steady_state.json"
run check "$work/unchecked" --out "$work/out-unchecked"
expect_output check-no-expectations 0 "$(sed -n 1p "$work/stdout")
NONE steady_state (no expectations: it ran, nothing was checked)
1 scenario: 0 passed, 0 failed, 0 errors, 1 without expectations"

# Colour on a terminal only: `script` gives the run a pseudo-terminal; NO_COLOR and TERM=dumb
# turn it off there too, and a pipe (every run above) never has it.
on_terminal() {  # on_terminal ENV... : check "$work/good" on a pseudo-terminal, output in $work/tty
  env "$@" script -qec "'$nssim' check '$work/good' --out '$work/out-tty' --seeds 2" /dev/null \
    >"$work/tty" 2>&1 </dev/null
}
on_terminal TERM=xterm
if grep -q $'\033\\[32mPASS\033\\[0m broker_kill' "$work/tty"; then pass; else fail check-colour-on-terminal; fi
# The sweeps inside check run in silent children: a progress line counts them on a terminal.
if grep -q '\[0/1\] sweeps' "$work/tty"; then pass; else fail check-sweeps-progress; fi
on_terminal TERM=xterm NO_COLOR=1
if grep -q 'PASS broker_kill' "$work/tty" && ! grep -q $'\033\\[3' "$work/tty"; then pass; else fail check-no-color; fi
on_terminal TERM=dumb
if grep -q 'PASS broker_kill' "$work/tty" && ! grep -q $'\033\\[3' "$work/tty"; then pass; else fail check-term-dumb; fi
if ! grep -rq $'\033' "$work/stdout" "$work/out-good"/*/stdout.txt; then pass; else fail check-no-colour-on-pipe; fi

# A bare `nssim` prints its usage, exit 2.
run
if [ "$code" -eq 2 ] && grep -q '^Usage: .*nssim \[OPTIONS\] SUBCOMMAND' "$work/stderr" &&
  grep -q '^  check ' "$work/stderr" && [ ! -s "$work/stdout" ]; then pass; else fail bare-nssim; fi

finish "check and compare commands"
