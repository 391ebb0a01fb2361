// File: the node event loop (see node_actor.h).
#include "sim/world/node_actor.h"

#include <algorithm>
#include <vector>

#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

NodeActor::NodeActor(Net& net, NodeId self, std::uint32_t epoch)
    : net_(net), self_(self), epoch_(epoch) {}

void NodeActor::at(std::int64_t t_ms, Timer fn) {
  timers_.emplace(std::make_pair(t_ms, timer_sequence_++), std::move(fn));
}

void NodeActor::post(std::function<void()> fn) {
  posted_.push_back(std::move(fn));
  auto wake = std::make_unique<Envelope>();
  wake->kind = Envelope::Kind::kWake;
  wake->to = self_;
  net_.wake(std::move(wake));
}

void NodeActor::every(std::int64_t first_ms, std::int64_t period_ms, Timer fn) {
  auto shared = std::make_shared<Timer>(std::move(fn));
  auto tick = std::make_shared<std::function<void(std::int64_t)>>();
  *tick = [this, shared, period_ms, weak = std::weak_ptr(tick)](std::int64_t scheduled_ms) {
    (*shared)();
    if (auto again = weak.lock()) {
      at(scheduled_ms + period_ms, [again, next = scheduled_ms + period_ms] { (*again)(next); });
    }
  };
  at(first_ms, [tick, first_ms] { (*tick)(first_ms); });
}

void NodeActor::fire_due_timers() {
  while (!timers_.empty() && timers_.begin()->first.first <= now_ms() && !stopped_) {
    auto node = timers_.extract(timers_.begin());
    node.mapped()();
  }
}

void NodeActor::run_posted() {
  std::vector<std::function<void()>> work;
  work.swap(posted_);
  for (auto& fn : work) {
    if (!stopped_) fn();
  }
}

// Java: Netty hands each channel's reads to its event loop as they complete, and the
// NameServer's processors never wait for one client's bytes to serve another; here one loop
// takes whatever has fully arrived, from any connection, in the order it arrived.
void NodeActor::run() {
  on_start();
  while (!stopped_) {
    fire_due_timers();
    if (stopped_) break;
    if (std::unique_ptr<Envelope> envelope = net_.take(self_)) {
      if (envelope->kind == Envelope::Kind::kWake) {
        run_posted();
      } else if (net_.accept(*envelope)) {
        on_envelope(*envelope);
      }
      continue;
    }
    const double timeout_s =
        timers_.empty() ? -1.0 : std::max(0.0, to_seconds(timers_.begin()->first.first - now_ms()));
    net_.await(self_, timeout_s);
  }
}

}  // namespace nssim::sim
