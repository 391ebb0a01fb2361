// File: a client's NettyRemotingClient as the model keeps it: the channel table by broker address
// (channelTables), each channel's connect, the requests waiting for it and those in flight on it,
// invokeSync's budget check and exceptions judged against NetworkHistory, closeChannel, and what it
// holds of the NameServers (nameserver_client.h). State and rules only: whoever owns the requests
// (a producer's sends, later a consumer's pulls) schedules their ends, so every client of one
// MQClientInstance can share its channels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/invariant.h"
#include "nameserver_core/profile.h"
#include "sim/client/nameserver_client.h"
#include "sim/client/producer_ids.h"
#include "sim/network/network_history.h"
#include "sim/record/send_record.h"

namespace nssim::sim {

// A JVM timed wait that expires (connect timeout, request timeout) is seen by the next
// System.currentTimeMillis() at least this much after its deadline. Without it an attempt that
// used exactly the whole budget would pass sendDefaultImpl's strict `timeout < costTime` check and
// start a zero-budget attempt; with it the send ends in "call timeout", as the spec describes.
// Deviation: a real JVM sometimes sees 0 ms (3 of about 50 timeouts in a 4.9 pause run of
// scripts/calibrate.sh, docs/fidelity.md). That send's retry then waits 0 ms on the other broker,
// and its immediate timeout closes that broker's channel (clientCloseSocketIfTimeout), failing
// the sends just retried onto it. How often depends on the JVM's wake-up latency and the
// millisecond phase of the send's start, which the model's milliseconds do not have.
inline constexpr std::int64_t kTimedWaitOverrunMs = 1;

// Java: NettyRemotingClient (channelTables, getAndCreateChannel, invokeSync, closeChannel).
class NettyRemotingClient {
 public:
  // Java: NettyClientConfig, the two settings the model reads.
  struct Config {
    std::int64_t connect_timeout_millis = 0;
    bool client_close_socket_if_timeout = false;
  };
  struct Channel {
    std::uint32_t addr = 0;  // address id
    NodeId node = 0;
    bool connected = false;  // false: the connect is still running
    bool closed = false;     // out of the channel table; kept while requests are pending on it
    ConnectResult connect;   // the connect's outcome, known when it starts
    std::uint32_t epoch = 0;
    std::int64_t opened_ms = 0;
    std::vector<std::uint64_t> waiting;  // requests waiting for the connect, in order
    std::vector<std::uint64_t> pending;  // requests in flight on it, sorted
    // The requests' round trip while the network stays as it was (empty until a request finds it
    // steady): each request then costs a comparison instead of NetworkHistory's searches.
    SteadyRoundTrip steady;
    // The same for the heartbeats, apart: their request size is not the messages'.
    SteadyRoundTrip heartbeat_steady;
    bool steady_now(const NetworkHistory& history) const {
      return steady.change_count == history.change_count();
    }
    void add_pending(std::uint64_t request) {
      if (const auto p = std::lower_bound(pending.begin(), pending.end(), request);
          p == pending.end() || *p != request) {
        pending.insert(p, request);
      }
    }
    void remove_pending(std::uint64_t request) {
      if (const auto p = std::lower_bound(pending.begin(), pending.end(), request);
          p != pending.end() && *p == request) {
        pending.erase(p);
      }
    }
  };
  // How a sync request over an open channel ends: the instant the caller learns it, the cause
  // (kOk: answered), whether the caller closes the channel, and when the broker processed the
  // request, if it did (Exchange::processed_ms).
  struct InvokeResult {
    std::int64_t end_ms = 0;
    SendCause cause = SendCause::kOk;
    bool close = false;
    std::int64_t processed_ms = kNotProcessed;
    std::optional<std::int64_t> processed() const {
      return processed_ms == kNotProcessed ? std::nullopt : std::optional(processed_ms);
    }
  };
  // getAndCreateChannel's channel: `created` when its connect starts now (its end is the
  // owner's to schedule, at channel.connect.at_ms).
  struct ChannelPick {
    std::uint64_t id = 0;
    Channel* channel = nullptr;
    bool created = false;
  };

  NettyRemotingClient(core::Profile profile, NodeId self, const NetworkHistory& network,
                      const AddressBook& addresses, Config config, NameServerClient nameservers);

  // The small id of a broker address (NameIds), with its channel table entry.
  std::uint32_t address_id(const std::string& address);
  // The address of an id: a string that lives as long as the client.
  const std::string& address(std::uint32_t addr) const { return address_ids_.name(addr); }
  // Java: NettyRemotingClient#getAndCreateChannel / #createChannel for address id `addr`. A
  // channel whose FIN the client has received is inactive: it leaves the table then (4.9 runs no
  // failFast for it; 5.x's channelInactive does, which the requests' own plans already account
  // for), and a new one connects.
  // Inline: the send path's common case, an open channel on a steady network, is two look-ups.
  ChannelPick get_and_create_channel(std::uint32_t addr, std::int64_t t_ms) {
    if (const std::uint64_t existing = address_entries_[addr].channel; existing != 0) {
      Channel& channel = channel_at(existing);
      // A steady round trip means the incarnation is still running: no FIN to look for. A
      // connecting channel's waiter waits on the running connect's future (4.9 for at most
      // connectTimeoutMillis, which the running connect never exceeds).
      if (!channel.connected || channel.steady_now(network_)) return {existing, &channel, false};
    }
    return get_and_create_channel_slow(addr, t_ms);
  }
  // Java: NettyRemotingClient#invokeSync once it has a channel to incarnation `epoch` of `node`:
  // the budget check (begin_ms, timeout_ms), then invokeSyncImpl and its exceptions, for a
  // request of `bytes` sent at t_ms. `steady` (optional) is the channel's cached round trip, used
  // while valid and taken again when not.
  InvokeResult invoke_on_channel(NodeId node, std::uint32_t epoch, std::int64_t begin_ms,
                                 std::int64_t timeout_ms, std::int64_t t_ms, std::int64_t bytes,
                                 SteadyRoundTrip* steady = nullptr) const;
  // Java: NettyRemotingClient#closeChannel: the channel leaves the table (if it still holds it).
  // It lives on while requests are waiting or pending on it: the owner fails them fast or lets
  // them end, then calls forget_channel_if_idle.
  void close_channel(std::uint64_t channel_id);
  void forget_channel_if_idle(std::uint64_t channel_id) {
    const Channel* channel = channels_.find(channel_id);
    if (channel != nullptr && channel->closed && channel->pending.empty() &&
        channel->waiting.empty()) {
      channels_.erase(channel_id);
    }
  }
  Channel* find_channel(std::uint64_t channel_id) { return channels_.find(channel_id); }
  Channel& channel_at(std::uint64_t channel_id) {
    Channel* channel = channels_.find(channel_id);
    NSSIM_CHECK(channel != nullptr, "unknown channel");
    return *channel;
  }

  // The incarnation the client's channel to `nameserver` is open to at t_ms, if it is usable.
  std::optional<std::uint32_t> open_nameserver_channel(NodeId nameserver, std::int64_t t_ms) const;
  NameServerClient& nameservers() { return nameservers_; }
  // Java: NettyRemotingClient#createChannel's connect to a NameServer, as to a broker.
  ConnectResult connect(NodeId node, std::int64_t t_ms) const;

 private:
  // By address id: the channel table's entry (a SlotTable handle, 0: none) and the address's
  // node, resolved on its first connect.
  struct AddressEntry {
    std::uint64_t channel = 0;
    std::optional<NodeId> node;
  };
  NodeId node_of(std::uint32_t addr);
  // The rest of get_and_create_channel: a channel that may have seen its FIN, or none.
  ChannelPick get_and_create_channel_slow(std::uint32_t addr, std::int64_t t_ms);

  core::Profile profile_;
  NodeId self_;
  const NetworkHistory& network_;
  const AddressBook& addresses_;
  Config config_;
  NameIds address_ids_;
  std::vector<AddressEntry> address_entries_;
  SlotTable<Channel> channels_;
  NameServerClient nameservers_;
};

}  // namespace nssim::sim
