// File: the trace size estimate and --trace-limit byte counts (see trace_budget.h).
#include "sim/record/trace_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string_view>

#include "sim/record/trace_lines.h"

namespace nssim::sim {

namespace {

// The first instant the producer actor polls routes, after its start
// (MQClientInstance#startScheduledTask: 10 ms).
constexpr std::int64_t kFirstPollDelayMs = 10;

constexpr const char* kUnitLetters = "KMGT";

// The longest of `names` (the first of equal length), or an empty view.
std::string_view longest(const std::vector<std::string>& names) {
  std::string_view best;
  for (const auto& name : names) {
    if (name.size() > best.size()) best = name;
  }
  return best;
}

// A line of the set's sends to `topic` with its names and times of the duration's length.
std::size_t attempt_line_bytes(const TraceProducer& producer, const TopicSpec* topic,
                               const std::string& topic_name, std::int64_t t_ms) {
  SendRecord send;
  send.topic = topic_name;
  send.start_ms = t_ms;
  send.end_ms = t_ms;
  AttemptRecord& attempt = send.attempts.emplace_back();
  attempt.broker_name = topic != nullptr ? longest(topic->groups) : "";
  attempt.queue_id = topic != nullptr ? std::max(0, topic->write_queue_nums - 1) : 0;
  attempt.start_ms = t_ms;
  attempt.end_ms = t_ms;
  std::string line;
  append_attempt_line(line, producer, send, 0);
  return line.size();
}

std::size_t route_line_bytes(const TraceProducer& producer, const std::string& topic,
                             const std::string& nameserver, std::int64_t t_ms) {
  RouteUpdate update;
  update.topic = topic;
  update.query = RouteQuery{nameserver, t_ms, "ok"};
  update.answered_ms = t_ms;
  std::string line;
  append_route_line(line, producer, update);
  return line.size();
}

}  // namespace

std::uint64_t estimate_trace_bytes(const Scenario& scenario) {
  std::map<std::string, const TopicSpec*> topics;
  for (const auto& topic : scenario.topics) topics[topic.name] = &topic;
  const std::string nameserver = nameserver_name(std::max(0, scenario.nameservers.count - 1));
  const std::int64_t t_ms = scenario.duration_ms;
  double bytes = 0.0;
  for (const auto& set : scenario.producers) {
    if (set.count <= 0 || set.topics.empty()) continue;
    const std::int64_t active_ms = std::max<std::int64_t>(0, t_ms - set.start.min_ms);
    const TraceProducer producer{set.name_prefix + "-" + std::to_string(set.count - 1),
                                 set.name_prefix};
    // Arrivals take the topics in turn, so each position gets an equal share of the sends.
    const double sends_per_topic = static_cast<double>(set.count) * set.rate_per_s *
                                   static_cast<double>(active_ms) / 1000.0 /
                                   static_cast<double>(set.topics.size());
    const std::int64_t polls =
        active_ms > kFirstPollDelayMs
            ? (active_ms - kFirstPollDelayMs - 1) / set.config.poll_name_server_interval + 1
            : 0;
    for (const auto& topic : set.topics) {
      const auto spec = topics.find(topic);
      const TopicSpec* found = spec == topics.end() ? nullptr : spec->second;
      bytes +=
          sends_per_topic * static_cast<double>(attempt_line_bytes(producer, found, topic, t_ms));
      bytes += static_cast<double>(set.count) * static_cast<double>(polls) *
               static_cast<double>(route_line_bytes(producer, topic, nameserver, t_ms));
    }
  }
  constexpr double kTooMany = 18446744073709551615.0;  // 2^64 - 1 rounds up to 2^64
  if (bytes >= kTooMany) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(std::ceil(bytes));
}

std::optional<std::uint64_t> parse_byte_count(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || text.size() > digits + 1) return std::nullopt;
  int shift = 0;
  if (digits < text.size()) {
    const std::string_view letters = kUnitLetters;
    const char letter = text[digits];
    const std::size_t at = letters.find(
        letter >= 'a' && letter <= 'z' ? static_cast<char>(letter - 'a' + 'A') : letter);
    if (at == std::string_view::npos) return std::nullopt;
    shift = 10 * static_cast<int>(at + 1);
  }
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (value == 0 || value > (kMax >> shift)) return std::nullopt;
  return value << shift;
}

std::string byte_count_text(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

std::string limit_to_allow(std::uint64_t bytes) {
  int shift = 0;
  while (shift < 40 && (bytes >> (shift + 10)) > 0) shift += 10;
  if (shift == 0) return std::to_string(bytes);
  const std::uint64_t unit = std::uint64_t{1} << shift;
  const std::uint64_t count = bytes / unit + (bytes % unit != 0 ? 1 : 0);
  return std::to_string(count) + kUnitLetters[shift / 10 - 1];
}

}  // namespace nssim::sim
