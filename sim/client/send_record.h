// File: what one producer send did, as the producer model reports it to whoever measures the run.
// Kept small: a large run reports tens of millions of these and keeps only aggregates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
const char* send_cause_name(SendCause cause);

struct AttemptRecord {
  std::string broker_name;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  SendCause cause = SendCause::kOk;
  int queue_id = 0;  // of the queue selected in broker_name (MessageQueue#queueId)
};

struct SendRecord {
  std::string topic;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  SendCause cause = SendCause::kOk;  // kOk, or why the send as a whole failed
  std::vector<AttemptRecord> attempts;
};

}  // namespace nssim::sim
