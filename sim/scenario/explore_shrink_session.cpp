// File: the shrink session (explore_shrink_session.h).
#include "sim/scenario/explore_shrink_session.h"

namespace nssim::sim::shrink {

ShrinkSession::ShrinkSession(const Json& document, std::size_t max_runs,
                             const StillFails& still_fails)
    : max_runs_(max_runs), still_fails_(still_fails) {
  result_.document = document;
  if (!result_.document.contains("faults")) result_.document["faults"] = Json::array();
}

bool ShrinkSession::try_candidate(const Json& candidate, std::string change) {
  if (!proposed_.insert(candidate.dump()).second) return false;
  if (result_.runs >= max_runs_) {
    result_.budget_spent = true;
    return false;
  }
  const std::optional<bool> fails = still_fails_(candidate);
  if (!fails) return false;
  ++result_.runs;
  result_.steps.push_back({std::move(change), *fails});
  if (*fails) {
    ++result_.kept;
    result_.document = candidate;
  }
  return *fails;
}

}  // namespace nssim::sim::shrink
