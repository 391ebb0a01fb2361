// File: the parts of report.json the HTML pictures draw, read once into plain structs. Reading is
// forgiving (a missing or mistyped field becomes empty or zero) so that a report from an older
// result, without timelines, still renders what it has.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nssim::reports::html {

struct TimeSpan {
  int64_t start_ms = 0;
  int64_t end_ms = 0;  // an open end ("to the end") is resolved to the run's duration
};

struct ProcessSegment {
  std::string state;  // not_started, up, paused, down
  TimeSpan span;
  std::optional<int64_t> fault;
};

// A stretch in which a NameServer could use the broker but did not list it (route_health's
// missing window); `open` when it lasted to the run's end.
struct MissingStretch {
  TimeSpan span;
  bool open = false;
  std::string cause;
};

struct RouteRow {
  std::string nameserver;
  std::vector<TimeSpan> in_routes;
  std::vector<MissingStretch> missing;
};

struct BrokerTimeline {
  std::string node;
  std::string broker_name;
  std::string addr;
  int64_t broker_id = 0;
  std::vector<ProcessSegment> process;
  std::vector<int64_t> faults;
  std::vector<RouteRow> routes;
};

struct NameServerTimeline {
  std::string node;
  std::vector<ProcessSegment> process;
};

struct Detection {
  int64_t t_ms = 0;
  std::string nameserver;
  std::string broker_node;
  std::string broker_addr;
  std::string path;
};

struct FaultWindow {
  int64_t index = 0;
  std::string kind;
  std::string targets;  // "broker-a-0", "producers -> broker-a-0", "broker-a"
  TimeSpan span;
  bool instant = false;  // admin commands have no duration
};

// What RocketMQ's rules predict for one outage, as absolute times (fault start + bounds).
struct OutagePrediction {
  int64_t fault = 0;
  std::vector<std::string> brokers;
  std::optional<TimeSpan> removal;      // NameServers drop the broker inside this window
  std::optional<TimeSpan> stale_route;  // producers lose the stale route inside this window
};

struct SecondSample {
  int64_t ok = 0;
  std::map<std::string, int64_t> failed;        // cause -> sends, non-zero causes only
  std::map<std::string, int64_t> ok_by_broker;  // broker group -> attempts that succeeded
  int64_t stale_producers = 0;
  int64_t lost_producers = 0;
};

struct PageModel {
  int64_t duration_ms = 0;
  std::vector<FaultWindow> faults;
  std::vector<BrokerTimeline> brokers;
  std::vector<NameServerTimeline> nameservers;
  std::vector<Detection> detections;
  std::vector<OutagePrediction> predictions;
  std::vector<SecondSample> seconds;  // index = second of the run
  bool has_timelines = false;
  bool has_timeseries = false;
};

PageModel read_page_model(const nlohmann::json& report);

// The fault that touches `broker` and started last at or before t_ms, if any.
const FaultWindow* fault_before(const PageModel& model, const BrokerTimeline& broker, int64_t t_ms);

}  // namespace nssim::reports::html
