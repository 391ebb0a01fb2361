// File: RateProgress (see rate_progress.h).
#include "cli/rate_progress.h"

#include <cstdio>

namespace nssim::cli {

RateProgress::RateProgress(std::ostream& out, bool terminal, std::size_t total, std::string noun)
    : out_(out),
      terminal_(terminal),
      total_(total),
      noun_(std::move(noun)),
      start_(std::chrono::steady_clock::now()),
      last_drawn_(start_) {}

double RateProgress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void RateProgress::update(std::size_t done) {
  if (!terminal_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && done < total_ && now - last_drawn_ < std::chrono::milliseconds(100)) return;
  last_drawn_ = now;
  const double elapsed = elapsed_s();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  char line[160];
  if (budget_s_ > 0) {
    std::snprintf(line, sizeof line, "[%zu] %s, %.1f/s, %.0f s left", done, noun_.c_str(), rate,
                  budget_s_ > elapsed ? budget_s_ - elapsed : 0.0);
  } else if (rate > 0) {
    std::snprintf(line, sizeof line, "[%zu/%zu] %s, %.1f/s, %.0f s left", done, total_,
                  noun_.c_str(), rate, static_cast<double>(total_ - done) / rate);
  } else {
    std::snprintf(line, sizeof line, "[%zu/%zu] %s", done, total_, noun_.c_str());
  }
  out_ << "\r\033[K" << line << std::flush;
  shown_ = true;
}

void RateProgress::clear() {
  if (!shown_) return;
  out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

}  // namespace nssim::cli
