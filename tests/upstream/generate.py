#!/usr/bin/env python3
"""Random but valid NameServer request sequences in nssim's replay format (docs/replay.md),
deterministic from a seed: broker masters and slaves of several groups and clusters registering
with data-version changes and topic changes, unregistering and closing their connections (and
coming back on a new one), topic admin and permission operations, KV operations, and the
queries that show the tables. The clock stays below the 120 s broker expiry and no scan is
written, so a real NameServer, which expires on its own clock, sees the same session.

usage: generate.py SEED [4.9|5.x]   (prints one session)
"""
import json
import random
import sys
import zlib

CLUSTERS = ["DefaultCluster", "OtherCluster"]
NAMESPACES = ["ns-a", "ns-b", "ORDER_TOPIC_CONFIG"]


def raw(body):
    """The body's raw bytes as docs/replay.md defines them: the compact dump, keys sorted."""
    return json.dumps(body, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def crc32(body):
    return str(zlib.crc32(raw(body).encode()) & 0x7FFFFFFF)  # UtilAll#crc32 masks the top bit


def registration(header, data_version, broker):
    """REGISTER_BROKER's extFields (header plus haServerAddr, compressed, bodyCrc32) and body
    for the broker's topics now."""
    body = {"topicConfigSerializeWrapper": {"topicConfigTable": dict(broker.topics),
                                            "dataVersion": data_version},
            "filterServerList": []}
    ext = dict(header)
    ext.update({"haServerAddr": broker.addr.replace(":10911", ":10912"),
                "compressed": "false", "bodyCrc32": crc32(body)})
    return ext, body


class Broker:
    def __init__(self, group, broker_id, cluster):
        self.name = f"broker-{group}"
        self.id = broker_id
        self.cluster = cluster
        self.addr = f"10.0.{group}.{broker_id + 1}:10911"
        self.connection = 0
        self.counter = 1
        self.topics = {}

    def channel(self):
        return f"{self.name}-{self.id}-c{self.connection}"


class Session:
    def __init__(self, seed, profile):
        self.rng = random.Random(seed)
        self.profile = profile
        self.at_ms = 0
        self.lines = []
        groups = self.rng.randint(2, 5)
        self.topics = [f"Topic{k}" for k in range(self.rng.randint(3, 30))]
        self.brokers = []
        for group in range(groups):
            cluster = self.rng.choice(CLUSTERS)
            for broker_id in range(self.rng.choice([1, 1, 2])):
                broker = Broker(group, broker_id, cluster)
                for topic in self.rng.sample(self.topics, self.rng.randint(1, len(self.topics))):
                    broker.topics[topic] = self.topic_config(topic)
                self.brokers.append(broker)

    def topic_config(self, topic):
        queues = self.rng.choice([1, 2, 4, 8, 16])
        config = {"topicName": topic, "readQueueNums": queues, "writeQueueNums": queues,
                  "perm": self.rng.choice([6, 6, 6, 2, 4, 7]), "topicFilterType": "SINGLE_TAG",
                  "topicSysFlag": 0, "order": False}
        if self.profile == "5.x":
            config["attributes"] = {}
        return config

    def emit(self, code, channel, ext=None, body=None):
        self.at_ms += self.rng.randint(1, 200)
        line = {"at_ms": self.at_ms, "code": code, "channel": channel, "extFields": ext or {}}
        if body is not None:
            line["body"] = body
        self.lines.append(json.dumps(line, separators=(",", ":")))

    def broker_header(self, broker):
        return {"brokerName": broker.name, "brokerAddr": broker.addr,
                "clusterName": broker.cluster, "brokerId": str(broker.id)}

    def data_version(self, broker):
        version = {"timestamp": 1717000000000 + broker.counter, "counter": broker.counter}
        if self.profile == "5.x":
            version["stateVersion"] = 0
        return version

    # --- the operations ---

    def register(self, broker=None):
        broker = broker or self.rng.choice(self.brokers)
        if self.rng.random() < 0.4:  # the broker's topics changed: a new data version
            broker.counter += 1
            topic = self.rng.choice(self.topics)
            if topic in broker.topics and self.rng.random() < 0.5:
                del broker.topics[topic]
            else:
                broker.topics[topic] = self.topic_config(topic)
        ext, body = registration(self.broker_header(broker), self.data_version(broker), broker)
        if self.profile == "5.x":
            ext["enableActingMaster"] = "false"
        self.emit(103, broker.channel(), ext, body)

    def unregister(self):
        broker = self.rng.choice(self.brokers)
        self.emit(104, broker.channel(), self.broker_header(broker))

    def close(self):
        broker = self.rng.choice(self.brokers)
        self.at_ms += self.rng.randint(1, 200)
        self.lines.append(json.dumps({"at_ms": self.at_ms, "event": "close",
                                      "channel": broker.channel()}, separators=(",", ":")))
        broker.connection += 1  # it comes back on a new connection

    def query_data_version(self):
        broker = self.rng.choice(self.brokers)
        self.emit(322, broker.channel(), self.broker_header(broker), self.data_version(broker))

    def route(self):
        topic = self.rng.choice(self.topics + ["NoSuchTopic"])
        self.emit(105, "producer", {"topic": topic})

    def cluster_info(self):
        self.emit(106, "admin")

    def perm(self):
        code = self.rng.choice([205, 327])  # WIPE_WRITE_PERM_OF_BROKER, ADD_WRITE_PERM_OF_BROKER
        self.emit(code, "admin", {"brokerName": self.rng.choice(self.brokers).name})

    def topic_lists(self):
        choice = self.rng.choice(["all", "cluster", "system"])
        if choice == "all":
            self.emit(206, "admin")
        elif choice == "cluster":
            self.emit(224, "admin", {"cluster": self.rng.choice(CLUSTERS)})
        else:
            self.emit(304, "admin")

    def delete_topic(self):
        ext = {"topic": self.rng.choice(self.topics)}
        if self.rng.random() < 0.5:
            ext["clusterName"] = self.rng.choice(CLUSTERS)
        self.emit(216, "admin", ext)

    def register_topic(self):  # REGISTER_TOPIC_IN_NAMESRV, 5.x only
        names = sorted({b.name for b in self.brokers})
        queue_datas = [{"brokerName": name, "readQueueNums": 4, "writeQueueNums": 4, "perm": 6,
                        "topicSysFlag": 0}
                       for name in self.rng.sample(names, self.rng.randint(1, len(names)))]
        self.emit(217, "admin", {"topic": self.rng.choice(self.topics)},
                  {"queueDatas": queue_datas})

    def kv(self):
        namespace = self.rng.choice(NAMESPACES)
        key = self.rng.choice(self.topics[:4])
        op = self.rng.choice(["put", "put", "get", "delete", "list"])
        if op == "put":
            value = self.rng.choice(["broker-0:4", "broker-1:8;broker-0:4", "v"])
            self.emit(100, "admin", {"namespace": namespace, "key": key, "value": value})
        elif op == "get":
            self.emit(101, "admin", {"namespace": namespace, "key": key})
        elif op == "delete":
            self.emit(102, "admin", {"namespace": namespace, "key": key})
        else:
            self.emit(219, "admin", {"namespace": namespace})

    def build(self):
        operations = [(self.register, 6), (self.unregister, 1), (self.close, 1),
                      (self.query_data_version, 2), (self.route, 4), (self.cluster_info, 1),
                      (self.perm, 2), (self.topic_lists, 2), (self.delete_topic, 1),
                      (self.kv, 3)]
        if self.profile == "5.x":
            operations.append((self.register_topic, 1))
        functions = [f for f, _ in operations]
        weights = [w for _, w in operations]
        for broker in self.rng.sample(self.brokers, len(self.brokers)):  # each registers first
            self.register(broker)
        for _ in range(self.rng.randint(15, 60)):
            self.rng.choices(functions, weights)[0]()
        self.route()
        self.cluster_info()
        return "".join(line + "\n" for line in self.lines)


def session(seed, profile):
    return Session(seed, profile).build()


if __name__ == "__main__":
    sys.stdout.write(session(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "5.x"))
