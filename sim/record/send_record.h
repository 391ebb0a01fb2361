// File: what one producer send did, as the producer model reports it to whoever measures the run.
// Kept small and without copies of names: a large run reports hundreds of millions of these and
// keeps only aggregates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "sim/network/network_history.h"

namespace nssim::sim {

// Why an attempt or a send failed, in the client's own terms.
enum class SendCause {
  kOk,
  kConnectTimeout,     // no SYN-ACK within connectTimeoutMillis (silent host or partition)
  kConnectRefused,     // RST to the SYN: host up, process down
  kRequestTimeout,     // open connection, no response within the remaining budget
  kConnectionReset,    // the connection broke under the request (RST, FIN)
  kSendTimeoutBudget,  // sendDefaultImpl/sendMessage "call timeout": the 3 s budget ran out
  kNoRoute,            // no publish info, or the broker address is unknown
  kBrokerError,        // a response code that is not SUCCESS
};
inline constexpr std::size_t kSendCauseCount = 8;
const char* send_cause_name(SendCause cause);

// A record's names are views of strings owned by whoever reports it (the producer model's interned
// names and its spec): valid while the reporter lives, so an observer that keeps a record past
// its producer copies them.
inline constexpr std::uint32_t kNoBrokerId = std::numeric_limits<std::uint32_t>::max();

struct AttemptRecord {
  std::string_view broker_name;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  SendCause cause = SendCause::kOk;
  int queue_id = 0;  // of the queue selected in broker_name (MessageQueue#queueId)
  // The reporter's own small id for broker_name (one name, one id, per producer), or kNoBrokerId:
  // an observer may index its per-producer tables by it instead of hashing the name.
  std::uint32_t broker_id = kNoBrokerId;
  // The broker stored the message: it processed the request by the attempt's end, whatever the
  // client then learned (a request timeout whose response was late or lost still stored it).
  bool stored = false;
  // When the broker processed the stored attempt (Exchange::processed_ms), kNotProcessed unless
  // stored: the instant the message takes its offset in the queue.
  std::int64_t stored_ms = kNotProcessed;
};

struct SendRecord {
  std::string_view topic;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  SendCause cause = SendCause::kOk;  // kOk, or why the send as a whole failed
  std::vector<AttemptRecord> attempts;
};

// How many copies of the send's message the brokers stored: its stored attempts.
inline std::int64_t stored_copies(const SendRecord& record) {
  std::int64_t stored = 0;
  for (const AttemptRecord& attempt : record.attempts) stored += attempt.stored ? 1 : 0;
  return stored;
}

}  // namespace nssim::sim
