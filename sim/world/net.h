// File: the application-level network layer in front of SimGrid. SimGrid computes transfer times
// over the platform; Net decides, from NetworkHistory, whether each envelope is delivered,
// silently dropped or refused, keeps the registry of TCP connections, and sends the FINs of a
// process that ends. Every envelope goes through Net::send; nothing else calls Mailbox::put.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/model/network_history.h"
#include "sim/world/envelope.h"
#include "sim/world/platform.h"

namespace simgrid::s4u {
class Mailbox;
}

namespace nssim::sim {

struct Connection {
  NodeId client = 0;
  std::uint32_t client_epoch = 0;
  NodeId server = 0;
  std::uint32_t server_epoch = 0;
  bool client_open = true;
  bool server_open = true;
};

class Net {
 public:
  Net(NetworkHistory& history, std::vector<PlatformHost> hosts);

  NetworkHistory& history() { return history_; }
  const PlatformHost& host(NodeId node) const { return hosts_[static_cast<std::size_t>(node)]; }
  simgrid::s4u::Mailbox* inbox(NodeId node) const;

  std::uint64_t open_connection(NodeId client, std::uint32_t client_epoch, NodeId server,
                                std::uint32_t server_epoch);
  const Connection& connection(std::uint64_t conn) const { return connections_.at(conn); }
  // True while `node`'s end of the connection is open.
  bool is_open(std::uint64_t conn, NodeId node) const;

  // Sends a wake-up envelope to its node, outside any connection and past every fault: it
  // only makes the node's loop run work posted to it (NodeActor::post).
  void wake(std::unique_ptr<Envelope> envelope);
  // Sends from the calling actor's host now. Delivered envelopes are handed to SimGrid with
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

 private:
  NodeId peer_of(const Connection& connection, NodeId node) const;
  std::uint32_t epoch_of(const Connection& connection, NodeId node) const;
  Delivery classify(const Envelope& envelope) const;

  NetworkHistory& history_;
  std::vector<PlatformHost> hosts_;
  std::vector<simgrid::s4u::Mailbox*> inboxes_;
  std::vector<bool> client_only_;
  std::map<std::uint64_t, Connection> connections_;
  std::uint64_t next_connection_ = 1;
};

}  // namespace nssim::sim
