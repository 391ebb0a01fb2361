// File: broker_clients_json (see broker_clients_analysis.h).
#include "sim/analysis/broker_clients_analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "common/invariant.h"
#include "sim/analysis/distribution.h"
#include "sim/broker/client_tables.h"

namespace nssim::sim {

namespace broker_clients_parts {  // named: a unity batch shares file scope

using nlohmann::json;

// Why an entry left a broker's producer table.
enum class Removal { kScanExpiry, kChannelClose, kIdle, kRestart };
constexpr std::array<const char*, 4> kRemovalNames = {"scan_expiry", "channel_close", "idle",
                                                      "restart"};

struct BrokerFigures {
  std::string node;
  std::int64_t heartbeats_processed = 0;
  std::int64_t channels_at_end = 0;
  std::array<std::int64_t, kRemovalNames.size()> removals{};
  std::int64_t removal_total() const {
    std::int64_t total = 0;
    for (const std::int64_t count : removals) total += count;
    return total;
  }
};

// One client channel whose heartbeats one broker incarnation processed.
struct ClientChannel {
  const std::string* client = nullptr;
  const std::set<std::string>* groups = nullptr;  // the producer groups of its instance
  std::optional<NodeId> client_node;
  const ChannelHeartbeats* beats = nullptr;
};

// What the broker meets of a channel, in this order at one instant (the scan comes after them:
// a heartbeat read at the scan's instant refreshes the entry first).
enum class Step { kHeartbeat, kClose, kIdle };
struct Change {
  std::int64_t t_ms = 0;
  Step step = Step::kHeartbeat;
  std::size_t channel = 0;
  bool stretch_begins = false;
  bool stretch_ends = false;
  bool operator<(const Change& other) const {
    return std::tie(t_ms, step, channel) < std::tie(other.t_ms, other.step, other.channel);
  }
};

// The instant the FIN of the client's close is processed by incarnation `epoch` of `broker`: sent
// at closed_ms if it can cross then (a FIN lost to a partition is not retransmitted, as in
// NetworkHistory::client_sees_close), taken when the incarnation runs.
std::optional<std::int64_t> fin_processed(const NetworkHistory& network, NodeId client,
                                          NodeId broker, std::uint32_t epoch,
                                          std::int64_t closed_ms, std::int64_t until_ms) {
  if (network.deliver(client, broker, epoch, closed_ms) != Delivery::kDelivered) {
    return std::nullopt;
  }
  return network.request_arrival(client, broker, epoch, closed_ms, until_ms);
}

// What one incarnation's tables went through, from started_ms until it ended (ended_ms) or the
// run did (end_ms), into `figures` and `scan_delays`.
//
// Traffic: the broker's idle timer is fed by the channel's heartbeats only. Sends on the same
// channel would feed it too, but a send reaches a broker the heartbeats cannot reach only while
// the scheduler thread is held so long that no heartbeat comes for 120 s, which this leaves out.
// A paused broker's scans and idle timer are taken at their instants (its reads wait for the
// resume, as NetworkHistory::request_arrival says): the bunching of the late runs is left out.
void replay_incarnation(const std::vector<ClientChannel>& channels, const NetworkHistory& network,
                        NodeId broker, std::uint32_t epoch, std::int64_t started_ms,
                        std::optional<std::int64_t> ended_ms, std::int64_t end_ms,
                        BrokerFigures& figures, std::vector<std::int64_t>& scan_delays) {
  const std::int64_t horizon = ended_ms ? std::min(*ended_ms, end_ms) : end_ms;
  const auto in_time = [&](std::int64_t t) { return ended_ms ? t < *ended_ms : t <= end_ms; };
  std::vector<Change> changes;
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const ChannelHeartbeats& beats = *channels[c].beats;
    figures.heartbeats_processed += beats.processed;
    const auto& stretches = beats.stretches;
    std::optional<std::int64_t> fin;
    if (beats.closed_ms && channels[c].client_node) {
      fin = fin_processed(network, *channels[c].client_node, broker, epoch, *beats.closed_ms,
                          horizon);
      if (fin) changes.push_back({*fin, Step::kClose, c});
    }
    for (std::size_t s = 0; s < stretches.size(); ++s) {
      const auto& [first, last] = stretches[s];
      changes.push_back({first, Step::kHeartbeat, c, true, first == last});
      if (last != first) changes.push_back({last, Step::kHeartbeat, c, false, true});
      // IdleStateHandler(0, 0, serverChannelMaxIdleTimeSeconds): ALL_IDLE once that long passed
      // since the last read or write (the heartbeat's response, written when it is processed),
      // unless the next heartbeat's read comes first.
      const std::int64_t idle = last + kServerChannelMaxIdleTimeSeconds * 1000;
      if (s + 1 == stretches.size() || stretches[s + 1].first_ms > idle) {
        changes.push_back({idle, Step::kIdle, c});
      }
    }
  }
  std::sort(changes.begin(), changes.end());

  BrokerClientTables tables;
  // Per channel: its broker-side channel now, and whether the broker closed that one (idle,
  // scan). Deviation: the client model does not see a close by the broker, so its next
  // heartbeat on the channel is taken as the one the reconnected channel carries (upstream:
  // channelInactive, and getAndCreateChannel connects anew, one round trip before it).
  std::vector<BrokerChannel> ids(channels.size());
  std::vector<bool> closed_by_broker(channels.size(), false);
  std::map<BrokerChannel, std::size_t> owner;
  BrokerChannel next_id = 0;
  for (std::size_t c = 0; c < channels.size(); ++c) owner[ids[c] = ++next_id] = c;
  // Channels between the first and the last heartbeat of a stretch: their entry's
  // lastUpdateTimestamp is not kept there, but is within kChannelExpiredTimeoutMs of every
  // instant of the stretch, so a scan there keeps it whatever it is; the replay stands it in
  // with the scan's own instant.
  std::set<std::size_t> inside;
  const auto drop_channel = [&](std::size_t c, Removal cause) {
    const auto removed = tables.on_channel_close(ids[c]);
    figures.removals[static_cast<std::size_t>(cause)] += static_cast<std::int64_t>(removed.size());
    if (cause == Removal::kIdle) closed_by_broker[c] = true;
  };
  const auto scan = [&](std::int64_t t) {
    for (const std::size_t c : inside) {
      tables.heart_beat({*channels[c].client, {}, *channels[c].groups}, ids[c], t);
    }
    for (const RemovedChannel& removed : tables.scan_exception_channel(t)) {
      ++figures.removals[static_cast<std::size_t>(Removal::kScanExpiry)];
      scan_delays.push_back(t - removed.info.last_update_ms);
      closed_by_broker[owner.at(removed.channel)] = true;  // RemotingUtil.closeChannel
    }
  };
  std::int64_t k = 0;
  for (const Change& change : changes) {
    if (!in_time(change.t_ms)) break;
    for (; housekeeping_scan_at(started_ms, k) < change.t_ms; ++k) {
      scan(housekeeping_scan_at(started_ms, k));
    }
    const std::size_t c = change.channel;
    switch (change.step) {
      case Step::kHeartbeat:
        if (closed_by_broker[c]) {
          owner[ids[c] = ++next_id] = c;
          closed_by_broker[c] = false;
        }
        // ClientManageProcessor#heartBeat with its instance's producer groups. The heartbeat also
        // carries CLIENT_INNER_PRODUCER (MQClientInstance's inner producer, in producerTable), on
        // the same channel at the same instant: its entries would mirror the group's one for one,
        // so the replay leaves it out rather than count every entry twice.
        tables.heart_beat({*channels[c].client, {}, *channels[c].groups}, ids[c], change.t_ms);
        if (change.stretch_ends) {
          inside.erase(c);
        } else if (change.stretch_begins) {
          inside.insert(c);
        }
        break;
      case Step::kClose:
        drop_channel(c, Removal::kChannelClose);
        break;
      case Step::kIdle:
        if (!closed_by_broker[c]) drop_channel(c, Removal::kIdle);
        break;
    }
  }
  for (; in_time(housekeeping_scan_at(started_ms, k)); ++k)
    scan(housekeeping_scan_at(started_ms, k));
  const auto left = static_cast<std::int64_t>(tables.producers.entry_count());
  if (ended_ms && *ended_ms <= end_ms) {
    // The tables live in memory: the incarnation's end takes every entry with it.
    figures.removals[static_cast<std::size_t>(Removal::kRestart)] += left;
  } else {
    figures.channels_at_end += left;
  }
}

json removals_json(const std::array<std::int64_t, kRemovalNames.size()>& removals) {
  json out = json::object();
  for (std::size_t r = 0; r < kRemovalNames.size(); ++r) out[kRemovalNames[r]] = removals[r];
  return out;
}

json broker_json(const BrokerFigures& broker) {
  return {{"node", broker.node},
          {"heartbeats_processed", broker.heartbeats_processed},
          {"producer_channels_at_end", broker.channels_at_end},
          {"removals", removals_json(broker.removals)}};
}

}  // namespace broker_clients_parts

std::optional<nlohmann::json> broker_clients_json(const Topology& topology,
                                                  const std::vector<Event>& events,
                                                  const NetworkHistory& network,
                                                  const SendStats& sends, std::int64_t end_ms) {
  using namespace broker_clients_parts;
  bool any_heartbeat = false;
  // (broker node, epoch) -> the client channels it processed heartbeats of.
  std::map<std::pair<NodeId, std::uint32_t>, std::vector<ClientChannel>> by_incarnation;
  for (const auto& [client, schedule] : sends.schedules()) {
    any_heartbeat = any_heartbeat || !schedule.heartbeats.empty();
    const std::set<std::string>& groups = sends.producer_groups().at(client);
    std::optional<NodeId> client_node;
    if (const auto found = topology.by_name.find(client); found != topology.by_name.end()) {
      client_node = found->second;
    }
    for (const auto& [handle, beats] : schedule.channels) {
      if (beats.stretches.empty()) continue;  // closed before any heartbeat reached it
      const NodeId broker = topology.broker_addresses.at(beats.address);
      const std::uint32_t epoch = network.state_at(broker, beats.stretches.front().first_ms).epoch;
      by_incarnation[{broker, epoch}].push_back({&client, &groups, client_node, &beats});
    }
  }
  if (!any_heartbeat) return std::nullopt;
  std::map<std::pair<std::string, std::uint32_t>, std::int64_t> started;
  for (const Event& event : events) {
    if (event.kind == EventKind::kProcessStart) {
      started[{event.node, event.fields.at("epoch").get<std::uint32_t>()}] = event.t_ms;
    }
  }
  std::map<NodeId, BrokerFigures> brokers;
  std::vector<std::int64_t> scan_delays;
  for (const auto& [incarnation, channels] : by_incarnation) {
    const auto [broker, epoch] = incarnation;
    BrokerFigures& figures = brokers[broker];
    figures.node = topology.nodes[static_cast<std::size_t>(broker)].name;
    const auto start = started.find({figures.node, epoch});
    NSSIM_CHECK(start != started.end(), "a heartbeat processed by an incarnation never started");
    std::optional<std::int64_t> ended;
    if (const auto end = network.incarnation_end(broker, epoch)) ended = end->first;
    replay_incarnation(channels, network, broker, epoch, start->second, ended, end_ms, figures,
                       scan_delays);
  }
  BrokerFigures totals;
  std::vector<const BrokerFigures*> listed;
  for (const auto& [node, figures] : brokers) {
    totals.heartbeats_processed += figures.heartbeats_processed;
    totals.channels_at_end += figures.channels_at_end;
    for (std::size_t r = 0; r < kRemovalNames.size(); ++r) {
      totals.removals[r] += figures.removals[r];
    }
    listed.push_back(&figures);
  }
  std::sort(listed.begin(), listed.end(), [](const BrokerFigures* a, const BrokerFigures* b) {
    const std::int64_t ra = a->removal_total(), rb = b->removal_total();
    return ra != rb ? ra > rb : a->node < b->node;
  });
  if (listed.size() > kListedBrokers) listed.resize(kListedBrokers);
  json per_broker = json::array();
  for (const BrokerFigures* figures : listed) per_broker.push_back(broker_json(*figures));
  return json{{"brokers", brokers.size()},
              {"heartbeats_processed", totals.heartbeats_processed},
              {"producer_channels_at_end", totals.channels_at_end},
              {"removals", removals_json(totals.removals)},
              {"scan_expiry_delay_ms", distribution_json(std::move(scan_delays), 0)},
              {"per_broker", std::move(per_broker)}};
}

}  // namespace nssim::sim
