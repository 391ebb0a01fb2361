#!/usr/bin/env bash
# Usage: fuzz/make_seeds.sh TARGET DIR
# Writes TARGET's seed corpus into DIR/seeds (emptied first) and its dictionary, every JSON key
# the seeds use, into DIR/TARGET.dict, both from the shipped files, so they follow them.
#   scenario_fuzz: scenarios/*.json, bench/scenarios/*.json and tests/scenarios/*.json (the
#     consumers block, which no shipped scenario has yet), each alone and with --set lines;
#   replay_fuzz:   the replay inputs in examples/replay and tests/replay;
#   sweep_merge_fuzz: the two shard files in fuzz/shards, together (a whole merge), in the other
#     order and each alone. They are a real sweep's; tests/scripts/check_shard_merge.sh fails
#     when they no longer merge, and they are made again, from the repository root, by
#     for i in 1 2; do nssim sweep scenarios/broker_kill.json --seeds 2 \
#       --grid 'producers[0].config.pollNameServerInterval=10000,30000' --shard $i/2 --out out/f; done
#     and copying out/f/shards/*.json to fuzz/shards/.
set -euo pipefail
usage="usage: fuzz/make_seeds.sh scenario_fuzz|replay_fuzz|sweep_merge_fuzz DIR"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
target=$1
dir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir/seeds"
mkdir -p "$dir/seeds"

# bench/scenarios/large.json -> bench_scenarios_large.json
seed_name() { local path=${1#"$root"/}; echo "${path//\//_}"; }

case "$target" in
  scenario_fuzz)
    # The --set forms a run takes: a number, a string, an object, a new field and a bad path.
    overrides=$'\n--set seed=7\n--set duration_ms=60000'
    overrides+=$'\n--set producers[0].rate_per_s=0.5\n--set producers[0].arrival="fixed"'
    overrides+=$'\n--set faults[0]={"kind":"kill","node":"broker-a-0","at_ms":1000}'
    overrides+=$'\n--set nameservers.count=2\n--set broker_groups[0].config.brokerPermission=4'
    for file in "$root"/scenarios/*.json "$root"/bench/scenarios/*.json "$root"/tests/scenarios/*.json; do
      [ "$(basename "$file")" = schema.json ] && continue
      name=$(seed_name "$file")
      # The two largest benches cut to a size that loads in milliseconds, not seconds (each
      # mutation of a seed costs what the seed costs); 100 --set lines are a seed of their own.
      case "$name" in
        bench_scenarios_groups_10k.json) cut=$'\n--set broker_groups[0].count=50' ;;
        bench_scenarios_producers_100k.json)
          cut=$(printf '\n--set producers[%d].count=10' {0..99}) ;;
        # A dotted system property's name is one key (--set's one exception).
        tests_scenarios_consumers_plumbing.json)
          cut=$'\n--set consumers[0].config.rocketmq.client.rebalance.waitInterval=30000' ;;
        *) cut="" ;;
      esac
      { cat "$file"; printf '%s' "$cut"; } >"$dir/seeds/$name"
      { cat "$file"; printf '%s%s' "$cut" "$overrides"; } >"$dir/seeds/$name-set"
    done
    ;;
  replay_fuzz)
    for file in "$root"/examples/replay/*.jsonl "$root"/tests/replay/*.jsonl; do
      case "$file" in *.expected.jsonl) continue ;; esac
      cp "$file" "$dir/seeds/$(seed_name "$file")"
    done
    ;;
  sweep_merge_fuzz)
    # The fuzz target's input: shard files, each after the first behind a line "--next-shard".
    one=$root/fuzz/shards/shard-1-of-2.json
    two=$root/fuzz/shards/shard-2-of-2.json
    { cat "$one"; printf -- '--next-shard\n'; cat "$two"; } >"$dir/seeds/merge"
    { cat "$two"; printf -- '--next-shard\n'; cat "$one"; } >"$dir/seeds/merge-reversed"
    cp "$one" "$dir/seeds/shard-1-alone"
    cp "$two" "$dir/seeds/shard-2-alone"
    ;;
  *)
    echo "fuzz/make_seeds.sh: unknown target '$target' (scenario_fuzz, replay_fuzz or" \
      "sweep_merge_fuzz)" >&2
    exit 2
    ;;
esac

# libFuzzer's dictionary syntax: one "..." per line, \" for a quote, \x0A for a line break.
keys_from=("$dir"/seeds/*)
[ "$target" = scenario_fuzz ] && keys_from+=("$root/scenarios/schema.json")
{
  [ "$target" = scenario_fuzz ] && printf '%s\n' '"\x0A--set "'
  [ "$target" = sweep_merge_fuzz ] && printf '%s\n' '"\x0A--next-shard\x0A"'
  cat "${keys_from[@]}" | grep -o '"[A-Za-z0-9_.$]*":' | sort -u | sed 's/"/\\"/g; s/.*/"&"/'
} >"$dir/$target.dict"
echo "$target: $(find "$dir/seeds" -type f | wc -l) seeds," \
  "$(wc -l <"$dir/$target.dict") dictionary entries"
