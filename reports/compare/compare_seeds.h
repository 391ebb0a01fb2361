// File: the comparison of two settings over the same seeds (`nssim compare --seeds N`): per
// figure both distributions side by side, and whether they differ beyond seed noise, judged by a
// paired bootstrap over seeds. Pure and deterministic: the resampling has its own fixed stream per
// figure, so the same runs always give the same verdicts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/sweep/sweep_figures.h"

namespace nssim::reports {

inline constexpr const char* kCompareSeedsSchema = "nssim.compare-seeds/1";
// Resamples of the seeds per figure, and the two-sided level of the intervals: 99 % rather than
// 95 % because a comparison judges a hundred figures at once, and at 95 % about five of them
// would be flagged by chance alone.
inline constexpr int kBootstrapResamples = 2000;
inline constexpr double kBootstrapLevel = 0.99;

struct SeedSide {
  std::string label;
  std::vector<std::string> settings;  // NAME=VALUE as given
  nlohmann::json sweep;               // the side's sweep.json (one point)
  std::vector<SeedRecord> records;    // one per seed, the same seeds on both sides
};

// The layout (reports/README.md): schema, scenario, seeds, method {name, resamples, level,
// statistics, text}, sides[2] {label, settings, profile, run_verdicts}, figures[] {figure, a, b
// (each n, never, p50, p99, mean), difference {p50, p99, never} (B - A), interval {p50, p99,
// never} ([lo, hi] or null), paired_seeds, identical, significant}, changes[] (the significant
// figures outside per-NameServer lists, biggest relative move of p50 or p99 first), cdfs[]
// {figure, caption, a, b (sorted values)} for the headline windows, notes[], headline[] {what,
// figure, a, b, difference, significant, practical, changed}; a figure row also has practical
// and changed (significant and practical), and a change its copies[].
nlohmann::json build_seed_comparison(const SeedSide& a, const SeedSide& b);

std::string render_seed_comparison_markdown(const nlohmann::json& comparison);
std::string render_seed_comparison_html(const nlohmann::json& comparison);

// One change as the terminal prints it: "figure: p50 A -> B (CI lo .. hi), p99 A -> B (...)".
std::string format_seed_change(const nlohmann::json& row);

}  // namespace nssim::reports
