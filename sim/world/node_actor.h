// File: the event loop every simulated process runs: envelopes taken from the node's socket layer
// in Net as they arrive (each connection on its own, see net.h) and a timer queue ordered by
// (time, sequence); between the two the loop waits in Net::await. A crash kills the actor; a
// restart creates a new NodeActor for the new incarnation.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "sim/network/network_history.h"
#include "sim/world/envelope.h"

namespace nssim::sim {

class Net;

class NodeActor {
 public:
  NodeActor(Net& net, NodeId self, std::uint32_t epoch);
  virtual ~NodeActor() = default;
  NodeActor(const NodeActor&) = delete;
  NodeActor& operator=(const NodeActor&) = delete;

  // The actor body. Returns only when stop() was called; a kill unwinds it.
  void run();
  // Ends the loop at the next wake-up (clean shutdown's last step).
  void stop() { stopped_ = true; }

  // Runs `fn` in this node's loop when the wake-up sent now reaches it (one network latency,
  // as mqadmin's request would take). For other actors (the fault player): a timer they set
  // directly would wait for the loop's next wake-up.
  void post(std::function<void()> fn);

  NodeId self() const { return self_; }
  std::uint32_t epoch() const { return epoch_; }

 protected:
  using Timer = std::function<void()>;
  // Runs `fn` at t_ms (or at once if t_ms is past). Timers at the same instant run in the order
  // they were set.
  void at(std::int64_t t_ms, Timer fn);
  // Fixed-rate periodic task (ScheduledExecutorService#scheduleAtFixedRate): runs at
  // first_ms + k * period_ms; a run that is late does not shift the later ones.
  void every(std::int64_t first_ms, std::int64_t period_ms, Timer fn);

  virtual void on_start() = 0;
  // An envelope that passed Net::accept.
  virtual void on_envelope(const Envelope& envelope) = 0;

  Net& net_;

 private:
  void fire_due_timers();
  void run_posted();

  NodeId self_;
  std::uint32_t epoch_;
  bool stopped_ = false;
  std::uint64_t timer_sequence_ = 0;
  std::map<std::pair<std::int64_t, std::uint64_t>, Timer> timers_;
  std::vector<Timer> posted_;
};

}  // namespace nssim::sim
