// File: libFuzzer target for the scenario loader with --set overrides. The input is a scenario
// file followed by --set values: everything before the first line starting "--set " is the JSON
// text, and each such line (up to the next one) is one PATH=VALUE, as `nssim run --set` passes
// it. Each input is loaded as `nssim run` loads it: with the file's profile, then with --profile
// 4.9 and 5.x; then come what `nssim run` works out before the world starts: the run's cost
// estimate, the check of its expectations' figures and, with --trace, the trace estimate. A bad
// input must give one ScenarioError of one line; any other exception, a crash or a sanitizer
// report is a finding (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nameserver_core/profile.h"
#include "sim/analysis/result_figures.h"
#include "sim/record/trace_budget.h"
#include "sim/scenario/run_cost.h"
#include "sim/scenario/scenario_loader.h"

namespace {

constexpr std::string_view kSetMarker = "\n--set ";

struct FuzzInput {
  std::string json_text;
  std::vector<std::string> set;
};

FuzzInput split(std::string_view input) {
  FuzzInput parts;
  // A leading marker without its line break means an empty document.
  const std::string text = "\n" + std::string(input);
  std::size_t at = text.find(kSetMarker);
  parts.json_text = at == std::string::npos ? text.substr(1) : text.substr(1, at == 0 ? 0 : at - 1);
  while (at != std::string::npos) {
    const std::size_t value = at + kSetMarker.size();
    at = text.find(kSetMarker, value);
    parts.set.push_back(text.substr(value, at == std::string::npos ? at : at - value));
  }
  return parts;
}

void load(const FuzzInput& input, std::optional<nssim::core::Profile> profile) {
  nssim::sim::LoadOptions options;
  options.profile = profile;
  options.set = input.set;
  try {
    const nssim::sim::Scenario scenario =
        nssim::sim::parse_scenario(input.json_text, "fuzz.json", options);
    (void)nssim::sim::estimate_trace_bytes(scenario);
    (void)nssim::sim::run_cost_text(nssim::sim::estimate_run_cost(scenario));
    for (const auto& expectation : scenario.expect) {
      (void)nssim::sim::unknown_figure(expectation.figure);
    }
  } catch (const nssim::sim::ScenarioError& error) {
    const std::string_view message = error.what();
    if (!message.empty() && message.find('\n') == std::string_view::npos) return;
    std::fprintf(stderr, "scenario_fuzz: not a one-line error: '%s'\n", error.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const FuzzInput input = split(std::string_view(reinterpret_cast<const char*>(data), size));
  load(input, std::nullopt);
  load(input, nssim::core::Profile::kV4_9);
  load(input, nssim::core::Profile::kV5);
  return 0;
}
