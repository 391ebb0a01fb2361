#!/usr/bin/env python3
"""scripts/calibrate.sh's reading of a scenario and of a real run (docs/fidelity.md).

  calibrate.py plan SCENARIO       the cluster the scenario describes, as shell assignments
  calibrate.py measure DIR         DIR's logs -> DIR/real.json: nssim's figures, measured
  calibrate.py compare DIR --nssim BIN --scenario S --line L [--seeds N] [--assert FIGURE]...
                                   nssim sweep of S beside DIR/real.json -> calibration.md/.json

Exit 2 on a scenario the real cluster cannot mirror, 1 when an asserted figure is outside
nssim's [p1, p99] widened by its TOLERANCE (--assert FIGURE[:TOLERANCE], in the figure's unit).
"""
import argparse
import datetime
import json
import math
import os
import re
import shlex
import subprocess
import sys

FAULT_KINDS = ("kill", "pause", "poweroff", "shutdown")
# The client's default (ClientConfig#pollNameServerInterval) and the broker's
# (BrokerConfig#registerNameServerPeriod); nssim's producer start window default
# (scenarios/README.md).
DEFAULT_POLL_MS = 30000
DEFAULT_REGISTER_MS = 30000
DEFAULT_PRODUCER_START = (15000, 45000)


def fail(message):
    print("calibrate.py: " + message, file=sys.stderr)
    sys.exit(2)


def plan(path):
    """The one cluster shape calibrate.sh starts, or exit 2 naming what does not fit."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    groups = doc.get("broker_groups", [])
    if not groups or any("name" not in g or g.get("slaves", 0) for g in groups):
        fail(f"{path}: broker_groups: expected named groups without slaves")
    periods = {g.get("config", {}).get("registerNameServerPeriod", DEFAULT_REGISTER_MS) for g in groups}
    if len(periods) != 1:
        fail(f"{path}: broker_groups: expected one registerNameServerPeriod for every group")
    topics = doc.get("topics", [])
    if len(topics) != 1 or "name" not in topics[0] or "groups" in topics[0]:
        fail(f"{path}: topics: expected one named topic on every group")
    queues = topics[0].get("writeQueueNums", 16)
    if topics[0].get("readQueueNums", 16) != queues:
        fail(f"{path}: topics[0]: expected readQueueNums == writeQueueNums")
    producers = doc.get("producers", [])
    if len(producers) != 1 or producers[0].get("arrival", "fixed") != "fixed":
        fail(f"{path}: producers: expected one set with arrival fixed")
    p = producers[0]
    known_config = {"pollNameServerInterval"}
    if set(p.get("config", {})) - known_config:
        fail(f"{path}: producers[0].config: only pollNameServerInterval is mirrored")
    start = p.get("start", {"min_ms": DEFAULT_PRODUCER_START[0], "max_ms": DEFAULT_PRODUCER_START[1]})
    faults = doc.get("faults", [])
    if len(faults) != 1 or faults[0].get("kind") not in FAULT_KINDS + ("partition",):
        fail(f"{path}: faults: expected one fault of kind {', '.join(FAULT_KINDS)} or partition")
    fault = faults[0]
    names = [g["name"] for g in groups]
    silent = silent_groups(path, fault, names) if fault["kind"] == "partition" else []
    node = fault.get("node", "")
    if not silent and (not node.endswith("-0") or node[:-2] not in names):
        fail(f"{path}: faults[0].node: expected a group's master, <group>-0")
    if fault["kind"] == "pause" and "duration_ms" not in fault:
        fail(f"{path}: faults[0]: a pause needs duration_ms")
    if fault["kind"] != "pause" and "duration_ms" in fault:
        fail(f"{path}: faults[0]: the real {fault['kind']} does not restart the broker: leave out duration_ms")
    values = {
        "ns_count": doc.get("nameservers", {}).get("count", 3),
        "real_groups": " ".join(n for n in names if n not in silent),
        "silent_groups": " ".join(silent),
        "register_ms": periods.pop(),
        "topic": topics[0]["name"],
        "queues": queues,
        "producer_count": p.get("count", 1),
        "rate_per_s": p.get("rate_per_s", 1),
        "message_size": p.get("message_size_bytes", 1024),
        "poll_ms": p.get("config", {}).get("pollNameServerInterval", DEFAULT_POLL_MS),
        "producers_start_min_ms": start["min_ms"],
        "producers_start_max_ms": start["max_ms"],
        "fault_kind": fault["kind"],
        "fault_broker": node[:-2] if not silent else "",
        "fault_at_ms": fault["at_ms"],
        "fault_duration_ms": fault.get("duration_ms", 0),
        "duration_ms": doc["duration_ms"],
    }
    for key, value in values.items():
        print(f"{key}={shlex.quote(str(value))}")


def silent_groups(path, fault, names):
    """The groups of a partition calibrate.sh can play: every producer cut from some masters
    from time 0 to the end (SilentBrokers registers them; nothing answers at their addresses),
    at least one group left reachable."""
    to = fault.get("to", [])
    if (fault.get("from") != ["producers"] or fault.get("at_ms") != 0 or "duration_ms" in fault
            or fault.get("one_way", False)):
        fail(f"{path}: faults[0]: a partition is mirrored only from [\"producers\"], at_ms 0, both ways, to the end")
    if not to or any(not n.endswith("-0") or n[:-2] not in names for n in to) or len(to) >= len(names):
        fail(f"{path}: faults[0].to: expected masters <group>-0 of some groups, not all")
    return [n[:-2] for n in to]


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


LOG_TIME = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) ")


def log_ms(line):
    m = LOG_TIME.match(line)
    if not m:
        return None
    t = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc)
    return int(round(t.timestamp() * 1000))


# What each NameServer log line says about the broker's removal (both lines' wording): the
# causes, by precedence, and the removal itself.
CAUSES = (
    ("The broker channel expired", "scan_expiry"),  # RouteInfoManager#scanNotActiveBroker
    ("IDLE exception", "idle_close"),  # NettyConnectManageHandler#userEventTriggered -> onChannelIdle
    ("exceptionCaught", "connection_exception"),  # -> BrokerHousekeepingService#onChannelException
    ("channelInactive", "connection_close"),  # -> BrokerHousekeepingService#onChannelClose
)
# 5.x removes in BatchUnregistrationService (RouteInfoManager#unRegisterBroker), as 4.9 does for
# UNREGISTER_BROKER; 4.9's RouteInfoManager#onChannelDestroy removes at once and names the address.
REMOVALS = ("unregisterBroker, remove from brokerLiveTable", "channel destroyed")


def removal_from_log(path, broker_addr, fault_ms):
    """(t_ms, path) of the NameServer's first removal of broker_addr after fault_ms, by its log.

    The time is the removal's line; the path the highest-precedence cause logged for the broker's
    host since the fault (the scan closes the channel before it logs, so a channelInactive can come
    first), "unregister" when there is none.
    """
    host = broker_addr.split(":")[0] + ":"
    seen = set()
    with open(path, errors="replace") as f:
        for line in f:
            t = log_ms(line)
            if t is None or t < fault_ms or host not in line:
                continue
            seen.update(p for text, p in CAUSES if text in line)
            if any(text in line for text in REMOVALS):
                path_taken = next((p for _, p in CAUSES if p in seen), "unregister")
                return t, path_taken
    return None, None


# nssim's send causes (reports/README.md, sends.failed) from what DefaultMQProducerImpl#
# sendDefaultImpl throws: RemotingTooMuchRequestException when the sendMsgTimeout budget ran out,
# else MQClientException around the last attempt's exception (its cause), "No route info" when
# no route could be found.
CAUSE_OF_EXCEPTION = {
    "RemotingConnectException": "connect",  # connect_refused or connect_timeout: one class
    "RemotingTimeoutException": "request_timeout",
    "RemotingSendRequestException": "connection_reset",
    "MQBrokerException": "broker_error",
}


def send_cause(send):
    if send["exception"] == "RemotingTooMuchRequestException":
        return "send_timeout_budget"
    if "No route info" in send.get("message", ""):
        return "no_route"
    return CAUSE_OF_EXCEPTION.get(send["cause"], "other")


def stats(values):
    present = sorted(v for v in values if v is not None)
    out = {"count": len(present), "never": len(values) - len(present)}
    out["min"] = present[0] if present else None
    out["max"] = present[-1] if present else None
    return out


def task_runs(changes, task, end_ms):
    """[start, end) of each run of one task from ClusterProducers' "scheduler" lines (the task
    the scheduler thread runs, sampled every 5 ms); a run still going at end_ms ends there."""
    runs = []
    for i, c in enumerate(changes):
        if c["task"] == task and c["t_ms"] <= end_ms:
            runs.append((c["t_ms"], min(changes[i + 1]["t_ms"], end_ms) if i + 1 < len(changes) else end_ms))
    return runs


# A route poll's queries (one per topic) leave back to back, runs are seconds apart.
ROUTE_RUN_GAP_MS = 1000
# MQClientInstance#startScheduledTask: the first route poll is due 10 ms after it.
FIRST_ROUTE_POLL_MS = 10


def route_poll_runs(queries):
    """Start of each route-poll run: its first GET_ROUTEINFO_BY_TOPIC."""
    starts = []
    for q in queries:
        if not starts or q["t_ms"] - last > ROUTE_RUN_GAP_MS:
            starts.append(q["t_ms"])
        last = q["t_ms"]
    return starts


def measure_scheduler(run, events):
    """Per producer, each route poll's delay against the fixed-rate grid (ScheduledThreadPool
    Executor#scheduleAtFixedRate: due k = T0 + 10 ms + k pollNameServerInterval, T0 inside
    DefaultMQProducer#start, taken at its return: the delays are short by at most
    start_window_ms) and each heartbeat run's span, beside client_scheduler's figures
    (reports/README.md, "Client scheduler"). A route poll queries only the topics the producer has
    sent to, so the runs seen are those due after its first send, one per period, none skipped."""
    producers, poll_ms, origin, end = [], run["poll_ms"], run["origin_ms"], run["end_ms"]
    for name in sorted({e["producer"] for e in events if e["event"] == "started"}):
        mine = [e for e in events if e.get("producer") == name]
        instance = next(e for e in mine if e["event"] == "instance_start")
        due0 = instance["end_ms"] + FIRST_ROUTE_POLL_MS
        first_send = min(e["start_ms"] for e in mine if e["event"] == "send")
        k0 = max(1, math.ceil((first_send - due0) / poll_ms))
        polls = route_poll_runs([e for e in mine if e["event"] == "route_query" and e["t_ms"] <= end])
        delays = [s - (due0 + (k0 + i) * poll_ms) for i, s in enumerate(polls)]
        heartbeats = task_runs([e for e in mine if e["event"] == "scheduler"], "heartbeat", end)
        producers.append({
            "name": name, "route_polls": len(polls) + k0, "start_window_ms": instance["end_ms"] - instance["t_ms"],
            "route_poll_delays_ms": delays, "first_route_poll_seen": k0,
            "route_poll_delay_max_ms": max(delays) if delays else None,
            "route_poll_starts_ms": [s - origin for s in polls],
            "heartbeat_runs": len(heartbeats),
            "heartbeat_runs_ms": [[s - origin, e - origin] for s, e in heartbeats],
        })
    return producers


def measure(directory):
    run = json.load(open(os.path.join(directory, "run.json")))
    if run.get("fault_kind") == "partition":
        events = read_jsonl(os.path.join(directory, "producers.jsonl"))
        real = {"line": run["line"], "scenario": run["scenario"], "fault_kind": "partition",
                "silent_brokers": run["silent_brokers"], "client_scheduler": measure_scheduler(run, events)}
        with open(os.path.join(directory, "real.json"), "w") as f:
            json.dump(real, f, indent=2, sort_keys=True)
            f.write("\n")
        return
    fault_ms, broker, addr = run["fault_ms"], run["fault_broker"], run["fault_broker_addr"]
    window_end = run["fault_end_ms"] if run["fault_end_ms"] is not None else run["end_ms"]
    poller = read_jsonl(os.path.join(directory, "poller.jsonl"))
    nameservers = []
    for i, ns in enumerate(run["namesrvs"]):
        left = next((e["t_ms"] for e in poller
                     if e["event"] == "cluster" and e["namesrv"] == ns and e["t_ms"] >= fault_ms
                     and addr not in e["brokers"]), None)
        t, path = removal_from_log(os.path.join(directory, f"ns-{i}", "namesrv.log"), addr, fault_ms)
        nameservers.append({
            "nameserver": f"ns-{i}", "addr": ns, "path": path,
            "delay_ms": None if t is None else t - fault_ms,
            "poller_delay_ms": None if left is None else left - fault_ms,
        })
    events = read_jsonl(os.path.join(directory, "producers.jsonl"))
    producers = []
    for name in sorted({e["producer"] for e in events if e["event"] == "started"}):
        routes = [e for e in events if e["event"] == "route" and e["producer"] == name]
        held = [e for e in routes if e["t_ms"] <= fault_ms]
        had_broker = bool(held) and broker in held[-1]["brokers"]
        lost = next((e["t_ms"] for e in routes if e["t_ms"] > fault_ms and broker not in e["brokers"]), None)
        producers.append({"name": name, "had_broker_at_fault": had_broker,
                          "stale_route_ms": None if lost is None or not had_broker else lost - fault_ms})
    sends = [e for e in events if e["event"] == "send" and fault_ms <= e["start_ms"] <= window_end]
    failed = [s for s in sends if s["outcome"] == "failed"]
    by_cause, by_exception = {}, {}
    for s in failed:
        by_cause[send_cause(s)] = by_cause.get(send_cause(s), 0) + 1
        key = f"{s['exception']}({s['cause']})"
        by_exception[key] = by_exception.get(key, 0) + 1
    real = {
        "line": run["line"], "scenario": run["scenario"], "fault_broker": broker,
        "kill_teardown_ms": run["kill_teardown_ms"],
        "nameservers": nameservers,
        "nameserver_drop_ms": stats([n["delay_ms"] for n in nameservers]),
        "producers": producers,
        "stale_route_ms": stats([p["stale_route_ms"] for p in producers if p["had_broker_at_fault"]]),
        "sends": {"total": len(sends), "ok": len(sends) - len(failed), "failed": len(failed),
                  "failed_by_cause": by_cause, "failed_by_exception": by_exception},
    }
    with open(os.path.join(directory, "real.json"), "w") as f:
        json.dump(real, f, indent=2, sort_keys=True)
        f.write("\n")


def nearest_rank(sorted_values, p):
    """nssim's percentile: rank ceil(p/100 * n) of the sorted values (reports/README.md)."""
    return sorted_values[max(1, math.ceil(p / 100 * len(sorted_values))) - 1]


def real_figures(real):
    """nssim's figure paths (reports/README.md, "The figures of a sweep") -> the real value."""
    figures = {}
    if real.get("fault_kind") == "partition":  # the clients' schedulers: no outage to time
        clients = real["client_scheduler"]
        delays = [c["route_poll_delay_max_ms"] for c in clients if c["route_poll_delay_max_ms"] is not None]
        figures["client_scheduler.route_poll_delay_max_ms.max"] = max(delays) if delays else None
        figures["client_scheduler.route_polls"] = sum(c["route_polls"] for c in clients)
        return figures
    drop = real["nameserver_drop_ms"]
    for i, ns in enumerate(real["nameservers"]):
        figures[f"outages[0].nameservers[{i}].delay_ms"] = ns["delay_ms"]
    figures["outages[0].nameserver_drop_ms.min"] = drop["min"]
    figures["outages[0].nameserver_drop_ms.max"] = drop["max"]
    figures["outages[0].nameserver_drop_ms.never"] = drop["never"]
    stale = real["stale_route_ms"]
    figures["outages[0].producers.stale_route_ms.min"] = stale["min"]
    figures["outages[0].producers.stale_route_ms.max"] = stale["max"]
    figures["outages[0].producers.stale_route_ms.never"] = stale["never"]
    sends = real["sends"]
    figures["outages[0].sends.total"] = sends["total"]
    figures["outages[0].sends.failed.total"] = sends["failed"]
    for cause in ("send_timeout_budget", "request_timeout", "connection_reset", "no_route", "broker_error"):
        figures[f"outages[0].sends.failed.{cause}"] = sends["failed_by_cause"].get(cause, 0)
    figures["outages[0].sends.failed.connect_*"] = sends["failed_by_cause"].get("connect", 0)
    return figures


def simulated_values(seeds, path):
    """Per seed, the figure (None for never); connect_* sums nssim's two connect causes."""
    if path.endswith("connect_*"):
        base = path[: -len("connect_*")]
        return [sum(s["figures"].get(base + c) or 0 for c in ("connect_refused", "connect_timeout"))
                for s in seeds]
    return [s["figures"].get(path) for s in seeds]


def nssim_paths(nssim, scenario, line, runs, scratch):
    """How nssim's NameServers dropped the broker over the first seeds: {path: count}."""
    counts = {}
    for seed in range(1, runs + 1):
        out = os.path.join(scratch, f"run-{seed}")
        subprocess.run([nssim, "run", scenario, "--profile", line, "--seed", str(seed), "--out", out],
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        result = json.load(open(os.path.join(out, "result.json")))
        for ns in result["outages"][0]["nameservers"]:
            key = ns.get("path") or "never"
            counts[key] = counts.get(key, 0) + 1
    return counts


def fmt(value):
    return "never" if value is None else str(value)


def table(args, rows):
    lines = [f"### {os.path.basename(args.scenario)} under {args.line}: real cluster vs nssim over {args.seeds} seeds",
             "", "| figure | real | nssim p1 | p50 | p99 | nssim never | inside [p1, p99] |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| `{r['figure']}` | {fmt(r['real'])} | {fmt(r['nssim_p1'])} | {fmt(r['nssim_p50'])} | "
                     f"{fmt(r['nssim_p99'])} | {r['nssim_never']}/{args.seeds} | {'yes' if r['inside'] else '**no**'} |")
    return lines


def write_calibration(args, doc, lines, rows):
    with open(os.path.join(args.dir, "calibration.json"), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")
    text = "\n".join(lines + [""])
    with open(os.path.join(args.dir, "calibration.md"), "w") as f:
        f.write(text)
    print(text)
    status = 0
    known = {r["figure"]: r for r in rows}
    for spec in args.assert_figures:
        figure, _, tolerance = spec.partition(":")
        if figure not in known or not re.fullmatch(r"\d*", tolerance):
            fail(f"--assert {spec}: expected FIGURE[:TOLERANCE] with a figure of the table")
        row, slack = known[figure], int(tolerance or 0)
        inside = row["inside"] or (row["real"] is not None and row["nssim_p1"] is not None
                                   and row["nssim_p1"] - slack <= row["real"] <= row["nssim_p99"] + slack)
        print(f"calibrate.py: {figure}: real {fmt(row['real'])}, nssim [p1, p99] [{fmt(row['nssim_p1'])}, "
              f"{fmt(row['nssim_p99'])}], tolerance {slack}: {'inside' if inside else 'OUTSIDE'}", file=sys.stderr)
        if not inside:
            status = 1
    return status


def compare_scheduler(args, real, rows):
    """The partition run: the scheduler's figures, and each real route poll's delay."""
    doc = {"scenario": args.scenario, "line": args.line, "seeds": args.seeds, "rows": rows,
           "silent_brokers": real["silent_brokers"], "per_producer": real["client_scheduler"]}
    lines = table(args, rows)
    lines += ["", f"{len(real['silent_brokers'])} silent masters. Real route polls, ms after the scenario's time 0, "
              "and each one's delay (start minus due, the grid from DefaultMQProducer#start's return, "
              "late by at most start_window_ms), and the heartbeat runs [start, end):"]
    for c in real["client_scheduler"]:
        lines.append(f"- {c['name']} (start_window_ms {c['start_window_ms']}, first route poll seen: "
                     f"{c['first_route_poll_seen']}): starts {c['route_poll_starts_ms']}, "
                     f"delays {c['route_poll_delays_ms']}; heartbeat runs {c['heartbeat_runs_ms']}")
    return write_calibration(args, doc, lines, rows)


def compare(args):
    real = json.load(open(os.path.join(args.dir, "real.json")))
    sweep_dir = os.path.join(args.dir, "sweep")
    subprocess.run([args.nssim, "sweep", args.scenario, "--profile", args.line, "--seeds", str(args.seeds),
                    "--out", sweep_dir], check=True, stdout=subprocess.DEVNULL)
    seeds = read_jsonl(os.path.join(sweep_dir, "seeds.jsonl"))
    rows = []
    for path, value in real_figures(real).items():
        sim = simulated_values(seeds, path)
        present = sorted(v for v in sim if v is not None)
        row = {"figure": path, "real": value, "nssim_never": len(sim) - len(present)}
        if present:
            row.update(nssim_p1=nearest_rank(present, 1), nssim_p50=nearest_rank(present, 50),
                       nssim_p99=nearest_rank(present, 99), nssim_min=present[0], nssim_max=present[-1])
            row["inside"] = value is not None and row["nssim_p1"] <= value <= row["nssim_p99"]
        else:  # nssim never has a value: inside when the real one has none either
            row.update(nssim_p1=None, nssim_p50=None, nssim_p99=None, nssim_min=None, nssim_max=None)
            row["inside"] = value is None
        rows.append(row)
    if real.get("fault_kind") == "partition":
        return compare_scheduler(args, real, rows)
    paths = nssim_paths(args.nssim, args.scenario, args.line, 10, os.path.join(args.dir, "nssim-runs"))
    real_paths = {}
    for ns in real["nameservers"]:
        real_paths[ns["path"] or "never"] = real_paths.get(ns["path"] or "never", 0) + 1
    doc = {"scenario": args.scenario, "line": args.line, "seeds": args.seeds, "rows": rows,
           "kill_teardown_ms": real["kill_teardown_ms"],
           "paths": {"real": real_paths, "nssim_first_10_seeds": paths},
           "failed_by_exception": real["sends"]["failed_by_exception"],
           "per_nameserver": real["nameservers"], "per_producer": real["producers"]}
    lines = table(args, rows)
    lines += ["", "Removal paths: real " + json.dumps(real_paths, sort_keys=True)
              + "; nssim (seeds 1-10) " + json.dumps(paths, sort_keys=True),
              "Real failed sends by exception(cause): " + json.dumps(real["sends"]["failed_by_exception"], sort_keys=True)]
    if real["kill_teardown_ms"]:
        lines.append(f"The killed JVM closed its connections {real['kill_teardown_ms']} ms after SIGKILL; the real times count from then.")
    return write_calibration(args, doc, lines, rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("plan").add_argument("scenario")
    sub.add_parser("measure").add_argument("dir")
    c = sub.add_parser("compare")
    c.add_argument("dir")
    c.add_argument("--nssim", required=True)
    c.add_argument("--scenario", required=True)
    c.add_argument("--line", required=True, choices=("4.9", "5.x"))
    c.add_argument("--seeds", type=int, default=200)
    c.add_argument("--assert", dest="assert_figures", action="append", default=[])
    args = parser.parse_args()
    if args.command == "plan":
        plan(args.scenario)
    elif args.command == "measure":
        measure(args.dir)
    else:
        sys.exit(compare(args))


if __name__ == "__main__":
    main()
