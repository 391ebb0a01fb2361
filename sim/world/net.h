// File: the application-level network layer in front of SimGrid. SimGrid computes transfer times
// over the platform; Net decides, from NetworkHistory, whether each envelope is delivered,
// silently dropped or refused, keeps the registry of TCP connections, and sends the FINs of a
// process that ends. Every envelope goes through Net::send (or Net::wake); nothing else starts a
// SimGrid communication.
//
// Each connection is served on its own, as Netty serves it: every envelope travels in its own
// SimGrid communication that starts when it is sent (the kernel takes the bytes at once), so a
// slow or silent peer delays only what travels on its own connection. Per connection and
// direction the bytes keep their order (TCP): an envelope that crosses faster than one sent
// before it on the same connection waits for it in the receiver's socket layer. A node's loop
// takes what has arrived from its socket layer (Net::take) and otherwise waits for the next
// arrival or its next timer (Net::await).
#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/network/network_history.h"
#include "sim/world/envelope.h"
#include "sim/world/platform.h"

namespace nssim::sim {

// One direction of a connection's byte stream: sequence numbers are given when envelopes are
// sent and they are handed to the receiver in that order.
struct Stream {
  std::uint64_t next_sent = 0;
  std::uint64_t next_delivered = 0;
  std::map<std::uint64_t, std::unique_ptr<Envelope>> early;  // arrived before their predecessors
};

struct Connection {
  NodeId client = 0;
  std::uint32_t client_epoch = 0;
  NodeId server = 0;
  std::uint32_t server_epoch = 0;
  bool client_open = true;
  bool server_open = true;
  Stream to_client;
  Stream to_server;
};

class Net {
 public:
  Net(NetworkHistory& history, std::vector<PlatformHost> hosts);
  ~Net();
  Net(const Net&) = delete;
  Net& operator=(const Net&) = delete;

  NetworkHistory& history() { return history_; }
  const PlatformHost& host(NodeId node) const { return hosts_[static_cast<std::size_t>(node)]; }

  std::uint64_t open_connection(NodeId client, std::uint32_t client_epoch, NodeId server,
                                std::uint32_t server_epoch);
  const Connection& connection(std::uint64_t conn) const { return connections_.at(conn); }
  // True while `node`'s end of the connection is open.
  bool is_open(std::uint64_t conn, NodeId node) const;

  // Sends a wake-up envelope to its node from the calling actor's host, outside any connection
  // and past every fault: it only makes the node's loop run work posted to it (NodeActor::post).
  void wake(std::unique_ptr<Envelope> envelope);
  // Sends from `envelope.from`'s host now. Delivered envelopes cross the platform with
  // `size_bytes`; dropped ones vanish; refused ones (the peer's kernel answers RST) are for the
  // caller to fail after one round trip.
  Delivery send(std::unique_ptr<Envelope> envelope, std::uint64_t size_bytes);
  // Closes `node`'s end and sends a FIN to the peer, if it gets through.
  void close(std::uint64_t conn, NodeId node);
  // The process on `node` ended: every connection end it held closes; on a crash or shutdown its
  // kernel sends FINs from its host; on a power-off nothing is sent.
  void process_ended(NodeId node, DownKind kind);
  // A node in client-only mode still receives responses on connections it opened as a client
  // although its process is marked down: a broker whose server port closed (4.9 shutdown order)
  // still unregisters from the NameServers over its client connections.
  void set_client_only(NodeId node, bool client_only);
  // Receiver-side filter: drops envelopes for an older incarnation or a closed end.
  bool accept(const Envelope& envelope) const;
  double round_trip_ms(NodeId a, NodeId b) const;

  // The receiving side, for the node's own loop. take: the next envelope that has arrived at
  // `node` (in arrival order, each connection's in its stream order), or null. await: blocks
  // the calling actor until something arrives for `node` or `timeout_s` passes (< 0: no limit).
  std::unique_ptr<Envelope> take(NodeId node);
  void await(NodeId node, double timeout_s);

 private:
  // A node's socket layer: what has arrived and is not yet taken, and the doorbell its loop
  // waits on (rung once per wait).
  struct Port {
    std::deque<std::unique_ptr<Envelope>> ready;
    simgrid::s4u::SemaphorePtr doorbell;
    bool waiting = false;
  };
  class Wire;  // the actors that carry envelopes across the platform (net.cpp)

  NodeId peer_of(const Connection& connection, NodeId node) const;
  std::uint32_t epoch_of(const Connection& connection, NodeId node) const;
  Delivery classify(const Envelope& envelope) const;
  // An envelope's transfer ended: it joins its stream, and what is now in order is handed over.
  void arrive(std::unique_ptr<Envelope> envelope);
  void hand_over(std::unique_ptr<Envelope> envelope);
  // How much longer than its SimGrid link `node`'s latency is now (latency faults).
  double extra_latency_s(NodeId node) const;

  NetworkHistory& history_;
  std::vector<PlatformHost> hosts_;
  std::vector<Port> ports_;
  std::vector<double> link_latency_ms_;  // per node, as the platform was built
  std::vector<bool> client_only_;
  std::map<std::uint64_t, Connection> connections_;
  std::uint64_t next_connection_ = 1;
  std::unique_ptr<Wire> wire_;
};

}  // namespace nssim::sim
