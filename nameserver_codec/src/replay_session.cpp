// File: ReplaySession: runs each valid line against the NameServer and writes its output line.
#include <set>
#include <utility>
#include <vector>

#include "json_text.h"
#include "nameserver_codec/body_codec.h"
#include "nameserver_codec/replay.h"
#include "nameserver_codec/request_path.h"
#include "replay_line.h"

namespace nssim::codec {

namespace {

using nlohmann::json;

using detail::compact_json;

// {"code", "remark", "extFields", "body"}, in that order.
std::string response_line(const core::RemotingResponse& response, core::Profile profile) {
  const json remark = response.remark ? json(*response.remark) : json(nullptr);
  return "{\"code\":" + std::to_string(response.code) + ",\"remark\":" + compact_json(remark) +
         ",\"extFields\":" + compact_json(json(response.ext_fields)) +
         ",\"body\":" + compact_json(encode_response_body(response.body, profile)) + "}";
}

// The addresses that left brokerLiveTable or brokerAddrTable, sorted and each once.
std::string event_line(const char* event, const std::vector<core::BrokerRemoval>& removals) {
  std::set<std::string> removed;
  for (const auto& removal : removals) {
    if (removal.removed_live_entry || removal.removed_addr_entry)
      removed.insert(removal.broker_addr);
  }
  return "{\"event\":\"" + std::string(event) + "\",\"removed\":" + compact_json(json(removed)) +
         "}";
}

void append(std::vector<core::BrokerRemoval>& to, std::vector<core::BrokerRemoval> from) {
  for (auto& removal : from) to.push_back(std::move(removal));
}

}  // namespace

ReplaySession::ReplaySession(core::Profile profile, core::NamesrvConfig config)
    : profile_(profile), name_server_(profile, std::move(config), /*start_time_ms=*/0) {}

core::ConnectionId ReplaySession::channel_id(const std::string& name) {
  auto [slot, inserted] =
      channels_.emplace(name, core::ConnectionId{static_cast<std::uint64_t>(channels_.size() + 1)});
  return slot->second;
}

std::string ReplaySession::process_line(std::string_view line) {
  ++line_number_;
  detail::ParsedLine parsed = detail::parse_replay_line(line, profile_, now_ms_);
  if (const auto* error = std::get_if<detail::LineError>(&parsed)) {
    had_errors_ = true;
    return compact_json(
        json{{"error", "line " + std::to_string(line_number_) + ": " + error->message}});
  }

  if (const auto* request = std::get_if<detail::RequestLine>(&parsed)) {
    now_ms_ = request->at_ms;
    const auto response =
        run_request(name_server_,
                    IncomingRequest{request->code, request->version, request->oneway,
                                    request->ext_fields, request->body},
                    channel_id(request->channel), now_ms_);
    return response ? response_line(*response, profile_) : "{\"noResponse\":true}";
  }

  const auto& event = std::get<detail::EventLine>(parsed);
  now_ms_ = event.at_ms;
  std::vector<core::BrokerRemoval> removals;
  const char* name = "scan";
  if (event.kind == detail::EventKind::kScan) {
    removals = name_server_.scan(now_ms_).removals;
  } else {
    const core::ConnectionId channel = channel_id(event.channel);
    if (event.kind == detail::EventKind::kIdle) {
      name = "idle";  // Netty closes an idle channel: IDLE, then CLOSE
      append(removals, name_server_.channel_destroyed(channel, event.remote_addr,
                                                      core::RemovalPath::kChannelIdle));
    } else {
      name = "close";
    }
    append(removals, name_server_.channel_destroyed(channel, event.remote_addr,
                                                    core::RemovalPath::kChannelClose));
  }
  append(removals, name_server_.process_pending_unregistrations());
  return event_line(name, removals);
}

}  // namespace nssim::codec
