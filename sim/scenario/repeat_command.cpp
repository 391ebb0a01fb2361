// File: shell_word and run_command_line (see repeat_command.h).
#include "sim/scenario/repeat_command.h"

namespace nssim::sim {

std::string shell_word(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-+./=:,@%") == std::string::npos;
  if (safe) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string run_command_line(const std::string& file, const std::string& profile,
                             const std::vector<std::string>& set,
                             std::optional<std::uint64_t> seed) {
  std::string line = "nssim run " + shell_word(file) + " --profile " + shell_word(profile);
  for (const auto& assignment : set) line += " --set " + shell_word(assignment);
  if (seed) line += " --seed " + std::to_string(*seed);
  return line;
}

}  // namespace nssim::sim
