// File: the strict readings every subcommand's flags share, as CLI11 validators (a refusal is
// one line naming the flag and exit code 2, from main). CLI11's own conversion is lenient where
// nssim must not be: it reads "-1" as 2^64-1 for an unsigned seed, clamps 2^64, takes "0x10" and
// " 1", and lets an empty text mean "not given".
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/shard_files.h"

namespace nssim::cli {

// A decimal whole number in 0..2^64-1: digits only, no sign, no spaces, no base prefix.
std::optional<std::uint64_t> parse_decimal_u64(const std::string& text);

// --seed: parse_decimal_u64 must read it.
const CLI::Validator& seed_text();

// A count such as --jobs or --slurm-tasks: a decimal whole number in min..max.
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max);

// Upper bound of -j: far above any machine's cores, low enough that a typo (-j 10000000) is
// refused instead of forking that many runs at once.
inline constexpr std::uint64_t kMaxJobs = 1024;

// --shard "I/K" over `runs` runs; nullopt for the empty text (no --shard). A Refusal otherwise.
std::optional<ShardRange> parse_shard(const std::string& text, std::size_t runs);

// A path, a profile, a label: anything but the empty text.
const CLI::Validator& non_empty_text();

}  // namespace nssim::cli
