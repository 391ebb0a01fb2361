// File: build_seed_comparison (see compare_seeds.h): per figure, the two sides' distributions over
// the same seeds and a paired bootstrap of the difference in p50, p99 and the count of "never".
#include "reports/compare/compare_seeds.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "common/nearest_rank.h"
#include "common/random_bits.h"
#include "reports/compare/compare_report.h"
#include "reports/report_field.h"
#include "reports/sweep/sweep_figures.h"
#include "reports/sweep/sweep_stats.h"

namespace nssim::reports {

// Named, so that a unity build may put this file beside the single-seed comparison.
namespace seed_comparison {
namespace {

using nlohmann::json;
using Values = std::vector<std::optional<double>>;

// A splitmix64 stream named by the figure, so resampling gives the same draws on every machine
// and one figure's draws do not depend on which other figures the compare has.
class Resampler {
 public:
  explicit Resampler(const std::string& figure) : state_(fnv1a(figure)) {}
  std::size_t index(std::size_t n) {
    return static_cast<std::size_t>(uniform_below(n, [this] { return splitmix64(state_); }));
  }

 private:
  std::uint64_t state_;
};

Values values_of(const std::vector<SeedRecord>& records, const std::string& figure) {
  Values values;
  for (const auto& record : records) {
    const auto found = record.figures.find(figure);
    values.push_back(found == record.figures.end() ? std::nullopt : found->second);
  }
  return values;
}

// The p-th nearest-rank percentile of the present values, or nullopt when there are none.
std::optional<double> percentile(std::vector<double>& present, int p) {
  if (present.empty()) return std::nullopt;
  const std::size_t rank = nearest_rank(present.size(), p);
  std::nth_element(present.begin(), present.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                   present.end());
  return present[rank - 1];
}

struct Statistics {
  std::optional<double> p50, p99;
  double never = 0;
};

Statistics statistics_at(const Values& values, const std::vector<std::size_t>& seeds) {
  std::vector<double> present;
  Statistics s;
  for (const std::size_t seed : seeds) {
    if (values[seed]) {
      present.push_back(*values[seed]);
    } else {
      s.never += 1;
    }
  }
  s.p50 = percentile(present, 50);
  s.p99 = percentile(present, 99);
  return s;
}

std::optional<double> difference(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return std::nullopt;
  return *b - *a;
}

// The percentile interval of the resampled differences at kBootstrapLevel; null without any.
json interval_of(std::vector<double>& differences) {
  if (differences.empty()) return nullptr;
  std::sort(differences.begin(), differences.end());
  const double tail = (1 - kBootstrapLevel) / 2 * static_cast<double>(differences.size());
  const auto lo = static_cast<std::size_t>(std::floor(tail));
  const auto hi = differences.size() - 1 - lo;
  return json::array({figure_json(differences[lo]), figure_json(differences[hi])});
}

bool excludes_zero(const json& interval) {
  return interval.is_array() && (interval[0].get<double>() > 0 || interval[1].get<double>() < 0);
}

json side_statistics(const Values& values) {
  const Distribution d = distribution_of(values);
  const auto number = [](const std::optional<double>& v) { return v ? figure_json(*v) : json(); };
  return {{"n", d.n},
          {"never", d.never},
          {"p50", number(statistic(d, "p50"))},
          {"p99", number(statistic(d, "p99"))},
          {"mean", number(statistic(d, "mean"))}};
}

// Whether a move is big enough to matter (practical_move), beside whether it is beyond seed
// noise: the count of seeds without a value, or the p50 or the p99.
bool practical_move_of(const std::string& figure, const Statistics& a, const Statistics& b) {
  if (a.never != b.never) return true;
  for (const auto& [x, y] : {std::pair{a.p50, b.p50}, std::pair{a.p99, b.p99}}) {
    if (x.has_value() != y.has_value()) return true;
    if (x && practical_move(figure, *x, *y)) return true;
  }
  return false;
}

json figure_row(const std::string& figure, const Values& a, const Values& b) {
  std::vector<std::size_t> all(a.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const Statistics whole_a = statistics_at(a, all);
  const Statistics whole_b = statistics_at(b, all);
  std::size_t paired = 0;
  for (std::size_t i = 0; i < a.size(); ++i) paired += a[i] && b[i] ? 1 : 0;
  const bool identical = a == b;
  json interval = {{"p50", nullptr}, {"p99", nullptr}, {"never", nullptr}};
  if (!identical && !a.empty()) {
    std::vector<double> d50, d99, dnever;
    Resampler resampler(figure);
    std::vector<std::size_t> seeds(a.size());
    for (int r = 0; r < kBootstrapResamples; ++r) {
      for (auto& seed : seeds) seed = resampler.index(a.size());
      const Statistics sa = statistics_at(a, seeds);
      const Statistics sb = statistics_at(b, seeds);
      if (const auto d = difference(sa.p50, sb.p50)) d50.push_back(*d);
      if (const auto d = difference(sa.p99, sb.p99)) d99.push_back(*d);
      dnever.push_back(sb.never - sa.never);
    }
    interval = {
        {"p50", interval_of(d50)}, {"p99", interval_of(d99)}, {"never", interval_of(dnever)}};
  }
  const auto number = [](const std::optional<double>& v) { return v ? figure_json(*v) : json(); };
  const bool significant = excludes_zero(interval["p50"]) || excludes_zero(interval["p99"]) ||
                           excludes_zero(interval["never"]);
  const bool practical = practical_move_of(figure, whole_a, whole_b);
  return {{"figure", figure},
          {"a", side_statistics(a)},
          {"b", side_statistics(b)},
          {"difference",
           {{"p50", number(difference(whole_a.p50, whole_b.p50))},
            {"p99", number(difference(whole_a.p99, whole_b.p99))},
            {"never", figure_json(whole_b.never - whole_a.never)}}},
          {"interval", std::move(interval)},
          {"paired_seeds", paired},
          {"identical", identical},
          {"significant", significant},
          {"practical", practical},
          {"changed", significant && practical}};
}

// How far a significant change moved, for ranking: leaving or reaching "never" ranks first.
double move_size(const json& row) {
  double size = 0;
  for (const char* stat : {"p50", "p99"}) {
    const auto& from = row["a"][stat];
    const auto& to = row["b"][stat];
    if (from.is_null() != to.is_null()) return std::numeric_limits<double>::infinity();
    if (!from.is_number()) continue;
    const double base = std::fabs(from.get<double>());
    const double move = std::fabs(to.get<double>() - from.get<double>());
    size = std::max(size, base > 0 ? move / base : (move > 0 ? 1e9 : 0));
  }
  return size;
}

// The figures that are copies of one fact: the same value on every seed of both sides
// (outages[0].sends.X and sends.X with one outage). Each maps to the shortest name among its
// copies (then the first by name), which stands for them all in changes[].
// Figures of per-item lists (outages[0].nameservers[1].delay_ms) and of the server load are in the
// tables only, not in changes[].
bool listed_in_changes(const std::string& name) {
  const bool per_item = name.find("].", name.find(']') + 1) != std::string::npos;
  return !per_item && !is_server_load_figure(name);
}

std::map<std::string, std::string> canonical_names(const std::set<std::string>& names,
                                                   const SeedSide& a, const SeedSide& b) {
  std::map<std::string, std::string> key_of;
  std::map<std::string, std::string> first_by_values;
  for (const auto& name : names) {
    if (!listed_in_changes(name)) continue;
    json key = json::array();
    for (const auto* side : {&a, &b}) {
      for (const auto& v : values_of(side->records, name)) key.push_back(v ? json(*v) : json());
    }
    key_of[name] = key.dump();
    auto [at, fresh] = first_by_values.emplace(key_of[name], name);
    if (!fresh && name.size() < at->second.size()) at->second = name;
  }
  std::map<std::string, std::string> canonical;
  for (const auto& [name, key] : key_of) canonical[name] = first_by_values[key];
  return canonical;
}

json ranked_changes(const json& figures, const std::map<std::string, std::string>& canonical) {
  std::vector<json> changes;
  std::map<std::string, std::vector<std::string>> copies;
  for (const auto& row : figures) {
    const std::string& name = row["figure"].get_ref<const std::string&>();
    if (!row["changed"].get<bool>() || !listed_in_changes(name)) continue;
    const std::string& stands_for = canonical.at(name);
    if (stands_for != name) {
      copies[stands_for].push_back(name);
    } else {
      changes.push_back(row);
    }
  }
  for (auto& row : changes) {
    const auto found = copies.find(row["figure"].get<std::string>());
    if (found != copies.end()) row["copies"] = found->second;
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const json& x, const json& y) { return move_size(x) > move_size(y); });
  return changes;
}

std::vector<double> sorted_present(const Values& values) {
  std::vector<double> present;
  for (const auto& v : values) {
    if (v) present.push_back(*v);
  }
  std::sort(present.begin(), present.end());
  return present;
}

json cdf(const SeedSide& a, const SeedSide& b, const std::string& figure,
         const std::string& caption) {
  json values_a = json::array(), values_b = json::array();
  for (const double v : sorted_present(values_of(a.records, figure)))
    values_a.push_back(figure_json(v));
  for (const double v : sorted_present(values_of(b.records, figure)))
    values_b.push_back(figure_json(v));
  return {{"figure", figure}, {"caption", caption}, {"a", values_a}, {"b", values_b}};
}

json cdfs(const SeedSide& a, const SeedSide& b) {
  const auto& outages = field(field(a.sweep, "points")[0], "outages");
  json list = json::array();
  for (std::size_t i = 0; outages.is_array() && i < outages.size(); ++i) {
    const std::string prefix = outage_prefix(i);
    for (const auto& [figure, caption] : std::vector<std::pair<std::string, std::string>>{
             {prefix + "nameserver_drop_ms.max", "last NameServer drops the broker"},
             {prefix + "producers.stale_route_ms.max", "slowest producer's stale route"},
             {prefix + "route_health.lost.max", "longest lost route the outage opened"},
             {prefix + "sends.failed.total", "failed sends in the outage window"}}) {
      list.push_back(cdf(a, b, figure, caption));
    }
  }
  for (const auto& [figure, caption] : std::vector<std::pair<std::string, std::string>>{
           {"route_health.stale.max", "longest stale route of the run"},
           {"route_health.lost.max", "longest lost route of the run"},
           {"route_health.missing.max", "longest missing broker of the run"}}) {
    list.push_back(cdf(a, b, figure, caption));
  }
  for (const auto& headline : kSchedulerHeadlines) {
    json entry = cdf(a, b, headline.figure, headline.caption);
    if (!entry["a"].empty() || !entry["b"].empty()) list.push_back(std::move(entry));
  }
  return list;
}

// The busiest NameServer's GET_ROUTEINFO_BY_TOPIC requests per second on each seed: what a route
// poll setting costs each NameServer (issue 25's "price beside the benefit").
Values route_load_of_busiest(const std::vector<SeedRecord>& records) {
  Values values;
  for (const auto& record : records) {
    std::optional<double> busiest;
    for (const auto& [figure, value] : record.figures) {
      if (value && is_route_load_of_one_nameserver(figure)) {
        busiest = std::max(busiest.value_or(*value), *value);
      }
    }
    values.push_back(busiest);
  }
  return values;
}

// The answer first: the stale route, the failed sends, per outage the NameServers' drop and the
// producers' recovery, and the price in NameServer load, each once (reports/README.md).
json seed_headline(const json& figures, const SeedSide& a, const SeedSide& b) {
  std::map<std::string, const json*> rows;
  for (const auto& row : figures) rows[row["figure"].get<std::string>()] = &row;
  const auto& outages = field(field(a.sweep, "points")[0], "outages");
  const auto wanted = headline_figures(outages.is_array() ? outages.size() : 0);
  json headline = json::array();
  const auto entry = [](const std::string& what, const json& row) {
    json e = {{"what", what}};
    for (const char* key :
         {"figure", "a", "b", "difference", "significant", "practical", "changed"}) {
      e[key] = row[key];
    }
    return e;
  };
  for (const auto& [what, figure] : wanted) {
    const auto found = rows.find(figure);
    if (found == rows.end()) continue;
    headline.push_back(entry(what, *found->second));
  }
  const Values load_a = route_load_of_busiest(a.records);
  const Values load_b = route_load_of_busiest(b.records);
  const auto present = [](const Values& v) {
    return std::any_of(v.begin(), v.end(), [](const auto& x) { return x.has_value(); });
  };
  if (present(load_a) || present(load_b)) {
    headline.push_back(entry(kRouteLoadWhat, figure_row(kRouteLoadFigure, load_a, load_b)));
  }
  return headline;
}

json side_entry(const SeedSide& side) {
  const json& point = field(side.sweep, "points")[0];
  return {{"label", side.label},
          {"settings", side.settings},
          {"profile", field(point, "profile")},
          {"command", field(point, "command")},
          {"run_verdicts", field(point, "run_verdicts")}};
}

}  // namespace
}  // namespace seed_comparison

nlohmann::json build_seed_comparison(const SeedSide& a, const SeedSide& b) {
  using namespace seed_comparison;
  std::set<std::string> names;
  for (const auto* side : {&a, &b}) {
    for (const auto& record : side->records) {
      for (const auto& [figure, value] : record.figures) names.insert(figure);
    }
  }
  json figures = json::array();
  for (const auto& name : names) {
    figures.push_back(figure_row(name, values_of(a.records, name), values_of(b.records, name)));
  }
  json notes = json::array();
  if (field(a.sweep, "seeds") != field(b.sweep, "seeds")) {
    notes.push_back("the two sides ran different seeds, so they are not paired");
  }
  const std::string level = std::to_string(static_cast<int>(std::lround(kBootstrapLevel * 100)));
  json comparison = {
      {"schema", kCompareSeedsSchema},
      {"scenario", field(a.sweep, "scenario")},
      {"seeds", field(a.sweep, "seeds")},
      {"method",
       {{"name", "paired bootstrap over seeds"},
        {"resamples", kBootstrapResamples},
        {"level", kBootstrapLevel},
        {"statistics", {"p50", "p99", "never"}},
        {"text", "Both sides ran the same seeds. The seeds are resampled with replacement " +
                     std::to_string(kBootstrapResamples) +
                     " times, both sides together; a figure has changed when the " + level +
                     " % interval of the difference B - A in its p50, its p99 or its count of "
                     "seeds without a value leaves out 0."}}},
      {"sides", json::array({side_entry(a), side_entry(b)})},
      {"figures", figures},
      {"cdfs", cdfs(a, b)},
      {"notes", notes}};
  comparison["changes"] =
      seed_comparison::ranked_changes(comparison["figures"], canonical_names(names, a, b));
  comparison["headline"] = seed_headline(comparison["figures"], a, b);
  return comparison;
}

}  // namespace nssim::reports
