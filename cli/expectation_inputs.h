// File: a scenario's own expectations as the reports layer checks them, shared by `nssim run` and
// each run of `nssim sweep`, so a sweep's per-seed verdict is the one `nssim run` would give.
#pragma once

#include <vector>

#include "expectations.h"
#include "sim/scenario/scenario.h"

namespace nssim::cli {

inline std::vector<reports::ExpectationInput> expectation_inputs(const sim::Scenario& scenario) {
  std::vector<reports::ExpectationInput> inputs;
  for (const auto& e : scenario.expect) inputs.push_back({e.figure, e.op, e.value, e.source});
  return inputs;
}

}  // namespace nssim::cli
