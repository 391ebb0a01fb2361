// File: a progress line for many short runs (sweep runs, Slurm tasks): done of total, the rate
// and the time left, rewritten in place on a terminal at most ten times a second, and nothing at
// all when stdout is not a terminal, so logs and pipes stay clean.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace nssim::cli {

class RateProgress {
 public:
  RateProgress(std::ostream& out, bool terminal, std::size_t total, std::string noun);

  // `done` of the total have finished.
  void update(std::size_t done);
  // Erases the line, so what follows starts on a clean one.
  void clear();
  // With a budget, the line counts runs done and the budget's seconds left (of a run that stops
  // when its time is spent, not when a count is done).
  void set_time_budget(double seconds) { budget_s_ = seconds; }
  // Seconds since construction.
  double elapsed_s() const;

 private:
  std::ostream& out_;
  bool terminal_;
  std::size_t total_;
  std::string noun_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_drawn_;
  bool shown_ = false;
  double budget_s_ = 0;  // 0: none
};

}  // namespace nssim::cli
