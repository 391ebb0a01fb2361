// File: the bits both of nssim's generators are made of: splitmix64, FNV-1a for naming a stream,
// and uniform draws below a bound by rejection. The model's Rng (sim/scenario/rng.h) is
// xoshiro256** seeded through splitmix64; a compare's bootstrap resamples from a splitmix64 stream
// named by its figure. Fixed arithmetic, so every machine draws the same numbers.
#pragma once

#include <cstdint>
#include <string_view>

namespace nssim {

// One step of splitmix64 (Steele, Lea and Flood): advances `state` and returns its next output.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// 64-bit FNV-1a of `text`.
constexpr std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// Uniform in [0, bound), bound > 0, from 64-bit draws of `next`: rejects the 2^64 mod bound lowest
// values, which would make some residues more likely (Lemire's threshold).
template <typename NextU64>
std::uint64_t uniform_below(std::uint64_t bound, NextU64&& next) {
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t value = next();
    if (value >= threshold) return value % bound;
  }
}

}  // namespace nssim
