// File: ScenarioError, the one kind of bad scenario input: from a syntax error to a fault naming a
// node that does not exist, one line "<file>: <json path>: <what was expected>".
#pragma once

#include <stdexcept>

namespace nssim::sim {

// Bad input. what() is a single line, e.g.
// "scenarios/x.json: faults[2].at_ms: must be >= 0".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace nssim::sim
