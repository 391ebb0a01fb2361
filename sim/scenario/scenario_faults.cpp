// File: the fault timeline and expectations of a scenario. Targets are resolved here, once, to
// node names, so the runner never has to interpret "group" or "nameservers": "all" itself.
#include "sim/scenario/scenario_faults.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace nssim::sim::detail {

Directory make_directory(const Scenario& s) {
  Directory d;
  d.nameservers = nameserver_names(s);
  for (const auto& name : d.nameservers) d.role[name] = Role::kNameServer;
  for (const auto& broker : broker_nodes(s)) {
    d.role[broker.name] = Role::kBroker;
    d.groups[broker.group].push_back(broker.name);
  }
  for (const auto& producer : producer_nodes(s)) {
    d.role[producer.name] = Role::kProducer;
    d.producer_sets[s.producers[producer.spec_index].name_prefix].push_back(producer.name);
  }
  for (const auto& consumer : consumer_nodes(s)) {
    d.role[consumer.name] = Role::kConsumer;
    d.consumer_sets[s.consumers[consumer.spec_index].name_prefix].push_back(consumer.name);
  }
  // A set in another's instance names the processes it runs in: that set's.
  for (const auto& spec : s.producers) {
    if (spec.instance_of) {
      d.producer_sets[spec.name_prefix] =
          d.producer_sets[s.producers[*spec.instance_of].name_prefix];
    }
  }
  d.nodes = node_names(s);
  for (std::size_t i = 0; i < d.nodes.size(); ++i) d.position[d.nodes[i]] = i;
  return d;
}

bool is_process_kind(FaultKind kind) {
  return kind == FaultKind::kKill || kind == FaultKind::kPoweroff || kind == FaultKind::kShutdown ||
         kind == FaultKind::kPause;
}

bool is_admin_kind(FaultKind kind) {
  return kind == FaultKind::kWipeWritePerm || kind == FaultKind::kAddWritePerm ||
         kind == FaultKind::kUpdateTopic;
}

std::vector<std::string> resolve_side_entry(const std::string& name, const Directory& d) {
  if (name == "nameservers") return d.nameservers;
  if (name == "brokers" || name == "producers" || name == "consumers") {
    const Role wanted = name == "brokers"     ? Role::kBroker
                        : name == "producers" ? Role::kProducer
                                              : Role::kConsumer;
    std::vector<std::string> nodes;
    for (const auto& node : d.nodes) {
      if (d.role.at(node) == wanted) nodes.push_back(node);
    }
    return nodes;
  }
  if (auto group = d.groups.find(name); group != d.groups.end()) return group->second;
  if (auto set = d.producer_sets.find(name); set != d.producer_sets.end()) return set->second;
  if (auto set = d.consumer_sets.find(name); set != d.consumer_sets.end()) return set->second;
  if (d.role.count(name) != 0) return {name};
  return {};
}

std::string unknown_kind_message(const std::string& text) {
  std::vector<std::string> kinds;
  for (FaultKind kind : fault_kinds()) kinds.emplace_back(fault_kind_name(kind));
  const auto near = closest_name(text, kinds);
  return "unknown kind " + quote(text) +
         (near ? " (did you mean " + *near + "?)"
               : " (expected kill, poweroff, shutdown, pause, partition, latency, "
                 "wipeWritePerm, addWritePerm or updateTopic)");
}

namespace {

const std::vector<std::string> kAllFaultKeys = {
    "kind",  "at_ms",         "duration_ms",    "node",
    "group", "nameservers",   "nameserver",     "from",
    "to",    "one_way",       "latency_ms",     "broker_name",
    "topic", "readQueueNums", "writeQueueNums", "perm"};
const std::vector<std::string> kTargetKeys = {"node", "group", "nameserver", "nameservers"};

std::vector<std::string> allowed_keys(FaultKind kind) {
  std::vector<std::string> keys = {"kind", "at_ms"};
  auto add = [&keys](std::initializer_list<const char*> more) {
    keys.insert(keys.end(), more.begin(), more.end());
  };
  if (is_process_kind(kind) || kind == FaultKind::kLatency) {
    add({"duration_ms", "node", "group", "nameservers", "nameserver"});
  }
  if (kind == FaultKind::kLatency) add({"latency_ms"});
  if (kind == FaultKind::kPartition) add({"duration_ms", "from", "to", "one_way"});
  if (is_admin_kind(kind)) add({"broker_name"});
  if (kind == FaultKind::kUpdateTopic) add({"topic", "readQueueNums", "writeQueueNums", "perm"});
  return keys;
}

FaultKind read_kind(const Obj& f) {
  const std::string text = f.required_string("kind");
  if (auto kind = parse_fault_kind(text)) return *kind;
  f.fail_at("kind", unknown_kind_message(text));
}

void check_keys(const Obj& f, FaultKind kind) {
  const std::vector<std::string> allowed = allowed_keys(kind);
  for (const auto& item : f.json().items()) {
    const std::string& key = item.key();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    if (std::find(kAllFaultKeys.begin(), kAllFaultKeys.end(), key) != kAllFaultKeys.end()) {
      f.fail_at(key, std::string("not used by kind ") + fault_kind_name(kind));
    }
    f.fail_at(key, unknown_field_message(key, allowed));
  }
}

std::string no_such(const std::string& noun, const std::string& name,
                    const std::vector<std::string>& known) {
  const auto near = closest_name(name, known);
  return "no " + noun + " named " + quote(name) + (near ? " (did you mean " + *near + "?)" : "");
}

std::vector<std::string> keys_of(const std::map<std::string, std::vector<std::string>>& map) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : map) keys.push_back(key);
  return keys;
}

// node / group / nameserver / nameservers: exactly one.
std::vector<std::string> read_target(const Obj& f, FaultKind kind, const Directory& d) {
  std::vector<std::string> present;
  for (const auto& key : kTargetKeys) {
    if (f.has(key)) present.push_back(key);
  }
  if (present.empty()) f.fail_here("needs a target: node, group, nameserver or nameservers");
  if (present.size() > 1)
    f.fail_at(present[1], "give only one of node, group, nameserver, nameservers");
  const std::string& key = present[0];
  const std::string name = f.required_string(key);
  if (key == "nameservers") {
    if (name != "all") f.fail_at(key, "must be \"all\", got " + quote(name));
    return d.nameservers;
  }
  if (key == "nameserver") {
    if (std::find(d.nameservers.begin(), d.nameservers.end(), name) == d.nameservers.end()) {
      f.fail_at(key, "no NameServer named " + quote(name) + " (there are ns-0 to ns-" +
                         std::to_string(d.nameservers.size() - 1) + ")");
    }
    return {name};
  }
  if (key == "group") {
    auto group = d.groups.find(name);
    if (group == d.groups.end()) f.fail_at(key, no_such("broker group", name, keys_of(d.groups)));
    return group->second;
  }
  auto role = d.role.find(name);
  if (role == d.role.end()) f.fail_at(key, no_such("node", name, d.nodes));
  if (role->second == Role::kProducer && kind != FaultKind::kLatency) {
    f.fail_at(key, quote(name) + " is a producer; " + fault_kind_name(kind) +
                       " acts on NameServers and brokers");
  }
  return {name};
}

std::vector<std::string> read_side(const Obj& f, std::string_view key, const Directory& d) {
  const Json& list = read_array(f.file(), f.at(key), f.path(key));
  if (list.empty()) f.fail_at(key, "must not be empty");
  std::vector<std::string> nodes;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = index_path(f.path(key), i);
    const std::string name = read_string(f.file(), list[i], path);
    const bool keyword =
        name == "nameservers" || name == "brokers" || name == "producers" || name == "consumers";
    std::vector<std::string> resolved = resolve_side_entry(name, d);
    if (resolved.empty() && !keyword) {
      std::vector<std::string> known = d.nodes;
      for (const auto& group : keys_of(d.groups)) known.push_back(group);
      fail(f.file(), path, no_such("node, group or keyword", name, known));
    }
    nodes.insert(nodes.end(), resolved.begin(), resolved.end());
  }
  std::sort(nodes.begin(), nodes.end(), [&d](const std::string& a, const std::string& b) {
    return d.position.at(a) < d.position.at(b);
  });
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  if (nodes.empty()) f.fail_at(key, "names no node");
  return nodes;
}

// updateTopic's topic must be one of the scenario's, since producers only send to those; it may
// be new to the group (the topic then spreads to it) or change the group's queues and perm.
void read_topic_update(const Obj& f, const Scenario& s, FaultSpec& fault) {
  fault.topic = f.required_string("topic");
  std::vector<std::string> topics;
  for (const auto& topic : s.topics) topics.push_back(topic.name);
  if (std::find(topics.begin(), topics.end(), fault.topic) == topics.end())
    f.fail_at("topic", no_such("topic", fault.topic, topics));
  const auto queues = IntRange::at_least(0, kMaxQueueNums);
  fault.read_queue_nums = static_cast<int>(f.integer("readQueueNums", 8, queues));
  fault.write_queue_nums = static_cast<int>(f.integer("writeQueueNums", 8, queues));
  fault.perm = static_cast<int>(f.integer("perm", 6, IntRange::at_least(0, 7)));
}

FaultSpec read_fault(const Obj& f, const Scenario& s, const Directory& d) {
  FaultSpec fault;
  fault.kind = read_kind(f);
  check_keys(f, fault.kind);
  fault.at_ms = f.required_integer("at_ms", IntRange::at_least(0));
  if (fault.at_ms >= s.duration_ms) {
    f.fail_at("at_ms", "must be < duration_ms (" + std::to_string(s.duration_ms) + ")");
  }
  fault.duration_ms = f.optional_integer("duration_ms", IntRange::positive(kMaxRunMs));
  if (is_process_kind(fault.kind) || fault.kind == FaultKind::kLatency) {
    fault.nodes = read_target(f, fault.kind, d);
  }
  if (fault.kind == FaultKind::kLatency) {
    fault.latency_ms = read_number(f.file(), f.at("latency_ms"), f.path("latency_ms"), 0.0, false,
                                   kMaxFaultLatencyMs);
  }
  if (fault.kind == FaultKind::kPartition) {
    fault.side_a = read_side(f, "from", d);
    fault.side_b = read_side(f, "to", d);
    for (const auto& node : fault.side_b) {
      if (std::find(fault.side_a.begin(), fault.side_a.end(), node) != fault.side_a.end()) {
        f.fail_at("to", quote(node) + " is on both sides");
      }
    }
    fault.one_way = f.boolean("one_way", false);
  }
  if (is_admin_kind(fault.kind)) {
    fault.broker_name = f.required_string("broker_name");
    if (d.groups.count(fault.broker_name) == 0) {
      f.fail_at("broker_name", no_such("broker group", fault.broker_name, keys_of(d.groups)));
    }
  }
  if (fault.kind == FaultKind::kUpdateTopic) read_topic_update(f, s, fault);
  return fault;
}

// A node has one process state at a time, and one raised latency at a time.
void check_overlaps(const Scenario& s) {
  struct Window {
    std::int64_t begin;
    std::int64_t end;
    std::size_t index;
  };
  std::map<std::pair<bool, std::string>, std::vector<Window>> windows;
  for (const auto& fault : s.faults) {  // already sorted by at_ms, stable
    if (!is_process_kind(fault.kind) && fault.kind != FaultKind::kLatency) continue;
    const std::int64_t end = fault.duration_ms ? fault.at_ms + *fault.duration_ms : INT64_MAX;
    for (const auto& node : fault.nodes) {
      auto& list = windows[{fault.kind == FaultKind::kLatency, node}];
      if (!list.empty() && fault.at_ms < list.back().end) {
        fail(s.file, index_path("faults", fault.file_index),
             "overlaps faults[" + std::to_string(list.back().index) + "] on " + quote(node) +
                 (fault.kind == FaultKind::kLatency
                      ? " (one latency fault per node at a time)"
                      : " (one kill, poweroff, shutdown or pause per node at a time)"));
      }
      list.push_back(Window{fault.at_ms, end, fault.file_index});
    }
  }
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_ident_char(char c) {
  return is_ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// segment ("." segment)*, segment = ident ("[" digits "]")*; returns the end, or npos.
std::size_t scan_figure_path(const std::string& text, std::size_t i) {
  while (true) {
    if (i >= text.size() || !is_ident_start(text[i])) return std::string::npos;
    while (i < text.size() && is_ident_char(text[i])) ++i;
    while (i < text.size() && text[i] == '[') {
      const std::size_t digits = ++i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) ++i;
      if (i == digits || i >= text.size() || text[i] != ']') return std::string::npos;
      ++i;
    }
    if (i >= text.size() || text[i] != '.') return i;
    ++i;
  }
}

// JSON's number grammar, as schema.json's pattern spells it:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_number_text(const std::string& text) {
  std::size_t i = 0;
  auto digits = [&text, &i]() {
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) ++i;
    return i - start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

// "<figure> <op> <value>", or with `with_stat` "<figure>:<stat> <op> <value>".
Expectation parse_expectation(const std::string& file, const std::string& path,
                              const std::string& text, bool with_stat) {
  const std::string usage =
      with_stat ? "expected '<figure>:<stat> <op> <value>' with stat one of n never min p50 p90 "
                  "p99 max mean and op one of < <= > >= == != (e.g. "
                  "'outages[0].producers.stale_route_ms.max:p99 <= 150000'), got " +
                      quote(text)
                : "expected '<figure> <op> <value>' with op one of < <= > >= == != "
                  "(e.g. 'sends.failed.total == 0'), got " +
                      quote(text);
  std::size_t i = text.find_first_not_of(' ');
  const std::size_t figure_end = i == std::string::npos ? i : scan_figure_path(text, i);
  if (figure_end == std::string::npos) fail(file, path, usage);
  Expectation e{text.substr(i, figure_end - i), "", "", text, ""};
  i = figure_end;
  if (with_stat) {
    if (i >= text.size() || text[i] != ':') fail(file, path, usage);
    const std::size_t stat_end = text.find_first_of(" <>=!", i + 1);
    e.stat = text.substr(i + 1, stat_end == std::string::npos ? stat_end : stat_end - i - 1);
    const auto& stats = sweep_stat_names();
    if (std::find(stats.begin(), stats.end(), e.stat) == stats.end()) {
      fail(file, path,
           "unknown statistic " + quote(e.stat) +
               " (expected one of n never min p50 p90 p99 "
               "max mean)");
    }
    i = stat_end;
  }
  i = i == std::string::npos ? i : text.find_first_not_of(' ', i);
  for (const char* op : {"<=", ">=", "==", "!=", "<", ">"}) {
    if (i != std::string::npos && text.compare(i, std::char_traits<char>::length(op), op) == 0) {
      e.op = op;
      break;
    }
  }
  if (e.op.empty()) fail(file, path, usage);
  i = text.find_first_not_of(' ', i + e.op.size());
  const std::size_t last = text.find_last_not_of(' ');
  e.value = i == std::string::npos ? "" : text.substr(i, last + 1 - i);
  const bool predicted =
      e.value.rfind("predicted.", 0) == 0 && scan_figure_path(e.value, 0) == e.value.size();
  if (!predicted && !is_number_text(e.value)) {
    fail(file, path, "the value must be a number or a predicted.* figure, got " + quote(e.value));
  }
  return e;
}

std::vector<Expectation> read_expectation_list(const std::string& file, const Json& value,
                                               const std::string& path, bool with_stat) {
  std::vector<Expectation> expectations;
  const Json& list = read_array(file, value, path);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = index_path(path, i);
    expectations.push_back(
        parse_expectation(file, item, read_string(file, list[i], item), with_stat));
  }
  return expectations;
}

}  // namespace

void read_faults(const Obj& root, Scenario& scenario) {
  if (!root.has("faults")) return;
  const Json& list = read_array(scenario.file, root.at("faults"), "faults");
  const Directory directory = make_directory(scenario);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Obj f(scenario.file, list[i], index_path("faults", i));
    scenario.faults.push_back(read_fault(f, scenario, directory));
    scenario.faults.back().file_index = i;
  }
  std::stable_sort(scenario.faults.begin(), scenario.faults.end(),
                   [](const FaultSpec& a, const FaultSpec& b) { return a.at_ms < b.at_ms; });
  check_overlaps(scenario);
}

void read_expectations(const Obj& root, Scenario& scenario) {
  if (root.has("expect")) {
    scenario.expect = read_expectation_list(scenario.file, root.at("expect"), "expect", false);
  }
  if (!root.has("sweep")) return;
  const Obj sweep(scenario.file, root.at("sweep"), "sweep");
  sweep.allow({"seeds", "expect"});
  SweepSpec spec;
  spec.seeds = sweep.optional_integer("seeds", IntRange::positive(kMaxSweepSeeds));
  if (sweep.has("expect")) {
    spec.expect =
        read_expectation_list(scenario.file, sweep.at("expect"), sweep.path("expect"), true);
  }
  scenario.sweep = std::move(spec);
}

}  // namespace nssim::sim::detail
