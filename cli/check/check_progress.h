// File: what `nssim check` prints while its scenarios run: each scenario's lines in scenario order
// (results that finish early wait for the ones before them, so the output is the same whatever
// the timing), and on a terminal a progress line that is rewritten in place.
#pragma once

#include <cstddef>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace nssim::cli {

class CheckProgress {
 public:
  // `names` are the scenarios in order; the progress line is shown only when `terminal`.
  CheckProgress(std::ostream& out, bool terminal, std::vector<std::string> names);

  void started(std::size_t index);
  // Stores the scenario's lines and prints every stored block whose predecessors are printed.
  void finished(std::size_t index, std::vector<std::string> lines);
  // Removes the progress line, so that what follows starts on a clean line.
  void clear();

 private:
  void redraw();

  std::ostream& out_;
  bool terminal_;
  std::vector<std::string> names_;
  std::vector<std::vector<std::string>> blocks_;
  std::vector<bool> done_;
  std::set<std::size_t> running_;
  std::size_t finished_count_ = 0;
  std::size_t next_to_print_ = 0;
  bool progress_shown_ = false;
};

// Columns of the terminal on stdout, or 80 when it cannot be told.
std::size_t terminal_columns();

}  // namespace nssim::cli
