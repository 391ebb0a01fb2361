// File: the built-in properties of `nssim explore`: rules RocketMQ's design says hold for any
// fault schedule, each read from figures result.json already has (reports/README.md#explore).
// A property is instantiated for one run as expectation lines a scenario's "expect" could hold,
// so it is judged by the one judgement of every run (cli/expectation_inputs.h) and written into a
// counterexample as it is.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace nssim::sim {

struct PropertyLines {
  std::string name;                 // "nameserver_removal_within_ceiling"
  std::vector<Expectation> expect;  // empty when the property does not apply to this run
};

// The built-in properties' names, in the order they are judged.
const std::vector<std::string>& built_in_property_names();

// How long after the last fault heals routes_restored_after_heal expects every producer to hold
// every group again: one registration period, the route request's timeout and one poll period of
// `settings` (result.json's).
std::int64_t routes_settled_after_heal_ms(const nlohmann::json& settings);

// Every built-in property instantiated for the run whose result.json is `result`, in
// built_in_property_names() order.
std::vector<PropertyLines> built_in_properties(const nlohmann::json& result);

}  // namespace nssim::sim
