// File: Refusal, the one way nssim's commands refuse bad input (a flag, a file, an output folder,
// a cost over its limit): thrown where the problem is found, as one line without the command's
// name, and caught once per command by run_refusing (commands.h), which prints
// "nssim <command>: <message>" on stderr and exits 2. The scenario loader's own sim::ScenarioError
// is caught there the same way.
#pragma once

#include <string>

#include "sim/scenario/scenario_error.h"

namespace nssim::cli {

struct Refusal {
  std::string message;
};

// Runs `body`; a Refusal or sim::ScenarioError it throws comes out as a Refusal whose message
// starts with `context` (the flag or side it concerns, e.g. "--out: ").
template <class Body>
auto in_context(const std::string& context, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Refusal& refusal) {
    throw Refusal{context + refusal.message};
  } catch (const sim::ScenarioError& error) {
    throw Refusal{context + error.what()};
  }
}

}  // namespace nssim::cli
