// File: the node event loop (see node_actor.h). The pending receive is cancelled when the actor
// is killed, or SimGrid complains that a started communication was freed.
#include "sim/world/node_actor.h"

#include <algorithm>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <vector>

#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

namespace {

// Cancels the pending receive when the loop unwinds (kill) or returns.
struct PendingReceive {
  std::vector<sg4::CommPtr> comms;
  Envelope* slot = nullptr;
  ~PendingReceive() {
    if (!comms.empty() && comms[0]->get_state() == sg4::Activity::State::STARTED) {
      comms[0]->cancel();
    }
  }
};

}  // namespace

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

void NodeActor::run() {
  PendingReceive receive;
  sg4::Mailbox* inbox = net_.inbox(self_);
  receive.comms.push_back(inbox->get_async<Envelope>(&receive.slot));
  on_start();
  while (!stopped_) {
    fire_due_timers();
    if (stopped_) break;
    const double timeout_s =
        timers_.empty() ? -1.0 : std::max(0.0, to_seconds(timers_.begin()->first.first - now_ms()));
    const ssize_t ready = sg4::Comm::wait_any_for(receive.comms, timeout_s);
    if (ready != 0) continue;  // a timer is due
    std::unique_ptr<Envelope> envelope(receive.slot);
    receive.slot = nullptr;
    receive.comms[0] = inbox->get_async<Envelope>(&receive.slot);
    if (envelope->kind == Envelope::Kind::kWake) {
      run_posted();
    } else if (net_.accept(*envelope)) {
      on_envelope(*envelope);
    }
  }
}

}  // namespace nssim::sim
