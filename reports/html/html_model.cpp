// File: read_page_model (see html_model.h): report.json -> the structs the pictures draw.
#include "reports/html/html_model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "reports/duration_text.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace {

// Faults with a window; the others (wipeWritePerm, addWritePerm, ...) are one-off admin commands.
const std::set<std::string> kWindowKinds = {"kill",  "poweroff",  "shutdown",
                                            "pause", "partition", "latency"};

std::vector<std::string> strings_of(const nlohmann::json& array) {
  std::vector<std::string> out;
  if (!array.is_array()) return out;
  for (const auto& item : array) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  if (names.size() > kShown) out += " +" + std::to_string(names.size() - kShown) + " more";
  return out;
}

std::string fault_targets(const nlohmann::json& fault) {
  const auto nodes = strings_of(field(fault, "nodes"));
  const auto from = strings_of(field(fault, "from"));
  const auto to = strings_of(field(fault, "to"));
  std::string out;
  if (!from.empty() || !to.empty()) {
    const bool one_way = field(fault, "one_way") == true;
    out = joined(from) + (one_way ? " \u219B " : " \u21AE ") + joined(to);
  } else if (!nodes.empty()) {
    out = joined(nodes);
  } else {
    out = field_string(fault, "broker_name");
  }
  if (out.empty()) out = field_string(fault, "topic");
  if (const auto latency = field_int(fault, "latency_ms")) {
    out += " +" + duration_text(*latency);
  }
  return out;
}

TimeSpan span_of(const nlohmann::json& object, int64_t duration_ms) {
  TimeSpan span;
  span.start_ms = std::clamp<int64_t>(field_int(object, "start_ms").value_or(0), 0, duration_ms);
  span.end_ms = std::clamp<int64_t>(field_int(object, "end_ms").value_or(duration_ms),
                                    span.start_ms, duration_ms);
  return span;
}

std::vector<ProcessSegment> process_of(const nlohmann::json& entry, int64_t duration_ms) {
  std::vector<ProcessSegment> out;
  const auto& process = field(entry, "process");
  if (!process.is_array()) return out;
  for (const auto& segment : process) {
    out.push_back({field_string(segment, "state"), span_of(segment, duration_ms),
                   field_int(segment, "fault")});
  }
  return out;
}

BrokerTimeline broker_of(const nlohmann::json& entry, int64_t duration_ms) {
  BrokerTimeline broker;
  broker.node = field_string(entry, "node");
  broker.broker_name = field_string(entry, "broker_name");
  broker.addr = field_string(entry, "addr");
  broker.broker_id = field_int(entry, "broker_id").value_or(0);
  broker.process = process_of(entry, duration_ms);
  const auto& faults = field(entry, "faults");
  if (faults.is_array()) {
    for (const auto& index : faults) {
      if (index.is_number_integer()) broker.faults.push_back(index.get<int64_t>());
    }
  }
  const auto& routes = field(entry, "in_routes");
  if (!routes.is_array()) return broker;
  for (const auto& row : routes) {
    RouteRow route{field_string(row, "nameserver"), {}, {}};
    const auto& intervals = field(row, "intervals");
    if (intervals.is_array()) {
      for (const auto& interval : intervals) {
        route.in_routes.push_back(span_of(interval, duration_ms));
      }
    }
    const auto& missing = field(row, "missing");
    if (missing.is_array()) {
      for (const auto& stretch : missing) {
        route.missing.push_back({span_of(stretch, duration_ms),
                                 !field_int(stretch, "end_ms").has_value(),
                                 field_string(stretch, "cause")});
      }
    }
    broker.routes.push_back(std::move(route));
  }
  return broker;
}

void read_timelines(const nlohmann::json& timelines, PageModel& model) {
  model.has_timelines = timelines.is_object();
  const auto& brokers = field(timelines, "brokers");
  if (brokers.is_array()) {
    for (const auto& entry : brokers) model.brokers.push_back(broker_of(entry, model.duration_ms));
  }
  const auto& nameservers = field(timelines, "nameservers");
  if (nameservers.is_array()) {
    for (const auto& entry : nameservers) {
      model.nameservers.push_back(
          {field_string(entry, "node"), process_of(entry, model.duration_ms)});
    }
  }
  const auto& detections = field(timelines, "detections");
  if (!detections.is_array()) return;
  for (const auto& entry : detections) {
    model.detections.push_back({field_int(entry, "t_ms").value_or(0),
                                field_string(entry, "nameserver"),
                                field_string(entry, "broker_node"),
                                field_string(entry, "broker_addr"), field_string(entry, "path")});
  }
}

void read_faults(const nlohmann::json& faults, PageModel& model) {
  if (!faults.is_array()) return;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const auto& fault = faults[i];
    FaultWindow window;
    window.index = field_int(fault, "index").value_or(static_cast<int64_t>(i));
    window.kind = field_string(fault, "kind");
    window.targets = fault_targets(fault);
    window.instant = kWindowKinds.count(window.kind) == 0;
    const int64_t at_ms =
        std::clamp<int64_t>(field_int(fault, "at_ms").value_or(0), 0, model.duration_ms);
    const auto duration = field_int(fault, "duration_ms");
    int64_t end_ms = model.duration_ms;
    if (window.instant) end_ms = at_ms;
    if (duration && !window.instant) end_ms = std::min(model.duration_ms, at_ms + *duration);
    window.span = {at_ms, end_ms};
    model.faults.push_back(std::move(window));
  }
}

std::optional<TimeSpan> predicted_span(const nlohmann::json& predicted, const char* key,
                                       int64_t start_ms) {
  const auto& bounds = field(predicted, key);
  const auto min_ms = field_int(bounds, "min_ms");
  const auto max_ms = field_int(bounds, "max_ms");
  if (!min_ms || !max_ms) return std::nullopt;
  return TimeSpan{start_ms + *min_ms, start_ms + std::max(*min_ms, *max_ms)};
}

void read_outages(const nlohmann::json& outages, PageModel& model) {
  if (!outages.is_array()) return;
  for (const auto& outage : outages) {
    OutagePrediction prediction;
    prediction.fault = field_int(outage, "fault").value_or(0);
    prediction.brokers = strings_of(field(outage, "brokers"));
    const int64_t start_ms = field_int(outage, "start_ms").value_or(0);
    const auto& predicted = field(outage, "predicted");
    prediction.removal = predicted_span(predicted, "nameserver_removal_ms", start_ms);
    prediction.stale_route = predicted_span(predicted, "producer_stale_route_ms", start_ms);
    model.predictions.push_back(std::move(prediction));
  }
}

void read_timeseries(const nlohmann::json& timeseries, PageModel& model) {
  model.has_timeseries = timeseries.is_array();
  if (!model.has_timeseries) return;
  // Dense from second 0, so its length bounds the run's seconds, whatever duration_ms says.
  const auto seconds =
      std::min(static_cast<std::size_t>((model.duration_ms + 999) / 1000), timeseries.size());
  model.seconds.assign(seconds, SecondSample{});
  for (const auto& entry : timeseries) {
    const auto t_s = field_int(entry, "t_s");
    if (!t_s || *t_s < 0 || static_cast<std::size_t>(*t_s) >= seconds) continue;
    SecondSample& sample = model.seconds[static_cast<std::size_t>(*t_s)];
    sample.ok = field_int(entry, "ok").value_or(0);
    sample.stale_producers = field_int(entry, "stale_producers").value_or(0);
    sample.lost_producers = field_int(entry, "lost_producers").value_or(0);
    const auto& by_broker = field(entry, "ok_by_broker");
    if (by_broker.is_object()) {
      for (const auto& [broker, count] : by_broker.items()) {
        if (count.is_number_integer()) sample.ok_by_broker[broker] = count.get<int64_t>();
      }
    }
    const auto& failed = field(entry, "failed");
    if (!failed.is_object()) continue;
    for (const auto& [cause, count] : failed.items()) {
      if (cause != "total" && count.is_number() && count.get<double>() > 0) {
        sample.failed[cause] = field_int(failed, cause.c_str()).value_or(0);
      }
    }
  }
}

}  // namespace

PageModel read_page_model(const nlohmann::json& report) {
  PageModel model;
  const auto duration = field_int(field(report, "scenario"), "duration_ms");
  model.duration_ms = std::max<int64_t>(1, duration.value_or(1));
  read_faults(field(report, "faults"), model);
  read_timelines(field(report, "timelines"), model);
  read_outages(field(report, "outages"), model);
  read_timeseries(field(report, "timeseries"), model);
  return model;
}

const FaultWindow* fault_before(const PageModel& model, const BrokerTimeline& broker,
                                int64_t t_ms) {
  const FaultWindow* best = nullptr;
  for (const auto& fault : model.faults) {
    const bool touches =
        std::find(broker.faults.begin(), broker.faults.end(), fault.index) != broker.faults.end();
    if (touches && fault.span.start_ms <= t_ms &&
        (best == nullptr || fault.span.start_ms >= best->span.start_ms)) {
      best = &fault;
    }
  }
  return best;
}

}  // namespace nssim::reports::html
