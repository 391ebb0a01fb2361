// File: build_comparison (see compare_report.h): walks both documents together so that a figure
// present on one side only still gets a row, and ranks the changes.
#include "reports/compare/compare_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "reports/duration_text.h"

namespace nssim::reports {

namespace {

using nlohmann::json;

const json kNull = nullptr;

const json& member(const json& node, const std::string& key) {
  if (!node.is_object()) return kNull;
  const auto found = node.find(key);
  return found == node.end() ? kNull : *found;
}

const json& element(const json& node, std::size_t index) {
  if (!node.is_array() || index >= node.size()) return kNull;
  return node[index];
}

json make_row(const std::string& figure, const json& a, const json& b) {
  const json value_a = a.is_number() ? a : json(nullptr);
  const json value_b = b.is_number() ? b : json(nullptr);
  json difference = nullptr;
  json relative = nullptr;
  if (value_a.is_number() && value_b.is_number()) {
    const double from = value_a.get<double>();
    const double to = value_b.get<double>();
    if (value_a.is_number_integer() && value_b.is_number_integer()) {
      difference = value_b.get<std::int64_t>() - value_a.get<std::int64_t>();
    } else {
      difference = to - from;
    }
    // Rounded to 6 decimals so that the document carries no float noise yet keeps the sign of a
    // tiny move; adding 0.0 turns a rounded -0.0 into 0.
    if (from != 0) relative = std::round((to - from) / std::fabs(from) * 1e6) / 1e6 + 0.0;
    if (from == 0 && to == 0) relative = 0;
  }
  return {{"figure", figure},         {"a", value_a},         {"b", value_b},
          {"difference", difference}, {"relative", relative}, {"changed", value_a != value_b}};
}

// Appends a row for every leaf that is a number on at least one side, in document order (object
// keys sorted, array elements by index).
void collect_rows(const json& a, const json& b, const std::string& path, json& rows) {
  if (a.is_object() || b.is_object()) {
    std::set<std::string> keys;
    for (const json* side : {&a, &b}) {
      if (!side->is_object()) continue;
      for (const auto& [key, value] : side->items()) keys.insert(key);
    }
    for (const auto& key : keys) {
      collect_rows(member(a, key), member(b, key), path.empty() ? key : path + "." + key, rows);
    }
  } else if (a.is_array() || b.is_array()) {
    const std::size_t size = std::max(a.is_array() ? a.size() : 0, b.is_array() ? b.size() : 0);
    for (std::size_t i = 0; i < size; ++i) {
      collect_rows(element(a, i), element(b, i), path + "[" + std::to_string(i) + "]", rows);
    }
  } else if (a.is_number() || b.is_number()) {
    rows.push_back(make_row(path, a, b));
  }
}

std::string join_brokers(const json& brokers) {
  std::string text;
  for (const auto& broker : brokers) {
    if (!text.empty()) text += ", ";
    text += broker.is_string() ? broker.get<std::string>() : broker.dump();
  }
  return text;
}

std::string describe_outage(const json& outage) {
  if (!outage.is_object()) return "no outage";
  std::string text = member(outage, "kind").is_string() ? outage["kind"].get<std::string>() : "?";
  text += " of " + join_brokers(member(outage, "brokers"));
  text += " at " + duration_text(member(outage, "start_ms"), "?");
  return text;
}

json outage_sections(const json& a, const json& b, json& notes) {
  const json& outages_a = member(a, "outages");
  const json& outages_b = member(b, "outages");
  const std::size_t size_a = outages_a.is_array() ? outages_a.size() : 0;
  const std::size_t size_b = outages_b.is_array() ? outages_b.size() : 0;
  if (size_a != size_b) {
    notes.push_back("the outage lists differ (A has " + std::to_string(size_a) + ", B has " +
                    std::to_string(size_b) + "); outages are compared by index");
  }
  json sections = json::array();
  for (std::size_t i = 0; i < std::max(size_a, size_b); ++i) {
    const json& outage_a = element(outages_a, i);
    const json& outage_b = element(outages_b, i);
    const std::string desc_a = describe_outage(outage_a);
    const std::string desc_b = describe_outage(outage_b);
    const std::string prefix = "outages[" + std::to_string(i) + "]";
    if (desc_a != desc_b) {
      notes.push_back(prefix + " is " + desc_a + " in A but " + desc_b + " in B");
    }
    json rows = json::array();
    collect_rows(outage_a, outage_b, prefix, rows);
    sections.push_back({{"title", prefix + ": " + (outage_a.is_object() ? desc_a : desc_b)},
                        {"prefix", prefix + "."},
                        {"figures", rows}});
  }
  return sections;
}

void add_setting(json& settings, const std::string& name, const json& a, const json& b) {
  settings.push_back({{"name", name}, {"a", a}, {"b", b}, {"changed", a != b}});
}

json settings_rows(const json& a, const json& b) {
  json settings = json::array();
  for (const char* key : {"profile", "seed", "duration_ms"}) {
    add_setting(settings, key, member(member(a, "scenario"), key),
                member(member(b, "scenario"), key));
  }
  std::set<std::string> names;
  for (const json* side : {&a, &b}) {
    const json& values = member(*side, "settings");
    if (!values.is_object()) continue;
    for (const auto& [name, value] : values.items()) names.insert(name);
  }
  for (const auto& name : names) {
    add_setting(settings, name, member(member(a, "settings"), name),
                member(member(b, "settings"), name));
  }
  return settings;
}

json side(const json& report, const std::string& label) {
  const json& scenario = member(report, "scenario");
  const json& expectations = member(report, "expectations");
  return {{"label", label},
          {"profile", member(scenario, "profile")},
          {"seed", member(scenario, "seed")},
          {"verdict", member(report, "verdict")},
          {"expectations", expectations.is_array() ? expectations : json::array()}};
}

// How far a change moved, for ranking: a figure that appears, disappears or leaves 0 ranks first.
double move_size(const json& row) {
  if (!row["relative"].is_number()) return std::numeric_limits<double>::infinity();
  return std::fabs(row["relative"].get<double>());
}

double difference_size(const json& row) {
  return row["difference"].is_number() ? std::fabs(row["difference"].get<double>()) : 0.0;
}

// Whether a changed row moved by a practical size (practical_move); appearing or disappearing
// always does.
bool practical_row(const json& row) {
  if (!row["a"].is_number() || !row["b"].is_number()) return row["a"] != row["b"];
  return practical_move(row["figure"].get<std::string>(), row["a"].get<double>(),
                        row["b"].get<double>());
}

// The changed rows outside arrays and the server load that moved by a practical size; copies of
// one fact (the same A and B, as outages[0].sends.X and sends.X with one outage) are one entry,
// the shortest name, with the others in copies[].
json ranked_changes(const json& sections) {
  std::vector<json> changes;
  std::map<std::string, std::size_t> by_values;  // A and B -> index in changes
  for (const auto& section : sections) {
    const std::string prefix = section["prefix"].get<std::string>();
    for (const auto& row : section["figures"]) {
      const std::string figure = row["figure"].get<std::string>();
      const bool in_array = figure.find('[', prefix.size()) != std::string::npos;
      if (!row["changed"].get<bool>() || in_array || is_server_load_figure(figure) ||
          !practical_row(row)) {
        continue;
      }
      const std::string key = row["a"].dump() + " " + row["b"].dump();
      const auto found = by_values.find(key);
      if (found == by_values.end()) {
        by_values.emplace(key, changes.size());
        changes.push_back(row);
        continue;
      }
      json& kept = changes[found->second];
      std::string name = figure;
      if (name.size() < kept["figure"].get<std::string>().size()) {
        name = kept["figure"].get<std::string>();
        kept["figure"] = figure;
      }
      kept["copies"].push_back(name);
    }
  }
  std::stable_sort(changes.begin(), changes.end(), [](const json& x, const json& y) {
    if (move_size(x) != move_size(y)) return move_size(x) > move_size(y);
    return difference_size(x) > difference_size(y);
  });
  return changes;
}

// The answer first, as compare --seeds gives it (headline_figures): one run a side, so a figure
// has changed when it moved by a practical size (practical_move); there is no noise to judge.
json single_headline(const json& sections, std::size_t outages) {
  std::map<std::string, const json*> rows;
  std::optional<double> load_a, load_b;
  for (const auto& section : sections) {
    for (const auto& row : section["figures"]) {
      const std::string& figure = row["figure"].get_ref<const std::string&>();
      rows[figure] = &row;
      if (!is_route_load_of_one_nameserver(figure)) continue;
      if (row["a"].is_number()) load_a = std::max(load_a.value_or(0), row["a"].get<double>());
      if (row["b"].is_number()) load_b = std::max(load_b.value_or(0), row["b"].get<double>());
    }
  }
  json headline = json::array();
  const auto entry = [&headline](const std::string& what, const json& row) {
    const bool practical = row["a"].is_number() && row["b"].is_number()
                               ? practical_move(row["figure"].get<std::string>(),
                                                row["a"].get<double>(), row["b"].get<double>())
                               : row["a"] != row["b"];
    headline.push_back({{"what", what},
                        {"figure", row["figure"]},
                        {"a", row["a"]},
                        {"b", row["b"]},
                        {"difference", row["difference"]},
                        {"relative", row["relative"]},
                        {"practical", practical},
                        {"changed", row["changed"].get<bool>() && practical}});
  };
  for (const auto& [what, figure] : headline_figures(outages)) {
    const auto found = rows.find(figure);
    if (found != rows.end()) entry(what, *found->second);
  }
  if (load_a || load_b) {
    entry(kRouteLoadWhat, make_row(kRouteLoadFigure, load_a ? json(*load_a) : json(),
                                   load_b ? json(*load_b) : json()));
  }
  return headline;
}

void add_run_notes(const json& a, const json& b, json& notes) {
  const json& scenario_a = member(a, "scenario");
  const json& scenario_b = member(b, "scenario");
  if (member(scenario_a, "name") != member(scenario_b, "name")) {
    notes.push_back("the two reports are of different scenarios (" +
                    member(scenario_a, "name").dump() + ", " + member(scenario_b, "name").dump() +
                    ")");
  }
  if (member(scenario_a, "seed") != member(scenario_b, "seed")) {
    notes.push_back("the seeds differ, so part of every difference is chance");
  }
  if (member(scenario_a, "duration_ms") != member(scenario_b, "duration_ms")) {
    notes.push_back("the run lengths differ, so whole-run counts are not comparable");
  }
}

// `section` without its lists of items.
json without(const json& section, const std::vector<std::string>& lists) {
  json figures = section;
  if (figures.is_object()) {
    for (const std::string& list : lists) figures.erase(list);
  }
  return figures;
}

}  // namespace

bool is_server_load_figure(const std::string& figure) {
  return figure.rfind("nameserver_load.", 0) == 0 || figure.rfind("broker_load.", 0) == 0;
}

json build_comparison(const json& a, const json& b, const std::string& label_a,
                      const std::string& label_b) {
  json notes = json::array();
  add_run_notes(a, b, notes);
  json whole_run = json::array();
  for (const char* key : {"sends", "nameserver_disagreement"}) {
    collect_rows(member(a, key), member(b, key), key, whole_run);
  }
  // The statistics of route health, the client schedulers, the brokers' client tables and the
  // server load; their lists of items (and the load's bucket width) are not figures.
  struct Statistics {
    const char* key;
    std::vector<std::string> lists;
  };
  const Statistics sections_of_statistics[] = {
      {"route_health", {"route_windows", "missing_windows"}},
      {"client_scheduler", {"per_client", "heartbeats_by_broker", "removals"}},
      {"broker_clients", {"per_broker"}},
      {"nameserver_load", {"per_broker", "bucket_ms"}},
      {"broker_load", {"per_broker", "bucket_ms"}}};
  for (const Statistics& section : sections_of_statistics) {
    collect_rows(without(member(a, section.key), section.lists),
                 without(member(b, section.key), section.lists), section.key, whole_run);
  }
  json sections = json::array();
  sections.push_back({{"title", "whole run"}, {"prefix", ""}, {"figures", whole_run}});
  for (auto& section : outage_sections(a, b, notes)) sections.push_back(std::move(section));

  const json& scenario = member(a, "scenario");
  json comparison = {
      {"schema", kCompareSchema},
      {"scenario",
       {{"name", member(scenario, "name")},
        {"file", member(scenario, "file")},
        {"seed", member(scenario, "seed")},
        {"duration_ms", member(scenario, "duration_ms")}}},
      {"sides", json::array({side(a, label_a), side(b, label_b)})},
      {"settings", settings_rows(a, b)},
      {"notes", notes},
      {"sections", sections},
  };
  comparison["changes"] = ranked_changes(comparison["sections"]);
  const std::size_t outages =
      std::max(member(a, "outages").is_array() ? member(a, "outages").size() : 0,
               member(b, "outages").is_array() ? member(b, "outages").size() : 0);
  comparison["headline"] = single_headline(comparison["sections"], outages);
  return comparison;
}

}  // namespace nssim::reports
