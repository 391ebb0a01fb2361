#!/usr/bin/env python3
"""Differential test: the same replay sessions through `nssim replay` and through the real
NameServer of each line (scripts/upstream.sh sessions: a fresh NamesrvStartup per session),
answers compared after the normalisations of docs/fidelity.md. Prints the sequences tried, the
answers compared, the lines skipped by reason, and every difference with its line and both
answers; exit 1 when a difference is not explained by allowed_differences.json.

Expiry sessions (tests/upstream/generate_expiry.py, and FILEs given with --paced) are replayed
in real time: the driver sends each line at its at_ms, and a scan line shows what the real
NameServer's own scans removed since the line before. A file's sibling X.namesrv.properties
(for X.jsonl) holds NamesrvConfig settings both sides run it with.

usage: compare.py --nssim build/nssim [--profiles 4.9,5.x] [--generate N] [--seed S]
                  [--expiry N] [--expiry-49 N] [--paced FILE]... [FILE...]
"""
import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

GET_NAMESRV_CONFIG = 319
SYSTEM_ERROR = 1
# NettyServerConfig's fields: upstream's GET_NAMESRV_CONFIG lists them after NamesrvConfig's,
# nssim models no Netty server (docs/replay.md).
NETTY_SERVER_CONFIG = {
    "listenPort", "bindAddress", "serverWorkerThreads", "serverCallbackExecutorThreads",
    "serverSelectorThreads", "serverOnewaySemaphoreValue", "serverAsyncSemaphoreValue",
    "serverChannelMaxIdleTimeSeconds", "serverSocketSndBufSize", "serverSocketRcvBufSize",
    "writeBufferHighWaterMark", "writeBufferLowWaterMark", "serverSocketBacklog",
    "serverPooledByteBufAllocatorEnable", "useEpollNativeSelector", "enableShutdownGracefully",
    "shutdownWaitTimeSeconds", "serverNettyWorkerGroupEnable", "enableGrpcServer",
}
# The replay's clock starts at 0: a DataVersion timestamp nssim took from it is below this.
REPLAY_CLOCK_LIMIT_MS = 10**12
# Paced sessions the driver runs at once, each against its own NameServer: they mostly wait.
PACED_AT_ONCE = 8
# A paced session whose latest line was done (answered, its effect seen) later than this after
# its at_ms is not compared: half the margin generate_expiry.py keeps between every line and
# every deadline, the other half for what the driver cannot time (the NameServer's scan and
# batch threads).
LATE_LIMIT_MS = 500


# --- normalisation (docs/fidelity.md#normalisation) ---

def sort_by(items, key):
    return sorted(items, key=lambda item: json.dumps(item.get(key) if isinstance(item, dict)
                                                     else item, sort_keys=True))


def hash_orders(body):
    """Orders upstream takes from a Java HashMap/HashSet are not behaviour: sorted."""
    if not isinstance(body, dict):
        return body
    body = dict(body)
    for key in ("queueDatas", "brokerDatas"):
        if isinstance(body.get(key), list):
            body[key] = sort_by(body[key], "brokerName")
    if isinstance(body.get("topicList"), list):
        body["topicList"] = sorted(body["topicList"])
    if isinstance(body.get("clusterAddrTable"), dict):
        body["clusterAddrTable"] = {k: sorted(v) for k, v in body["clusterAddrTable"].items()}
    return body


FRAME = re.compile(r"^(?:java\.base/)?([\w.$<>]+)\((\w+)\.java:(\d+)\)$")


# 4.9.7's DefaultRequestProcessor.java lines as 4.9.8 numbers them, (first 4.9.7 line, shift):
# 4.9.8 adds 3 imports, the config black list in the constructor, and validateBlackListConfigExist
# after updateConfig (docs/fidelity.md); lines 584 and 586 changed, no frame is on them.
DEFAULT_REQUEST_PROCESSOR_4_9_8 = [(22, 3), (72, 5), (74, 15), (597, 26)]


def line_4_9_8(file, number):
    shift = 0
    if file == "DefaultRequestProcessor":
        for first, by in DEFAULT_REQUEST_PROCESSOR_4_9_8:
            if number >= first:
                shift = by
    return number + shift


def system_error(remark, profile, side):
    """A SYSTEM_ERROR remark is `exceptionSimpleDesc`: "<exception>, <first frame>". Compared:
    the exception class and the frame; not the message (JDK 17's helpful NullPointerException
    text and index messages, fastjson's wording, which nssim replaces by its own), not a JDK
    frame's line or module (nssim spells JDK 8's)."""
    head, _, last = remark.rpartition(", ")
    frame = FRAME.match(last)
    if not frame:
        head, frame = remark, None
    exception = re.split(r"[:,]", head, maxsplit=1)[0]
    if exception == "com.alibaba.fastjson.JSONException" or frame is None:
        return {"exception": exception}
    method, file, number = frame.group(1), frame.group(2), int(frame.group(3))
    if method.startswith("java."):
        return {"exception": exception, "at": method}
    if side == "upstream" and profile == "4.9":
        number = line_4_9_8(file, number)
    return {"exception": exception, "at": f"{method}({file}.java:{number})"}


def properties(text, home):
    """GET_NAMESRV_CONFIG's properties text as a map; upstream's home folder spelt ~ as nssim
    spells user.home."""
    table = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            table[key] = value.replace(home, "~") if home else value
    return table


def normalise(answer, code, profile, side):
    answer = copy.deepcopy(answer)
    if "body" not in answer:
        return answer
    answer["body"] = hash_orders(answer["body"])
    if answer.get("code") == SYSTEM_ERROR and isinstance(answer.get("remark"), str):
        answer["remark"] = system_error(answer["remark"], profile, side)
    if code == GET_NAMESRV_CONFIG and isinstance(answer["body"], str):
        raw = properties(answer["body"], None)
        table = properties(answer["body"], raw.get("rocketmqHome"))
        if side == "upstream":
            table = {k: v for k, v in table.items() if k not in NETTY_SERVER_CONFIG}
        answer["body"] = table
    return answer


def same_now(ours, theirs, window):
    """A DataVersion timestamp nssim took from the replay's clock is "now": upstream's is the
    wall clock of the run, which is all that can be asked of it."""
    if code_body_timestamp(ours) is None or code_body_timestamp(theirs) is None:
        return False
    if ours["body"]["timestamp"] >= REPLAY_CLOCK_LIMIT_MS:
        return False
    if not window[0] <= theirs["body"]["timestamp"] <= window[1]:
        return False
    a, b = copy.deepcopy(ours), copy.deepcopy(theirs)
    a["body"]["timestamp"] = b["body"]["timestamp"] = "now"
    return a == b


def code_body_timestamp(answer):
    body = answer.get("body")
    return body.get("timestamp") if isinstance(body, dict) else None


def without(answer, path):
    """answer without the field at a dotted path (body.brokerAddr)."""
    answer = copy.deepcopy(answer)
    node = answer
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            return answer
    if isinstance(node, dict):
        node.pop(keys[-1], None)
    return answer


def value_at(answer, path):
    node = answer
    for key in path.split("."):
        node = node.get(key) if isinstance(node, dict) else None
    return node


def allowed_reason(allowed, profile, code, ours, theirs):
    """The allow-list entries (allowed_differences.json) that explain the difference: each
    applies to its profile and code, when upstream's answer holds its `upstream` values, and
    drops its `fields` from both answers; explained when the answers are then equal."""
    reasons = []
    for entry in allowed:
        if entry.get("profile", profile) != profile or entry.get("code", code) != code:
            continue
        if any(value_at(theirs, k) != v for k, v in entry.get("upstream", {}).items()):
            continue
        if all(value_at(ours, f) == value_at(theirs, f) for f in entry["fields"]):
            continue
        for path in entry["fields"]:
            ours, theirs = without(ours, path), without(theirs, path)
        reasons.append(entry["reason"])
    return "; ".join(reasons) if reasons and ours == theirs else None


# --- running both sides ---

def settings_of(path):
    """The NamesrvConfig settings of a session file: its sibling X.namesrv.properties, if any."""
    sibling = re.sub(r"\.jsonl$", "", path) + ".namesrv.properties"
    if not os.path.exists(sibling):
        return {}
    with open(sibling) as f:
        return properties(f.read(), None)


def run_nssim(nssim, profile, path, settings):
    config = [arg for key, value in sorted(settings.items())
              for arg in ("--config", f"{key}={value}")]
    done = subprocess.run([nssim, "replay", "--profile", profile] + config + [path],
                          capture_output=True, text=True)
    if done.returncode not in (0, 2) or not done.stdout:
        sys.exit(f"compare.py: nssim replay {path} failed: {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def run_upstream(profile, paths, outdir, paced):
    flags = []
    if paced:
        import generate_expiry  # tests/upstream/generate_expiry.py
        # Sessions started a burst period / PACED_AT_ONCE apart never send bursts together.
        stagger_ms = generate_expiry.PROFILES[profile]["period"] // PACED_AT_ONCE
        flags = ["--paced", "--parallel", str(PACED_AT_ONCE), "--stagger-ms", str(stagger_ms)]
    done = subprocess.run(["bash", os.path.join(ROOT, "scripts", "upstream.sh"), "sessions",
                           profile, outdir] + flags + paths, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"compare.py: the {profile} NameServer could not replay: {done.stderr.strip()}")


def replayable(inputs, ours, skipped, paced):
    """The input lines a real NameServer can be shown: nssim's malformed lines change nothing and
    are dropped; unless the session is paced, a scan that removed a broker acted on the replay's
    clock, which a real NameServer does not share, so the session ends there."""
    kept = []
    for index, (line, answer) in enumerate(zip(inputs, ours)):
        if "error" in answer:
            skipped["malformed for nssim (changes nothing)"] += 1
            continue
        if not paced and answer.get("event") == "scan" and answer.get("removed"):
            skipped["at or after a scan that expired a broker on the replay's clock"] += \
                len(inputs) - index
            break
        kept.append((index, line, answer))
    return kept


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nssim", required=True)
    parser.add_argument("--profiles", default="4.9,5.x")
    parser.add_argument("--generate", type=int, default=0, help="random sequences per profile")
    parser.add_argument("--seed", type=int, default=1, help="the first generated sequence's seed")
    parser.add_argument("--expiry", type=int, default=0,
                        help="generated expiry sessions on 5.x, in real time (about 8-14 s each)")
    parser.add_argument("--expiry-49", type=int, default=0,
                        help="generated expiry sessions on 4.9, in real time (about 2.5 min each)")
    parser.add_argument("--paced", action="append", default=[], metavar="FILE",
                        help="a session replayed in real time")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    with open(os.path.join(HERE, "allowed_differences.json")) as f:
        allowed = json.load(f)
    sequences, compared, skipped, differences = 0, 0, Counter(), []
    expiry = Counter()  # the paced sessions' own counts
    started = time.time()
    with tempfile.TemporaryDirectory() as scratch:
        for profile in args.profiles.split(","):
            sessions = [(path, os.path.relpath(path, ROOT), False, settings_of(path))
                        for path in args.files]
            sessions += [(path, os.path.relpath(path, ROOT), True, settings_of(path))
                         for path in args.paced]
            if args.generate:
                import generate  # tests/upstream/generate.py
            for seed in range(args.seed, args.seed + args.generate):
                path = os.path.join(scratch, f"generated_{profile}_{seed}.jsonl")
                with open(path, "w") as f:
                    f.write(generate.session(seed, profile))
                sessions.append((path, f"generated {profile} seed {seed}", False, {}))
            count = {"5.x": args.expiry, "4.9": args.expiry_49}[profile]
            if count:
                import generate_expiry  # tests/upstream/generate_expiry.py
            for seed in range(args.seed, args.seed + count):
                path = os.path.join(scratch, f"expiry_{profile}_{seed}.jsonl")
                text, settings = generate_expiry.session(seed, profile)
                with open(path, "w") as f:
                    f.write(text)
                sessions.append((path, f"expiry {profile} seed {seed}", True, settings))
            folder = os.path.join(scratch, profile)
            os.makedirs(os.path.join(folder, "out"))
            prepared = []
            for number, (path, name, paced, settings) in enumerate(sessions):
                with open(path) as f:
                    inputs = f.read().splitlines()
                ours = run_nssim(args.nssim, profile, path, settings)
                kept = replayable(inputs, ours, skipped, paced)
                filtered = os.path.join(folder, f"{number}.jsonl")
                with open(filtered, "w") as f:
                    f.write("".join(line + "\n" for _, line, _ in kept))
                if settings:
                    with open(os.path.join(folder, f"{number}.namesrv.properties"), "w") as f:
                        f.write("".join(f"{k}={v}\n" for k, v in sorted(settings.items())))
                prepared.append((name, filtered, kept, paced))
            window = (int(time.time() * 1000), None)
            for paced in (False, True):
                paths = [p for _, p, _, is_paced in prepared if is_paced == paced]
                if paths:
                    run_upstream(profile, paths, os.path.join(folder, "out"), paced)
            window = (window[0], int(time.time() * 1000))
            for name, filtered, kept, paced in prepared:
                sequences += 1
                stem = os.path.join(folder, "out", os.path.basename(filtered)[:-len(".jsonl")])
                with open(stem + ".jsonl") as f:
                    theirs = [json.loads(line) for line in f.read().splitlines()]
                if len(theirs) != len(kept):
                    sys.exit(f"compare.py: {name}: {len(theirs)} upstream answers "
                             f"for {len(kept)} lines")
                if paced:
                    with open(stem + ".late_ms") as f:
                        late_ms = int(f.read())
                    expiry["sequences"] += 1
                    expiry["latest_ms"] = max(expiry["latest_ms"], late_ms)
                    if late_ms > LATE_LIMIT_MS:
                        print(f"not compared: {name}: a line was done {late_ms} ms late "
                              f"(more than {LATE_LIMIT_MS} ms; the machine is too loaded)")
                        skipped[f"in a paced session done more than {LATE_LIMIT_MS} ms "
                                f"late"] += len(kept)
                        expiry["late"] += 1
                        continue
                for (index, line, our_answer), their_answer in zip(kept, theirs):
                    if "skipped" in their_answer:
                        skipped[their_answer["skipped"]] += 1
                        continue
                    compared += 1
                    if paced:
                        expiry["compared"] += 1
                        if our_answer.get("event") == "scan":
                            expiry["scans"] += 1
                            expiry["removed"] += len(our_answer.get("removed", []))
                    code = json.loads(line).get("code")
                    a = normalise(our_answer, code, profile, "nssim")
                    b = normalise(their_answer, code, profile, "upstream")
                    if a == b or same_now(a, b, window):
                        continue
                    reason = allowed_reason(allowed, profile, code, a, b)
                    differences.append((profile, name, index + 1, line, our_answer,
                                        their_answer, reason, paced))
    reasons = Counter()
    unexplained = 0
    for profile, name, number, line, ours, theirs, reason, paced in differences:
        expiry["differences"] += paced
        if reason:
            reasons[reason] += 1
            continue
        unexplained += 1
        expiry["unexplained"] += paced
        print(f"UNEXPLAINED difference [{profile}] {name} line {number}:")
        print(f"  input:    {line}")
        print(f"  nssim:    {json.dumps(ours, sort_keys=True)}")
        print(f"  upstream: {json.dumps(theirs, sort_keys=True)}")
    for reason, count in sorted(reasons.items()):
        print(f"allowed {count}: {reason}")
    for reason, count in sorted(skipped.items()):
        print(f"skipped {count}: {reason}")
    if expiry["sequences"]:
        print(f"expiry in real time: {expiry['sequences']} sequences tried, "
              f"{expiry['compared']} answers compared ({expiry['scans']} scans, which removed "
              f"{expiry['removed']} brokers in nssim), {expiry['differences']} differences "
              f"({expiry['unexplained']} unexplained), latest line done {expiry['latest_ms']} ms "
              f"late")
    print(f"upstream differential: {sequences} sequences tried, {compared} answers compared, "
          f"{len(differences)} differences ({len(differences) - unexplained} allowed, "
          f"{unexplained} unexplained) in {time.time() - started:.0f} s")
    if expiry["sequences"] and expiry["late"] == expiry["sequences"]:
        print("upstream differential: every session in real time ran late: none was compared")
        return 1
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
