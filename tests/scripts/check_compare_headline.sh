#!/usr/bin/env bash
# compare --seeds leads with the answer: on the newcomer's cluster (3 NameServers, 4 master/slave
# groups, 40 producers, an 8-queue topic, a broker power-off), poll 30 s against 5 s gives in the
# first ten terminal lines and in compare.md's first section the stale route, the failed sends and
# the NameServer load, each once, in seconds and percent, with no raw milliseconds; compare.html
# shows the same headline and its charts before the long table.
# usage: check_compare_headline.sh NSSIM SCENARIO (scenarios/newcomer_poweroff.json)
set -uo pipefail
nssim=${1:?usage: check_compare_headline.sh NSSIM SCENARIO}
scenario=${2:?usage: check_compare_headline.sh NSSIM SCENARIO}
source "$(dirname "$0")/check_harness.sh"

# once NAME FILE PATTERN: exactly one line of FILE matches the extended regex PATTERN.
once() {
  local n
  n=$(grep -cE -- "$3" "$2")
  if [ "$n" -eq 1 ]; then pass; else fail "$1: $n lines match '$3' in $2"; fi
}

run compare "$scenario" --b 'producers[0].config.pollNameServerInterval=5000' --seeds 4 \
  --out "$work/cmp"
[ "$code" -eq 0 ] && pass || fail "compare --seeds (exit $code)"
head -n 10 "$work/stdout" >"$work/first10"
# compare.md's first section: from "## The answer" to the next heading or paragraph.
sed -n '/^## The answer$/,/^\*\*Method\*\*/p' "$work/cmp/compare.md" >"$work/answer"
for where in first10 answer; do
  file="$work/$where"
  once "$where: stale route" "$file" \
    '^(- )?stale route, longest of the run: p50 [0-9]+\.[0-9] s -> [0-9]+\.[0-9] s \(-[0-9.]+%\): changed$'
  once "$where: failed sends" "$file" \
    '^(- )?failed sends: p50 [0-9]+ -> [0-9]+ \(-[0-9.]+%\): changed$'
  once "$where: NameServer load" "$file" \
    '^(- )?GET_ROUTEINFO_BY_TOPIC per NameServer, the busiest: p50 [0-9.]+/s -> [0-9.]+/s \(\+[0-9.]+%\): changed$'
  once "$where: stale route said once" "$file" 'stale route'
  once "$where: failed sends said once" "$file" 'failed sends'
  once "$where: NameServer load said once" "$file" 'GET_ROUTEINFO_BY_TOPIC'
  # Durations read in seconds or milliseconds, never as raw milliseconds.
  if grep -qE '[0-9]{4,}( ->|$| \()' "$file" | grep -v estimate; then
    fail "$where: raw milliseconds"
  else
    pass
  fi
done
# compare.html: the headline, then the charts, then the tables.
html="$work/cmp/compare.html"
answer_at=$(grep -n '<h2>The answer</h2>' "$html" | cut -d: -f1)
charts_at=$(grep -n '<h2>Distributions</h2>' "$html" | cut -d: -f1)
table_at=$(grep -n '<h2>What changed</h2>' "$html" | cut -d: -f1)
if [ -n "$answer_at" ] && [ -n "$charts_at" ] && [ -n "$table_at" ] &&
  [ "$answer_at" -lt "$charts_at" ] && [ "$charts_at" -lt "$table_at" ]; then
  pass
else
  fail "compare.html order: answer $answer_at, charts $charts_at, table $table_at"
fi
once "html: stale route in the headline" "$html" '<li class="changed">stale route, longest of the run: '
# A move beyond seed noise but under the practical size is not called changed: sends.ok moves by
# a fraction of a percent.
if grep -q '^| `sends.ok` .*| no (too small to matter) |$\|^| `sends.ok` .*| no |$' "$work/cmp/compare.md"; then
  pass
else
  fail "sends.ok is not flagged changed: $(grep '`sends.ok`' "$work/cmp/compare.md")"
fi
# One seed a side leads the same way: the headline first, each once, then the sides.
run compare "$scenario" --b 'producers[0].config.pollNameServerInterval=5000' --out "$work/single"
[ "$code" -eq 0 ] && pass || fail "compare, one seed a side (exit $code)"
head -n 10 "$work/stdout" >"$work/single10"
sed -n '/^## The answer$/,/^| | A | B |$/p' "$work/single/compare.md" >"$work/single-answer"
for where in single10 single-answer; do
  file="$work/$where"
  once "$where: stale route" "$file" \
    '^(- )?stale route, longest of the run: [0-9]+\.[0-9] s -> [0-9]+\.[0-9] s \(-[0-9.]+%\): changed$'
  once "$where: failed sends" "$file" '^(- )?failed sends: [0-9]+ -> [0-9]+ \(-[0-9.]+%\): changed$'
  once "$where: NameServer load" "$file" \
    '^(- )?GET_ROUTEINFO_BY_TOPIC per NameServer, the busiest: [0-9.]+/s -> [0-9.]+/s \(\+[0-9.]+%\): changed$'
done
if grep -q '<h2>The answer</h2>' "$work/single/compare.html"; then pass; else fail "single html"; fi
finish "compare headline"
