#!/usr/bin/env bash
# Keeps a replay golden's reasons file in step with the golden: one numbered entry per golden line,
# numbered 1, 2, 3, ... in line order, each naming what its input line is (the request code, the
# event, or a malformed line), so a line added, dropped or moved without its reason fails.
# usage: check_reasons.sh INPUT_JSONL EXPECTED_JSONL REASONS_MD
set -euo pipefail
input=$1 expected=$2 reasons=$3
name=$(basename "$reasons")
fail() {
  echo "check_reasons: $name: $*"
  exit 1
}
[ -f "$reasons" ] || fail "missing: every line of $(basename "$expected") needs its reason"
mapfile -t inputs <"$input"
mapfile -t goldens <"$expected"
mapfile -t headings < <(grep -E '^[0-9]+\. ' "$reasons" || true)
[ "${#headings[@]}" -eq "${#goldens[@]}" ] ||
  fail "${#headings[@]} numbered entries, but $(basename "$expected") has ${#goldens[@]} lines"

for i in "${!goldens[@]}"; do
  n=$((i + 1))
  heading=${headings[$i]}
  [ "${heading%%.*}" = "$n" ] ||
    fail "entry $n is numbered ${heading%%.*}; entries run 1, 2, 3, ... in golden line order"
  line=${inputs[$i]-}
  # The first "code" or "event" key of a line is taken as its own, so inputs write them before bodies.
  if [[ ${goldens[$i]} == '{"error":'* ]]; then
    kind='**malformed line**' label='**malformed line**'
  elif code=$(grep -oE '"code": *-?[0-9]+' <<<"$line" | head -n 1) && [ -n "$code" ]; then
    kind="(${code##*[ :]})**" label="**NAME (${code##*[ :]})**"
  else
    event=$(grep -oE '"event": *"[a-z]+"' <<<"$line" | head -n 1 | cut -d'"' -f4 || true)
    kind="**$event event**" label="**$event event**"
  fi
  [[ $heading == *"$kind"* ]] || fail "entry $n's heading must name $label, what input line $n is"
done
echo "reasons $name: 1 passed, 0 failed"
