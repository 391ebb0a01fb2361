// File: CheckProgress (see check_progress.h). The progress line is cut to the terminal's width:
// a line that wraps could not be rewritten with a carriage return.
#include "cli/check/check_progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <utility>

namespace nssim::cli {

std::size_t terminal_columns() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

CheckProgress::CheckProgress(std::ostream& out, bool terminal, std::vector<std::string> names)
    : out_(out),
      terminal_(terminal),
      names_(std::move(names)),
      blocks_(names_.size()),
      done_(names_.size(), false) {}

void CheckProgress::started(std::size_t index) {
  running_.insert(index);
  redraw();
}

void CheckProgress::finished(std::size_t index, std::vector<std::string> lines) {
  running_.erase(index);
  blocks_[index] = std::move(lines);
  done_[index] = true;
  ++finished_count_;
  if (next_to_print_ < done_.size() && done_[next_to_print_]) clear();
  while (next_to_print_ < done_.size() && done_[next_to_print_]) {
    for (const auto& line : blocks_[next_to_print_]) out_ << line << "\n";
    blocks_[next_to_print_].clear();
    ++next_to_print_;
  }
  redraw();
}

void CheckProgress::clear() {
  if (!progress_shown_) return;
  out_ << "\r\033[K" << std::flush;  // carriage return, then erase to the end of the line
  progress_shown_ = false;
}

void CheckProgress::redraw() {
  if (!terminal_ || running_.empty()) {
    clear();
    out_ << std::flush;
    return;
  }
  std::string line =
      "[" + std::to_string(finished_count_) + "/" + std::to_string(names_.size()) + "] running:";
  const char* separator = " ";
  for (const std::size_t index : running_) {
    line += separator + names_[index];
    separator = ", ";
  }
  const std::size_t width = terminal_columns();
  if (line.size() >= width) line = line.substr(0, width > 4 ? width - 4 : 0) + "...";
  out_ << "\r\033[K" << line << std::flush;
  progress_shown_ = true;
}

}  // namespace nssim::cli
