// File: one broker queue's messages as a consumer's pulls meet them: the store time of each
// offset (offsets from 0, in store order), and when a pull that the broker holds (long polling,
// PullRequestHoldService) is answered.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "common/invariant.h"
#include "nameserver_core/profile.h"

namespace nssim::sim {

// Java: PullRequestHoldService#run waits waitForRunning(5 * 1000) between its checks of the held
// requests while BrokerConfig#longPollingEnable (true, both lines).
inline constexpr std::int64_t kHoldServiceCheckIntervalMs = 5000;

inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

class QueueMessages {
 public:
  // A message stored at t_ms takes the next offset; store times never go back.
  void append(std::int64_t stored_ms) {
    NSSIM_CHECK(stored_ms_.empty() || stored_ms >= stored_ms_.back(),
                "a queue's messages must be appended in store order");
    stored_ms_.push_back(stored_ms);
  }
  // Java: getMaxOffsetInQueue at t_ms: the offset the next message will take.
  std::int64_t max_offset_at(std::int64_t t_ms) const;
  // When the message at `offset` is stored, kNever if it never is.
  std::int64_t stored_ms(std::int64_t offset) const {
    return offset < static_cast<std::int64_t>(stored_ms_.size())
               ? stored_ms_[static_cast<std::size_t>(offset)]
               : kNever;
  }
  std::int64_t size() const { return static_cast<std::int64_t>(stored_ms_.size()); }

 private:
  std::vector<std::int64_t> stored_ms_;
};

// What a broker incarnation's long polling is for one held pull.
struct HoldService {
  std::int64_t started_ms = 0;  // the incarnation's start: the checks run from there
  // Java: DefaultMessageStore's ReputMessageService calls messageArrivingListener#arriving for
  // every dispatched message, which answers the held pulls at once; 4.9 skips it on a SLAVE
  // (DefaultMessageStore, BrokerRole.SLAVE != role), 5.x does it on every role.
  bool notified_on_arrival = true;
};

// Java: PullMessageProcessor's PULL_NOT_FOUND with the suspend flag parks the request
// (PullRequestHoldService#suspendPullRequest) at suspended_ms with timeout_ms (the consumer's
// brokerSuspendMaxTimeMillis); it is answered by notifyMessageArriving when a message at or
// beyond pull_offset arrives, or by checkHoldRequest at its next check that finds such a message
// or finds now >= suspended + timeout. Returns when it is answered (the broker then re-runs the
// pull). The check's own cost is taken as nil.
std::int64_t held_pull_answer_ms(const QueueMessages& queue, std::int64_t pull_offset,
                                 std::int64_t suspended_ms, std::int64_t timeout_ms,
                                 const HoldService& hold);

// The broker's hold service for a broker incarnation in the given profile and role.
inline HoldService hold_service(core::Profile profile, bool slave, std::int64_t started_ms) {
  return HoldService{started_ms, profile == core::Profile::kV5 || !slave};
}

}  // namespace nssim::sim
