#!/usr/bin/env python3
"""Checks that one seed of `nssim sweep` (its seeds.jsonl line) gives the figures and the verdict
of `nssim run` for the same scenario and seed (its report.json): both go through analyze_run and
judge_run, so each figure the sweep lists must be the run's own value at the same path.
usage: sweep_matches_run.py SEEDS_JSONL REPORT_JSON"""
import json
import re
import sys


def resolve(node, path):
    """The value at a figure path ("outages[0].recovery.producer_ms.p50") in a report; object keys
    may hold dots (broker addresses), so at each object the longest key that fits is taken."""
    while path:
        if path.startswith("["):
            index, path = re.match(r"\[(\d+)\](.*)", path).groups()
            node = node[int(index)]
        else:
            if path.startswith("."):
                path = path[1:]
            fits = [k for k in node if path == k or path.startswith(k + ".") or path.startswith(k + "[")]
            if not fits:
                raise KeyError(path)
            key = max(fits, key=len)
            node, path = node[key], path[len(key):]
    return node


def same(sweep_value, run_value):
    if sweep_value is None or run_value is None:
        return sweep_value is None and run_value is None
    # The seed line writes whole numbers as integers and others to three decimals.
    return abs(float(sweep_value) - round(float(run_value), 3)) < 1e-9


def main():
    seeds_file, report_file = sys.argv[1], sys.argv[2]
    lines = open(seeds_file).read().splitlines()
    if len(lines) != 1:
        sys.exit(f"{seeds_file}: expected one seed, got {len(lines)} lines")
    line = json.loads(lines[0])
    report = json.load(open(report_file))
    problems = []
    if line["verdict"] != report.get("verdict", "no_expectations"):
        problems.append(f"verdict: sweep {line['verdict']}, run {report.get('verdict')}")
    compared = 0
    for path, value in line["figures"].items():
        if ".within_predicted." in path:  # derived from the outage's own figures and bounds
            continue
        try:
            run_value = resolve(report, path)
        except (KeyError, IndexError, TypeError):
            problems.append(f"{path}: in the sweep, not in the run's report.json")
            continue
        compared += 1
        if not same(value, run_value):
            problems.append(f"{path}: sweep {value}, run {run_value}")
    if compared == 0:
        problems.append("no figure compared")
    for problem in problems[:10]:
        print(f"  {problem}")
    print(f"  {compared} figures compared, {len(problems)} differ")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
