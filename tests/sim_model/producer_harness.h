// Test-only harness for ProducerModel: a scripted NetworkHistory with one producer, broker groups
// "broker-a", "broker-b" (masters "broker-a-0"... at "broker-a:10911") and NameServers "ns-0"...,
// a hand-built RouteHistory and the client's NameServer state as it starts for the route queries, a
// recorder of what the model reports (and an event log), and queries over the recorded sends.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "route_fixtures.h"
#include "sim/client/producer_model.h"
#include "sim/network/network_history.h"

namespace nssim::sim::testing {

inline constexpr const char* kTopic = "TopicTest";

struct Recorder : ProducerObserver {
  void on_send(const SendRecord& record) override { sends.push_back(record); }
  void on_publish_info(const std::string& topic, std::int64_t t_ms,
                       const std::set<std::string>& brokers) override {
    publish.emplace_back(topic, t_ms, brokers);
  }
  void on_route_update(const RouteUpdate& update) override { route_updates.push_back(update); }
  void on_scheduled_run(const ScheduledRun& run) override { runs.push_back(run); }
  void on_heartbeat(const HeartbeatRecord& heartbeat) override { heartbeats.push_back(heartbeat); }
  void on_advanced(std::int64_t frontier_ms) override { frontiers.push_back(frontier_ms); }
  std::vector<SendRecord> sends;
  std::vector<ScheduledRun> runs;
  std::vector<HeartbeatRecord> heartbeats;  // names: views of the model's strings
  std::vector<std::tuple<std::string, std::int64_t, std::set<std::string>>> publish;
  std::vector<RouteUpdate> route_updates;
  std::vector<std::int64_t> frontiers;  // one per advance_to
};

struct Harness {
  // `more_topics`: topics the NameServers may route besides kTopic (and TBW102).
  explicit Harness(core::Profile profile_in,
                   std::vector<std::string> groups = {"broker-a", "broker-b"},
                   int nameserver_count = 1, std::vector<std::string> more_topics = {})
      : profile(profile_in), routes(topics_with(std::move(more_topics))) {
    producer = net.add_node("producer-0", 0.5);
    net.start_process(producer, 0);
    for (int i = 0; i < nameserver_count; ++i) {
      const NodeId node = net.add_node("ns-" + std::to_string(i), 0.5);
      net.start_process(node, 0);
      nameservers.push_back(node);
    }
    Rng rng(1);
    client.emplace(NameServerClient{NameServerSelector(nameservers, rng), {}});
    std::vector<GroupSpec> specs;
    for (const auto& group : groups) {
      const NodeId node = net.add_node(group + "-0", 0.5);
      net.start_process(node, 0);
      broker[group] = node;
      book[group + ":10911"] = node;
      specs.push_back(GroupSpec{group, 4});
    }
    route = route_of(specs);
    spec.topics = {kTopic};
    spec.rate_per_s = 10.0;
  }

  // Builds the model, starting at start_ms, and gives it the route 1 ms before its first send
  // (unless `with_route` is false), as a poll answered before the first send would. Its own
  // scheduler thread (route poll, heartbeats) runs only if the test starts it
  // (start_scheduled_task).
  ProducerModel& start(std::int64_t start_ms = 1000, bool with_route = true,
                       std::uint64_t seed = 7) {
    model = std::make_unique<ProducerModel>(
        spec, profile, producer, "producer-0", net, book, RouteQuerySources{routes, *client, &log},
        Rng::derive(seed, "producer/producer-0"), recorder, start_ms);
    if (with_route) model->on_route(kTopic, route, start_ms - 1);
    return *model;
  }

  // Route answers every 30 s in [from_ms, to_ms), as a poll would deliver them.
  void poll(std::int64_t from_ms, std::int64_t to_ms,
            const std::optional<core::TopicRouteData>& answer) {
    for (std::int64_t t = from_ms; t < to_ms; t += 30000) model->on_route(kTopic, answer, t);
  }

  // What NameServer `ns` answers for `topic` from t_ms on (nullopt: TOPIC_NOT_EXIST).
  void answers(std::size_t ns, const std::optional<core::TopicRouteData>& answer, std::int64_t t_ms,
               const std::string& topic = kTopic) {
    routes.record(nameservers.at(ns), *routes.topic_index(topic), answer, t_ms);
  }

  // The client starts with NameServer `ns` chosen (its selector moved on until it was) and, if
  // `connected`, a channel open to its incarnation at 0 since 0.
  void client_uses(std::size_t ns, bool connected = true) {
    NameServerSelector& selector = client->selector;
    while (selector.chosen() != nameservers.at(ns)) selector.choose([](NodeId) { return false; });
    if (connected) {
      client->channels[nameservers.at(ns)] =
          NameServerClient::Channel{0, net.state_at(nameservers.at(ns), 0).epoch};
    }
  }

  std::vector<SendRecord> failed(std::int64_t from_ms = INT64_MIN,
                                 std::int64_t to_ms = INT64_MAX) const {
    std::vector<SendRecord> out;
    for (const auto& s : recorder.sends) {
      if (s.cause != SendCause::kOk && s.start_ms >= from_ms && s.start_ms < to_ms) {
        out.push_back(s);
      }
    }
    return out;
  }

  std::size_t started(std::int64_t from_ms, std::int64_t to_ms) const {
    std::size_t n = 0;
    for (const auto& s : recorder.sends) n += s.start_ms >= from_ms && s.start_ms < to_ms;
    return n;
  }

  static std::vector<std::string> topics_with(std::vector<std::string> more) {
    more.insert(more.begin(), {kTopic, kAutoCreateTopicKeyTopic});
    return more;
  }

  core::Profile profile;
  NetworkHistory net;
  NodeId producer = 0;
  std::map<std::string, NodeId> broker;
  AddressBook book;
  std::vector<NodeId> nameservers;
  RouteHistory routes;
  std::optional<NameServerClient> client;
  EventLog log;
  core::TopicRouteData route;
  ProducerSpec spec;
  Recorder recorder;
  std::unique_ptr<ProducerModel> model;
};

inline constexpr core::Profile kProfiles[] = {core::Profile::kV4_9, core::Profile::kV5};

}  // namespace nssim::sim::testing
