#!/usr/bin/env python3
"""Expiry sessions, replayed in real time against the real NameServer (docs/fidelity.md):
broker masters and slaves of several groups register with a short `heartbeatTimeoutMillis`
(5.x, REGISTER_BROKER's header) or without one (RouteInfoManager's 120 s), some are refreshed
before their deadline (a re-registration, QUERY_DATA_VERSION, 5.x's BROKER_HEARTBEAT) and some
not, some come back on a new connection after expiring, and routes, cluster info, topic lists
and member groups are asked after each expiry. Deterministic from a seed.

The lines come in bursts; each burst opens with a `scan` line. No line lies within MARGIN_MS
before a live broker's deadline, nor within the real NameServer's scan period plus MARGIN_MS
after it, so scheduling jitter cannot move a broker across its deadline: what the real
NameServer expired on its own clock before a burst is what nssim's scan at the burst's start
expires. 4.9 has no header and expires at a fixed 120 s, scanned every 10 s: its sessions
take about 2.5 minutes.

usage: generate_expiry.py SEED [5.x|4.9]   (prints one session, its NamesrvConfig on stderr)
"""
import json
import random
import sys

import generate
from generate import CLUSTERS

MARGIN_MS = 1000
# The longest a burst's lines span after its first line.
BURST_MS = 150
# NamesrvConfig#scanNotActiveBrokerInterval the 5.x sessions run with (default 5 s): the real
# NameServer removes an expired broker within this much after its deadline.
SCAN_INTERVAL_MS_5X = 100
# 4.9.7's NamesrvController#initialize scans every 10 s, fixed; its RouteInfoManager's
# BROKER_CHANNEL_EXPIRED_TIME is 120 s, as 5.3.3's DEFAULT_BROKER_CHANNEL_EXPIRED_TIME.
SCAN_PERIOD_MS_49 = 10000
DEFAULT_EXPIRY_MS = 120000

# Burst k starts at k * period. A deadline may only fall in a slot, from BURST_MS + MARGIN_MS
# after a burst's start to lag + MARGIN_MS before the next one's: 5.x aims each registration's
# heartbeatTimeoutMillis at a slot's centre; 4.9's period puts 120 s after a burst into a slot
# (120000 = 9 * 13200 + 1200). A refresh keeps the offset from a burst's start within BURST_MS,
# so its deadline stays in a slot. A burst holds `operations` operations besides its scan and
# its last route and cluster info, refreshes weighing `refresh` (4.9 refreshes seldom, or no
# broker would stay unrefreshed for the 120 s).
PROFILES = {
    "5.x": {"period": 2700, "lag": SCAN_INTERVAL_MS_5X, "bursts": (4, 6), "operations": (2, 8),
            "refresh": 3},
    "4.9": {"period": 13200, "lag": SCAN_PERIOD_MS_49, "bursts": (12, 13), "operations": (1, 4),
            "refresh": 0.5},
}


class Broker(generate.Broker):
    """generate.py's broker with the topics it registers and its liveness deadline."""

    def __init__(self, group, broker_id, cluster, topics):
        super().__init__(group, broker_id, cluster)
        self.topics = topics
        self.timeout = None  # the heartbeatTimeoutMillis header of its last registration
        self.deadline = None  # last refresh + its timeout, while it is in brokerLiveTable


class ExpirySession:
    def __init__(self, seed, profile):
        self.rng = random.Random(seed)
        self.profile = profile
        self.v5 = profile == "5.x"
        self.settings = PROFILES[profile]
        self.bursts = self.rng.randint(*self.settings["bursts"])
        self.burst_start = 0
        self.at_ms = 0
        self.lines = []
        self.topics = [f"Topic{k}" for k in range(self.rng.randint(4, 12))]
        self.acting_master = {}
        self.brokers = []
        for group in range(self.rng.randint(2, 4)):
            cluster = self.rng.choice(CLUSTERS)
            self.acting_master[f"broker-{group}"] = self.rng.random() < 0.5
            chosen = self.rng.sample(self.topics, self.rng.randint(2, len(self.topics)))
            topics = {topic: self.topic_config(topic) for topic in chosen}
            for broker_id in range(self.rng.choice([1, 2, 2, 3])):  # a master and its slaves
                self.brokers.append(Broker(group, broker_id, cluster, dict(topics)))

    def topic_config(self, topic):
        queues = self.rng.choice([1, 2, 4, 8])
        config = {"topicName": topic, "readQueueNums": queues, "writeQueueNums": queues,
                  "perm": self.rng.choice([6, 6, 6, 2, 4, 7]), "topicFilterType": "SINGLE_TAG",
                  "topicSysFlag": 0, "order": False}
        if self.v5:
            config["attributes"] = {}
        return config

    def config(self):
        """The NamesrvConfig both NameServers run the session with."""
        if not self.v5:
            return {}
        return {"scanNotActiveBrokerInterval": str(SCAN_INTERVAL_MS_5X),
                "supportActingMaster": self.rng.choice(["true", "false"])}

    def alive(self):
        return [b for b in self.brokers if b.deadline is not None]

    # --- the clock ---

    def slot_centre(self, burst):
        """The middle of the slot after burst `burst`, where a deadline may fall."""
        first = BURST_MS + MARGIN_MS
        last = self.settings["period"] - self.settings["lag"] - MARGIN_MS
        return burst * self.settings["period"] + (first + last) // 2

    def expiry_ms(self, broker):
        if self.v5 and broker.timeout is not None:
            return broker.timeout
        return DEFAULT_EXPIRY_MS

    def emit(self, line):
        assert self.at_ms <= self.burst_start + BURST_MS, "a burst outgrew BURST_MS"
        for broker in self.alive():  # the margin every line keeps from every deadline
            assert not (broker.deadline - MARGIN_MS < self.at_ms
                        < broker.deadline + self.settings["lag"] + MARGIN_MS), (broker.name, line)
        self.lines.append(json.dumps(dict(line, at_ms=self.at_ms), separators=(",", ":")))
        self.at_ms += self.rng.randint(1, 10)

    def request(self, code, channel, ext=None, body=None):
        line = {"code": code, "channel": channel, "extFields": ext or {}}
        if body is not None:
            line["body"] = body
        self.emit(line)

    # --- the operations ---

    def broker_header(self, broker):
        return {"brokerName": broker.name, "brokerAddr": broker.addr,
                "clusterName": broker.cluster, "brokerId": str(broker.id)}

    def data_version(self, broker):
        version = {"timestamp": 1717000000000 + broker.counter, "counter": broker.counter}
        if self.v5:
            version["stateVersion"] = 0
        return version

    def choose_timeout(self):
        """heartbeatTimeoutMillis for a registration now: a deadline in this burst's slot or a
        later one, or none (120 s). 4.9 ignores the header."""
        if self.rng.random() < 0.25:
            return None
        burst = self.burst_start // self.settings["period"]
        return self.slot_centre(burst + self.rng.choice([0, 0, 1, 1, 2])) - self.at_ms

    def register(self, broker):
        if broker.deadline is None or self.rng.random() < 0.2:
            broker.timeout = self.choose_timeout()
        if self.rng.random() < 0.3:  # the broker's topics changed: a new data version
            broker.counter += 1
            topic = self.rng.choice(self.topics)
            if topic in broker.topics and len(broker.topics) > 2:
                del broker.topics[topic]  # a first registration with one topic is refused (5.x)
            else:
                broker.topics[topic] = self.topic_config(topic)
        ext, body = generate.registration(self.broker_header(broker), self.data_version(broker),
                                          broker)
        if broker.timeout is not None:
            ext["heartbeatTimeoutMillis"] = str(broker.timeout)
        if self.v5:
            ext["enableActingMaster"] = "true" if self.acting_master[broker.name] else "false"
        self.request(103, broker.channel(), ext, body)
        broker.deadline = self.lines_at() + self.expiry_ms(broker)

    def lines_at(self):
        return json.loads(self.lines[-1])["at_ms"]

    def refresh(self, broker):
        """QUERY_DATA_VERSION or BROKER_HEARTBEAT: updateBrokerInfoUpdateTimestamp."""
        if self.v5 and self.rng.random() < 0.5:
            ext = self.broker_header(broker)
            del ext["brokerId"]
            self.request(904, broker.channel(), ext)
        else:
            self.request(322, broker.channel(), self.broker_header(broker),
                         self.data_version(broker))
        if broker.deadline is not None:
            broker.deadline = self.lines_at() + self.expiry_ms(broker)

    def unregister(self, broker):
        self.request(104, broker.channel(), self.broker_header(broker))
        broker.deadline = None

    def close(self, broker):
        self.emit({"event": "close", "channel": broker.channel()})
        broker.deadline = None
        broker.connection += 1  # it comes back on a new connection

    def scan(self):
        for broker in self.alive():
            if broker.deadline < self.at_ms:
                # The real NameServer closed its connection (RemotingHelper#closeChannel).
                broker.deadline = None
                broker.connection += 1
        self.emit({"event": "scan"})

    def route(self):
        self.request(105, "producer", {"topic": self.rng.choice(self.topics + ["NoSuchTopic"])})

    def cluster_info(self):
        self.request(106, "admin")

    def topic_lists(self):
        choice = self.rng.choice(["all", "cluster", "system"])
        if choice == "all":
            self.request(206, "admin")
        elif choice == "cluster":
            self.request(224, "admin", {"cluster": self.rng.choice(CLUSTERS)})
        else:
            self.request(304, "admin")

    def member_group(self):  # GET_BROKER_MEMBER_GROUP, 5.x only
        broker = self.rng.choice(self.brokers)
        self.request(901, "admin", {"clusterName": broker.cluster, "brokerName": broker.name})

    def perm(self):
        code = self.rng.choice([205, 327])  # WIPE_WRITE_PERM_OF_BROKER, ADD_WRITE_PERM_OF_BROKER
        self.request(code, "admin", {"brokerName": self.rng.choice(self.brokers).name})

    def operation(self):
        alive = self.alive()
        gone = [b for b in self.brokers if b.deadline is None]
        operations = [(self.route, 3), (self.cluster_info, 1), (self.topic_lists, 1),
                      (self.perm, 1)]
        if self.v5:
            operations.append((self.member_group, 1))
        refresh = self.settings["refresh"]
        if alive:
            operations += [(lambda: self.register(self.rng.choice(alive)), refresh),
                           (lambda: self.refresh(self.rng.choice(alive)), refresh),
                           (lambda: self.unregister(self.rng.choice(alive)), 0.3),
                           (lambda: self.close(self.rng.choice(alive)), 0.3)]
        if gone:  # back on a new connection, or a refresh that finds no live entry
            operations += [(lambda: self.register(self.rng.choice(gone)), 2),
                           (lambda: self.refresh(self.rng.choice(gone)), 0.5)]
        self.rng.choices([f for f, _ in operations], [w for _, w in operations])[0]()

    def build(self):
        for broker in self.rng.sample(self.brokers, len(self.brokers)):  # each registers first
            self.register(broker)
        self.cluster_info()
        for burst in range(1, self.bursts):
            self.at_ms = self.burst_start = burst * self.settings["period"]
            self.scan()
            for _ in range(self.rng.randint(*self.settings["operations"])):
                self.operation()
            self.route()
            self.cluster_info()
        self.topic_lists()
        return "".join(line + "\n" for line in self.lines)


def session(seed, profile):
    """(the session's JSON Lines, the NamesrvConfig both sides run it with)"""
    generated = ExpirySession(seed, profile)
    config = generated.config()
    return generated.build(), config


if __name__ == "__main__":
    text, settings = session(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "5.x")
    sys.stdout.write(text)
    sys.stderr.write("".join(f"{key}={value}\n" for key, value in settings.items()))
