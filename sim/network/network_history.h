// File: the state of every simulated host, process and path over time, and the transport rules
// derived from it (TCP connect, request over an open connection, FIN/RST). It is pure: the
// SimGrid network layer records changes here as they happen and asks it what a message meets;
// producers ask it about past instants to evaluate sends without one SimGrid communication each.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nssim::sim {

using NodeId = int;

// Where each broker address lives in the simulated network.
using AddressBook = std::map<std::string, NodeId>;

enum class ProcessState { kDown, kUp, kPaused };

// How a process went down, which decides what its peers see.
enum class DownKind {
  kNone,      // never went down (or is up)
  kCrash,     // kill -9 / crash: the kernel sends FIN/RST on every connection
  kShutdown,  // clean stop: connections closed with FIN
  kPoweroff,  // host lost: nothing is sent; peers keep half-open connections
};

struct NodeState {
  bool host_up = true;
  ProcessState process = ProcessState::kDown;  // down until the node's start offset
  std::uint32_t epoch = 0;                     // +1 at every process start (an incarnation)
  DownKind down_kind = DownKind::kNone;        // how the current incarnation ended, if it did
  double latency_ms = 0.5;                     // access-link latency
  double bandwidth_mbps = 1000.0;              // access-link bandwidth
};

// What a single transport step meets.
enum class Delivery {
  kDelivered,  // the peer's process (of the expected incarnation) receives it
  kDropped,    // silently lost: the sender learns only by its own timeout
  kRefused,    // connection refused / reset: the sender learns after one round trip
};

// A TCP connect as the client sees it: the answer (kDelivered = SYN-ACK, kRefused = RST) and the
// instant it reaches the client, or kDropped at the connect deadline.
struct ConnectResult {
  Delivery outcome = Delivery::kDropped;
  std::int64_t at_ms = 0;
  std::uint32_t epoch = 0;  // kDelivered: the incarnation whose kernel accepted it
};

// How a request over an open connection ends, as the client sees it.
enum class ExchangeOutcome {
  kAnswered,  // the response arrives
  kReset,     // an RST arrives (the incarnation is gone, or it died with the request unread)
  kClosed,    // the incarnation's FIN arrives first, with the request still unanswered
  kSilent,    // nothing by the deadline
};

// Exchange::processed_ms of a request the server did not process by the deadline.
inline constexpr std::int64_t kNotProcessed = std::numeric_limits<std::int64_t>::min();

struct Exchange {
  ExchangeOutcome outcome = ExchangeOutcome::kSilent;
  std::int64_t at_ms = 0;  // when the client learns it (the deadline for kSilent)
  // When the server processed the request, if it did by the deadline (kAnswered always; kSilent
  // when only the response was lost or late), else kNotProcessed. A plain value, not an optional:
  // every send's attempt returns one, and copying a 16-byte optional that was just written in
  // two stores stalled on store forwarding there (docs/performance.md).
  std::int64_t processed_ms = kNotProcessed;
};

// Whether a request whose server processed it at processed_ms (or kNotProcessed) counts as
// processed for a caller whose call ended at end_ms. A call that ends earlier (failFast on a
// local close) counts its request unprocessed even though its bytes may still reach the server:
// the model does not follow a closed channel's data.
inline bool processed_by(std::int64_t processed_ms, std::int64_t end_ms) {
  return processed_ms != kNotProcessed && processed_ms <= end_ms;
}

// The round trip of a request over one connection while nothing about its two ends or the paths
// between them changes: what NetworkHistory::exchange gives in that case, kept by a caller that
// makes many requests over one connection (a producer's channel to a broker) so that each costs a
// comparison instead of the timeline searches. Valid while NetworkHistory::change_count() equals
// change_count, for requests of `bytes` to incarnation `epoch`, sent at or after the instant it was
// taken at.
struct SteadyRoundTrip {
  std::uint64_t change_count = 0;  // 0: none (the history's count starts at 1)
  std::uint32_t epoch = 0;
  std::int64_t bytes = 0;
  std::int64_t request_ms = 0;   // client to server, with the payload
  std::int64_t response_ms = 0;  // server to client, without one

  // exchange() of a request sent at sent_ms, answered unless a hop ends after deadline_ms.
  Exchange exchange(std::int64_t sent_ms, std::int64_t deadline_ms) const {
    const std::int64_t processed = sent_ms + request_ms;
    const std::int64_t answered = processed + response_ms;
    if (processed > deadline_ms) return Exchange{ExchangeOutcome::kSilent, deadline_ms};
    if (answered > deadline_ms) return Exchange{ExchangeOutcome::kSilent, deadline_ms, processed};
    return Exchange{ExchangeOutcome::kAnswered, answered, processed};
  }
};

// How long a SYN waits before it is sent again (Linux: initial RTO 1 s, doubled each time).
inline constexpr std::int64_t kSynRetransmitOffsetsMs[] = {0,     1000,  3000, 7000,
                                                           15000, 31000, 63000};

// Times are int64 milliseconds. A hop takes the sum of both ends' access-link latencies plus the
// payload over the slower of the two bandwidths, rounded up to a whole millisecond. Rules are
// evaluated at instants: a change at t applies from t on.
class NetworkHistory {
 public:
  NodeId add_node(const std::string& name, double latency_ms, double bandwidth_mbps = 1000.0);
  const std::string& name(NodeId node) const;
  std::optional<NodeId> find(const std::string& name) const;
  std::size_t node_count() const;

  // Changes, recorded in non-decreasing time order (per node, and per directed pair for cuts).
  void start_process(NodeId node, std::int64_t t_ms);                // new incarnation, epoch + 1
  void stop_process(NodeId node, DownKind kind, std::int64_t t_ms);  // kCrash or kShutdown
  void power_off(NodeId node, std::int64_t t_ms);  // host and process down, kPoweroff
  void power_on(NodeId node, std::int64_t t_ms);   // host up; the process starts separately
  void pause(NodeId node, std::int64_t t_ms);
  void resume(NodeId node, std::int64_t t_ms);
  void set_latency(NodeId node, double latency_ms, std::int64_t t_ms);
  // Directional cut from -> to; cuts nest (two partitions over one pair need two heals).
  void cut(NodeId from, NodeId to, std::int64_t t_ms);
  void heal(NodeId from, NodeId to, std::int64_t t_ms);

  // Queries at any instant; beyond the latest change, the latest state holds.
  NodeState state_at(NodeId node, std::int64_t t_ms) const;
  bool path_open(NodeId from, NodeId to, std::int64_t t_ms) const;
  // Both hosts up and both directions open: what a TCP exchange needs.
  bool reachable(NodeId a, NodeId b, std::int64_t t_ms) const;
  double one_way_latency_ms(NodeId a, NodeId b, std::int64_t t_ms) const;
  // A hop from `from` to `to` starting at t_ms carrying `bytes`: latency plus transfer, rounded up.
  std::int64_t transit_ms(NodeId from, NodeId to, std::int64_t t_ms, std::int64_t bytes = 0) const;
  // Incarnation `epoch` of `node` exists at t_ms: host up, that epoch current, process up or
  // paused.
  bool incarnation_alive(NodeId node, std::uint32_t epoch, std::int64_t t_ms) const;
  // When incarnation `epoch` of `node` ended and how (its process went down), if it has.
  std::optional<std::pair<std::int64_t, DownKind>> incarnation_end(NodeId node,
                                                                   std::uint32_t epoch) const;

  // A message sent at t_ms by `from` to the incarnation `to_epoch` of `to`, judged at t_ms (call it
  // again at the arrival instant for faults that strike in flight). kDelivered includes a paused
  // process: its kernel buffers the message. kRefused (the incarnation is gone, host up) needs the
  // way back open for the RST; otherwise the sender hears nothing (kDropped).
  Delivery deliver(NodeId from, NodeId to, std::uint32_t to_epoch, std::int64_t t_ms) const;
  // A single SYN from `from` to `to` at t_ms: kDelivered (the peer's kernel accepts, even when
  // the process is paused), kRefused (host up, process down) or kDropped (no answer: the caller
  // waits its connect timeout). Needs both directions open.
  Delivery connect(NodeId from, NodeId to, std::int64_t t_ms) const;
  // A connect with SYN retransmissions (kSynRetransmitOffsetsMs) until timeout_ms has passed.
  ConnectResult connect_within(NodeId from, NodeId to, std::int64_t t_ms,
                               std::int64_t timeout_ms) const;
  // When a connection from `client` to incarnation `epoch` of `server` stops being usable for
  // the client, the first instant in (after_ms, until_ms] at which the client learns it: the FIN of
  // a crash or shutdown arriving one hop later if the path is open when it is sent (a FIN lost to a
  // partition is not retransmitted here). nullopt when the client has not learnt it by until_ms
  // (including half-open connections to a powered-off host).
  std::optional<std::int64_t> client_sees_close(NodeId client, NodeId server, std::uint32_t epoch,
                                                std::int64_t after_ms, std::int64_t until_ms) const;
  // Data that `from` starts sending at from_ms over a connection and retransmits until it crosses:
  // its arrival at `to`, sent at the first instant >= from_ms with both hosts up and from -> to
  // open (retransmission is idealised: no backoff, it crosses as soon as the path allows), if that
  // arrival is <= until_ms.
  std::optional<std::int64_t> crossing(NodeId from, NodeId to, std::int64_t from_ms,
                                       std::int64_t until_ms, std::int64_t bytes = 0) const;
  // The first instant in [from_ms, until_ms] at which a request sent at from_ms over an open
  // connection reaches incarnation `epoch` of `server` and can be processed (process up, not
  // paused, path open; a partition or pause that ends in time delays it, as TCP retransmits),
  // or nullopt if it does not by until_ms.
  std::optional<std::int64_t> request_arrival(NodeId client, NodeId server, std::uint32_t epoch,
                                              std::int64_t from_ms, std::int64_t until_ms,
                                              std::int64_t bytes = 0) const;
  // A request of `bytes` sent at sent_ms over an open connection to incarnation `epoch` of
  // `server`, answered at once when processed (responses carry no payload here): how the client
  // learns its fate by deadline_ms. The client must not have seen the close by sent_ms.
  Exchange exchange(NodeId client, NodeId server, std::uint32_t epoch, std::int64_t sent_ms,
                    std::int64_t deadline_ms, std::int64_t bytes = 0) const;

  // How many changes have been recorded, plus one: it moves with every change, so a value derived
  // from the timelines stays true while it holds.
  std::uint64_t change_count() const { return change_count_; }
  // The steady round trip of requests of `bytes` from `client` to incarnation `epoch` of `server`
  // sent at or after t_ms, if every timeline of the two nodes and the paths between them has its
  // latest change at or before t_ms, both hosts are up, both directions open and the incarnation
  // running (not paused). Then, while change_count() holds, exchange() gives what the round trip
  // gives, and the client sees no close of the incarnation (client_sees_close).
  std::optional<SteadyRoundTrip> steady_round_trip(NodeId client, NodeId server,
                                                   std::uint32_t epoch, std::int64_t t_ms,
                                                   std::int64_t bytes) const;

  // All instants at which anything changed, sorted, for callers that must wake up at changes.
  std::vector<std::int64_t> change_times() const;
  // The instants at which anything about `a`, `b` or the paths between them changed, sorted.
  std::vector<std::int64_t> change_times_between(NodeId a, NodeId b) const;

 private:
  struct NodeTimeline {
    std::string name;
    std::vector<std::pair<std::int64_t, NodeState>> states;  // (since, state), time-ordered
    bool in_cuts = false;  // an end of some cut timeline: only then is cuts_ searched for it
  };
  using CutTimeline = std::vector<std::pair<std::int64_t, int>>;  // (since, nested cut count)

  NodeState& begin_change(NodeId node, std::int64_t t_ms);
  void change_cut(NodeId from, NodeId to, int delta, std::int64_t t_ms);
  const NodeTimeline& timeline(NodeId node) const;
  const CutTimeline* cut_timeline(NodeId from, NodeId to) const;
  // Both hosts up and from -> to open at t_ms: a segment can leave `from` and reach `to`.
  bool can_cross(NodeId from, NodeId to, std::int64_t t_ms) const;
  // The first change instant after after_ms of the two nodes and the from -> to cut, if any.
  std::optional<std::int64_t> next_instant(NodeId from, NodeId to, std::int64_t after_ms) const;
  // When a request that reached incarnation `epoch` of `server` at reached_ms is processed:
  // request_arrival's wait in the socket buffer.
  std::optional<std::int64_t> processed_at(NodeId server, std::uint32_t epoch,
                                           std::int64_t reached_ms, std::int64_t until_ms) const;
  // exchange() for the common case, answered without searching for change instants: nothing
  // about the two nodes or the paths between them changes in (sent_ms, deadline_ms], and at
  // sent_ms both hosts are up, both directions open and the incarnation alive. nullopt when
  // that does not hold (the general rules apply).
  std::optional<Exchange> steady_exchange(NodeId client, NodeId server, std::uint32_t epoch,
                                          std::int64_t sent_ms, std::int64_t deadline_ms,
                                          std::int64_t bytes) const;

  std::uint64_t change_count_ = 1;
  std::vector<NodeTimeline> nodes_;
  std::map<std::string, NodeId> by_name_;
  // (from, to) -> (since, nested cut count), time-ordered.
  std::map<std::pair<NodeId, NodeId>, CutTimeline> cuts_;
};

}  // namespace nssim::sim
