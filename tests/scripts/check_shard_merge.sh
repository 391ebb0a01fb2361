#!/usr/bin/env bash
# `nssim sweep merge` on doctored shard files (issue 28): counts of 0, -1 and 2^64-1, a shard
# above its count, a record nested 100,000 deep, wrong types, missing and unknown fields, runs
# the plan does not hold. Each is exit 2, one line on stderr naming the file and the field, and
# no document written; the untouched shards, and the fuzz target's seed shards, merge. check_sanitized_binary.sh runs it on the
# sanitized binary.
# usage: check_shard_merge.sh NSSIM SCENARIO
set -uo pipefail
nssim=${1:?usage: check_shard_merge.sh NSSIM SCENARIO}
scenario=${2:?usage: check_shard_merge.sh NSSIM SCENARIO}
source "$(dirname "$0")/check_harness.sh"

# 4 shards of one run each: shard-I-of-4.json holds run I-1 ("first_run":I-1,"end_run":I).
for i in 1 2 3 4; do
  "$nssim" sweep "$scenario" --seeds 4 --shard "$i/4" --out "$work/good" >/dev/null ||
    fail "sweep --shard $i/4"
done
run sweep merge "$work/good" --out "$work/good-out"
if [ "$code" -eq 0 ] && [ -f "$work/good-out/sweep.json" ]; then pass; else fail "untouched shards"; fi
# sweep_merge_fuzz's seeds, a real sweep's shards, still merge (else make them again as
# fuzz/make_seeds.sh says).
run sweep merge "$(dirname "$0")/../../fuzz/shards" --out "$work/seeds-out"
if [ "$code" -eq 0 ] && [ -f "$work/seeds-out/sweep.json" ]; then pass; else fail "fuzz/shards"; fi

# refused NAME EXPECTED_STDERR: the merge of $work/d must exit 2 with EXPECTED_STDERR as its one
# line, print nothing else, write nothing and leave the shard files as they were.
refused() {
  local before
  before=$(ls -l "$work/d")
  rm -rf "$work/out"
  run sweep merge "$work/d" --out "$work/out"
  if [ "$code" -eq 2 ] && [ "$(cat "$work/stderr")" = "nssim sweep merge: $2" ] &&
    [ ! -s "$work/stdout" ] && [ ! -e "$work/out" ] && [ "$(ls -l "$work/d")" = "$before" ]; then
    pass
  else
    fail "$1 (exit $code)"
  fi
}

# doctored NAME EXPECTED_STDERR SED_SCRIPT [SHARD]: the 4 shards, SHARD (default every one)
# edited by SED_SCRIPT, are refused. Line 1 of a shard file holds every field but the records,
# line 2 its one record, line 3 "]}".
doctored() {
  rm -rf "$work/d"
  mkdir -p "$work/d"
  cp "$work/good/shards/"*.json "$work/d/"
  # shellcheck disable=SC2086
  sed -i "$3" "$work/d/"${4:-*.json}
  refused "$1" "$2"
}

first=$work/d/shard-1-of-4.json
third=$work/d/shard-3-of-4.json
count="shards: expected a whole number in 1..1000000, got"
doctored "shards 0" "$first: $count 0" 's/"shards":4,/"shards":0,/'
doctored "shards -1" "$first: $count -1" 's/"shards":4,/"shards":-1,/'
doctored "shards 2^64-1" "$first: $count 18446744073709551615" \
  's/"shards":4,/"shards":18446744073709551615,/'
doctored "shards 2^64" "$first: $count 1.8446744073709552e+19" \
  's/"shards":4,/"shards":18446744073709551616,/'
doctored "shards as a string" "$first: $count a string" 's/"shards":4,/"shards":"4",/'
doctored "shards as a fraction" "$first: $count 4.5" 's/"shards":4,/"shards":4.5,/'
doctored "shard above shards" "$third: shard: expected a whole number in 1..4, got 5" \
  's/"shard":3,/"shard":5,/' shard-3-of-4.json
doctored "shard 0" "$third: shard: expected a whole number in 1..4, got 0" \
  's/"shard":3,/"shard":0,/' shard-3-of-4.json
doctored "shard as null" "$third: shard: expected a whole number in 1..4, got a null" \
  's/"shard":3,/"shard":null,/' shard-3-of-4.json
doctored "first_run off the plan" "$third: first_run: expected 2 (shard 3/4 of 4 runs), got 1" \
  's/"first_run":2,/"first_run":1,/' shard-3-of-4.json
doctored "end_run beyond the runs" \
  "$third: end_run: expected a whole number in 0..4, got 18446744073709551615" \
  's/"end_run":3,/"end_run":18446744073709551615,/' shard-3-of-4.json
doctored "a missing field" "$third: end_run: missing" 's/,"end_run":3//' shard-3-of-4.json
doctored "an unknown field" "$third: end: unknown field" 's/"end_run":3,/"end_run":3,"end":3,/' \
  shard-3-of-4.json
doctored "records as an object" \
  "$third: records: expected an array of 1 records (shard 3/4 of 4 runs), got an object" \
  '1s/"records":\[$/"records":{"r":[/; 3s/^\]}$/]}}/' shard-3-of-4.json
doctored "a record of the wrong type" \
  "$third: records[0]: expected a seed record {point, seed, verdict, figures}" '2s/.*/7/' \
  shard-3-of-4.json
doctored "seeds 0..2^64-1 (the count wraps to 0)" \
  "$first: identity.plan: expected 1..10000000 runs, got seeds 0..18446744073709551615 x 1 point(s)" \
  's/"first_seed":1,/"first_seed":0,/; s/"last_seed":4,/"last_seed":18446744073709551615,/'
doctored "a plan of another shape" \
  "$first: identity.plan: expected the plan nssim sweep writes (points, seeds, scenario)" \
  's/"first_seed":1,/"first_seed":"1",/'
doctored "records of another layout" \
  "$first: identity.record_schema: expected nssim.seed/1, got another layout" \
  's/"record_schema":"nssim.seed\/1"/"record_schema":"nssim.seed\/2"/'
doctored "a schema of the wrong type" "$first: not a shard file (expected schema nssim.sweep-shard/1)" \
  's/"schema":"nssim.sweep-shard\/1"/"schema":1/' shard-1-of-4.json

# Shard 1 of a million alone (no runs: the plan has 4): 999,999 missing, the first ten named.
rm "$work/d/"*
sed '1s/"shards":4,"first_run":0,"end_run":1,/"shards":1000000,"first_run":0,"end_run":0,/; 2d' \
  "$work/good/shards/shard-1-of-4.json" >"$work/d/shard-1-of-1000000.json"
missing=$(for i in $(seq 2 11); do printf '%s (runs 0..0), ' "$i"; done)
refused "a million shards" "missing shards of 1000000: ${missing%, } and 999989 more"

# The record of shard 2 nested 100,000 deep (SIGSEGV in the serializer on 8069736; the count
# is right, so only the depth check stands between it and the serializer).
cp "$work/good/shards/"*.json "$work/d/"
rm "$work/d/shard-1-of-1000000.json"
open=$(printf '%100000s' '' | tr ' ' '[')
{ head -n 1 "$work/good/shards/shard-2-of-4.json"
  printf '%s%s\n' "$open" "${open//[/]}"
  tail -n +3 "$work/good/shards/shard-2-of-4.json"; } >"$work/d/shard-2-of-4.json"
refused "a record nested 100,000 deep" \
  "$work/d/shard-2-of-4.json: expected JSON nested at most 64 levels deep"

# A plan whose fault kind is null (sweep_merge_fuzz, 4 December: the summary's get<std::string>
# aborted): the merge writes its sweep and the summary says n/a.
doctored_plan() {
  rm -rf "$work/d" "$work/out"
  mkdir -p "$work/d"
  cp "$work/good/shards/"*.json "$work/d/"
  sed -i 's/"kind":"kill"/"kind":null/g' "$work/d/"*.json
  run sweep merge "$work/d" --out "$work/out"
}
doctored_plan
if [ "$code" -eq 0 ] && grep -q '(faults\[0\]): n/a of' "$work/stdout" && [ -s "$work/out/sweep.json" ]; then
  pass
else
  fail "a plan with a null fault kind (exit $code)"
fi

finish "doctored shard merges"
