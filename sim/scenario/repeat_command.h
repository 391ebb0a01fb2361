// File: the `nssim run` command line that repeats a run exactly: the scenario, its profile, every
// --set override and the seed, each word quoted for a POSIX shell where it needs to be.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nssim::sim {

// `word` as a shell reads it back: unchanged when it holds only safe characters, else in single
// quotes ("producers[0].x=1" has brackets, which a shell would glob).
std::string shell_word(const std::string& word);

// "nssim run FILE --profile P [--set S]... [--seed N]".
std::string run_command_line(const std::string& file, const std::string& profile,
                             const std::vector<std::string>& set,
                             std::optional<std::uint64_t> seed);

}  // namespace nssim::sim
