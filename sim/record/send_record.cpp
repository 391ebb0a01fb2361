// File: names of send causes, as they appear in reports.
#include "sim/record/send_record.h"

namespace nssim::sim {

const char* send_cause_name(SendCause cause) {
  switch (cause) {
    case SendCause::kOk:
      return "ok";
    case SendCause::kConnectTimeout:
      return "connect_timeout";
    case SendCause::kConnectRefused:
      return "connect_refused";
    case SendCause::kRequestTimeout:
      return "request_timeout";
    case SendCause::kConnectionReset:
      return "connection_reset";
    case SendCause::kSendTimeoutBudget:
      return "send_timeout_budget";
    case SendCause::kNoRoute:
      return "no_route";
    case SendCause::kBrokerError:
      return "broker_error";
  }
  return "unknown";
}

}  // namespace nssim::sim
