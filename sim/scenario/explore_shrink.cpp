// File: the shrink of explore_shrink.h: the order its passes run in. Every pass is
// deterministic, so a failing run shrinks to the same scenario wherever it is shrunk.
#include "sim/scenario/explore_shrink.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "sim/scenario/explore_shrink_passes.h"

namespace nssim::sim {

std::int64_t started_by_ms(const Scenario& scenario) {
  std::int64_t last = scenario.nameservers.start.max_ms;
  for (const auto& group : scenario.broker_groups) last = std::max(last, group.start.max_ms);
  for (const auto& producer : scenario.producers) last = std::max(last, producer.start.max_ms);
  return last;
}

ShrinkResult shrink_scenario(const nlohmann::ordered_json& document, const ShrinkOptions& options,
                             const StillFails& still_fails) {
  shrink::ShrinkSession session(document, options.max_runs, still_fails);
  // Fewer faults first (each later pass then costs fewer candidates), the cluster before the
  // times (its smaller runs are cheaper), shorter faults before they are pulled apart (a shorter
  // one moves less far) and before the starts are pulled earlier (which keeps them apart). Once a
  // pass changed something another may find more, so the passes go round again, each skipped where
  // it left the scenario as it is now (it would find nothing again). The last round changes
  // nothing: its scenario is one ddmin left, 1-minimal.
  struct Pass {
    std::function<bool(shrink::ShrinkSession&)> run;
    std::string left;  // the scenario as this pass last left it
  };
  std::vector<Pass> passes = {
      {shrink::drop_faults, {}},
      {shrink::merge_overlapping_faults, {}},
      {shrink::reduce_cluster, {}},
      {[](shrink::ShrinkSession& s) { return shrink::lower_each(s, "duration_ms", 0); }, {}},
      {shrink::pull_apart, {}},
      {[&options](shrink::ShrinkSession& s) {
         return shrink::shift_schedule_earlier(s, options.earliest_start_ms);
       },
       {}},
      {[&options](shrink::ShrinkSession& s) {
         return shrink::lower_each(s, "at_ms", options.earliest_start_ms);
       },
       {}},
      {[&options](shrink::ShrinkSession& s) { return shrink::shorten_run(s, options.settle_ms); },
       {}}};
  bool changed = true;
  while (changed && !session.budget_spent()) {
    changed = false;
    for (auto& pass : passes) {
      if (session.document().dump() == pass.left) continue;
      changed = pass.run(session) || changed;
      pass.left = session.document().dump();
    }
  }
  return session.take();
}

}  // namespace nssim::sim
