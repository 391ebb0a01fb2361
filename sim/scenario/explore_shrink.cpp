// File: the shrink passes of explore_shrink.h. Every pass is deterministic, so a failing run
// shrinks to the same schedule wherever it is shrunk.
#include "sim/scenario/explore_shrink.h"

#include <algorithm>

namespace nssim::sim {

namespace {

using Json = nlohmann::ordered_json;

// Durations and starts are halved down to this, not further: below a second the shrink would
// spend runs on differences a scenario author does not read.
constexpr std::int64_t kShortestStepMs = 1000;

class Shrinker {
 public:
  Shrinker(std::size_t max_runs, const StillFails& still_fails)
      : max_runs_(max_runs), still_fails_(still_fails) {}

  // True when `candidate` was judged and still fails (it is then the current schedule).
  bool try_candidate(const Json& candidate, std::string change) {
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
      result_.faults = candidate;
    }
    return *fails;
  }

  // ddmin by complements: split into n chunks, keep the first complement that still fails
  // (n - 1 chunks then), else split finer, until n is the size and no single fault can go.
  void drop_faults() {
    std::size_t n = 2;
    while (!result_.faults.empty() && !result_.budget_spent) {
      const std::size_t size = result_.faults.size();
      n = std::min(n, size);
      bool reduced = false;
      for (std::size_t chunk = 0; chunk < n && !reduced; ++chunk) {
        const std::size_t begin = size * chunk / n;
        const std::size_t end = size * (chunk + 1) / n;
        Json complement = Json::array();
        for (std::size_t i = 0; i < size; ++i) {
          if (i < begin || i >= end) complement.push_back(result_.faults[i]);
        }
        reduced = try_candidate(complement, "drop " + range_text(begin, end) + " of " +
                                                std::to_string(size) + " faults");
      }
      if (reduced) {
        n = std::max<std::size_t>(n - 1, 2);
      } else if (n >= size) {
        return;
      } else {
        n = std::min(2 * n, size);
      }
    }
  }

  // Halves `key` of each fault (durations, or starts toward 0) while the failure stays.
  bool halve_each(const char* key) {
    bool changed = false;
    for (std::size_t i = 0; i < result_.faults.size(); ++i) {
      while (!result_.budget_spent && result_.faults[i].contains(key)) {
        const std::int64_t value = result_.faults[i][key].get<std::int64_t>();
        const std::int64_t half = value / 2;
        if (value - half < kShortestStepMs) break;
        Json candidate = result_.faults;
        candidate[i][key] = half;
        if (!try_candidate(candidate, "faults[" + std::to_string(i) + "]." + key + " " +
                                          std::to_string(value) + " -> " + std::to_string(half))) {
          break;
        }
        changed = true;
      }
    }
    return changed;
  }

  ShrinkResult run(const Json& faults) {
    result_.faults = faults;
    drop_faults();
    const bool shorter = halve_each("duration_ms");
    const bool earlier = halve_each("at_ms");
    // A shorter or earlier fault may have made another one unneeded.
    if (shorter || earlier) drop_faults();
    return std::move(result_);
  }

 private:
  static std::string range_text(std::size_t begin, std::size_t end) {
    std::string out = end - begin == 1 ? "fault " : "faults ";
    for (std::size_t i = begin; i < end; ++i) {
      out += (i == begin ? "" : ", ") + std::to_string(i);
    }
    return out;
  }

  std::size_t max_runs_;
  const StillFails& still_fails_;
  ShrinkResult result_;
};

}  // namespace

ShrinkResult shrink_faults(const nlohmann::ordered_json& faults, std::size_t max_runs,
                           const StillFails& still_fails) {
  return Shrinker(max_runs, still_fails).run(faults);
}

}  // namespace nssim::sim
