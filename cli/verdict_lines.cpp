// File: expectation lines and their colour (see verdict_lines.h).
#include "cli/verdict_lines.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace nssim::cli {

namespace {

constexpr const char* kGreen = "\033[32m";
constexpr const char* kRed = "\033[1;31m";
constexpr const char* kYellow = "\033[33m";
constexpr const char* kReset = "\033[0m";

const char* colour_of(const std::string& word) {
  if (word == "PASS" || word == "pass") return kGreen;
  if (word == "FAIL" || word == "ERROR") return kRed;
  if (word == "NONE") return kYellow;
  return nullptr;
}

}  // namespace

std::string expectation_line(bool passed, const std::string& source, const std::string& message) {
  return std::string(passed ? "  pass " : "  FAIL ") + source + ": " + message;
}

bool colour_wanted(bool terminal, const char* no_color, const char* term) {
  if (!terminal) return false;
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

bool colour_on_stdout() {
  return colour_wanted(::isatty(STDOUT_FILENO) != 0, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

std::string painted(const std::string& line, bool colour) {
  if (!colour) return line;
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string::npos) return line;
  const std::size_t end = line.find(' ', start);
  const std::string word = line.substr(start, end == std::string::npos ? end : end - start);
  const char* code = colour_of(word);
  if (code == nullptr) return line;
  return line.substr(0, start) + code + word + kReset + line.substr(start + word.size());
}

}  // namespace nssim::cli
