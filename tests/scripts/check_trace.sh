#!/usr/bin/env bash
# End-to-end tests of `nssim run --trace`: every other file is byte-identical with and without it,
# two traced runs write the same trace, the summary names it, --trace-limit refuses at exactly the
# estimate (exit 2, one line, nothing written), bad limits are bad input, and a group that fails
# to land leaves neither the trace nor its temporary behind.
# usage: check_trace.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_trace.sh NSSIM SCENARIO}
scenario=${2:?usage: check_trace.sh NSSIM SCENARIO}
source "$(dirname "$0")/check_harness.sh"
# refused NAME DIR: the last run was bad input with one line on stderr, nothing on stdout, no DIR.
refused() {
  if [ "$code" -eq 2 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && [ ! -s "$work/stdout" ] &&
    [ ! -e "$2" ]; then pass; else fail "$1 (exit $code)"; fi
}

run run "$scenario" --out "$work/plain"
plain_code=$code
run run "$scenario" --out "$work/traced" --trace
if [ "$plain_code" -eq 0 ] && [ "$code" -eq 0 ] && [ -s "$work/traced/trace.jsonl" ] &&
  [ ! -e "$work/plain/trace.jsonl" ]; then pass; else fail traced-run; fi
# Tracing changes no other file: the same names, the same bytes.
if [ "$(ls -A "$work/plain")" = "$(ls -A "$work/traced" | grep -vx trace.jsonl)" ]; then
  pass
else
  fail same-file-names
fi
for file in "$work/plain"/*; do
  name=$(basename "$file")
  if cmp -s "$file" "$work/traced/$name"; then pass; else fail "same-bytes-$name"; fi
done
# No temporary is left, and the summary names the trace before the result and the report.
if ! ls -A "$work/traced" | grep -q '\.tmp$'; then pass; else fail no-temporaries; fi
if [ "$(tail -n 3 "$work/stdout")" = "trace: $work/traced/trace.jsonl
result: $work/traced/result.json
report: $work/traced/report.html" ]; then pass; else fail summary-names-trace; fi
run run "$scenario" --out "$work/plain2"
if ! grep -q '^trace: ' "$work/stdout"; then pass; else fail summary-without-trace; fi

# Deterministic: a second process writes the same trace.
run run "$scenario" --out "$work/traced2" --trace
if [ "$code" -eq 0 ] && cmp -s "$work/traced/trace.jsonl" "$work/traced2/trace.jsonl"; then
  pass
else
  fail trace-deterministic
fi
# One JSON object per line, ordered by t_ms.
if awk -F'[:,]' '!/^\{"t_ms":[0-9]+,"kind":"(attempt|send_without_attempt|route_update)",.*\}$/ {
      bad = 1 } { if ($2 + 0 < last) bad = 1; last = $2 + 0 } END { exit bad }' \
  "$work/traced/trace.jsonl"; then pass; else fail trace-lines-in-time-order; fi

# --trace-limit: refused above the estimate, which the message gives in bytes; a limit equal to
# it runs, one byte less is refused.
run run "$scenario" --out "$work/limit-1" --trace --trace-limit 1
refused limit-1 "$work/limit-1"
estimate=$(sed -n 's/.*would take about [^(]*(\([0-9]*\) bytes).*/\1/p' "$work/stderr")
if [ -n "$estimate" ] && grep -q "raise it with --trace-limit [0-9]*[KMGT]\? or shorten the run$" \
  "$work/stderr"; then pass; else fail limit-message; fi
run run "$scenario" --out "$work/limit-equal" --trace --trace-limit "$estimate"
if [ "$code" -eq 0 ] && [ -s "$work/limit-equal/trace.jsonl" ]; then pass; else fail limit-equal; fi
run run "$scenario" --out "$work/limit-below" --trace --trace-limit "$((estimate - 1))"
refused limit-one-byte-below "$work/limit-below"
run run "$scenario" --out "$work/limit-suffix" --trace --trace-limit 1G
if [ "$code" -eq 0 ]; then pass; else fail limit-suffix; fi

for bad in abc 0 -5 1.5G 1GB 2P "" 18446744073709551616; do
  run run "$scenario" --out "$work/bad-limit" --trace --trace-limit "$bad"
  refused "bad-limit-'$bad'" "$work/bad-limit"
  if grep -q "^nssim run: --trace-limit: expected a byte count" "$work/stderr"; then
    pass
  else
    fail "bad-limit-message-'$bad'"
  fi
done
run run "$scenario" --out "$work/limit-alone" --trace-limit 1G
refused limit-without-trace "$work/limit-alone"

# A folder in the way of a group file (result.json) is refused before the run: nothing of the
# group is written, the streamed trace and its temporary included.
mkdir -p "$work/blocked/result.json/inside"
run run "$scenario" --out "$work/blocked" --trace
if [ "$code" -eq 2 ] && [ "$(ls -A "$work/blocked")" = "result.json" ] && [ ! -s "$work/stdout" ] &&
  [ -z "$(find "$work" -maxdepth 1 -name '.blocked.nssim-*')" ] &&
  grep -q "holds a folder or special file named 'result.json'" "$work/stderr"; then
  pass
else
  fail failed-group-leaves-nothing
fi

finish trace
