// File: the simulator's own pseudo-random numbers: xoshiro256** seeded through splitmix64, with
// portable distributions (no std:: distributions, whose output differs between libraries). One
// seed, many independent named streams, so adding a producer does not reshuffle the faults.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace nssim::sim {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  // An independent stream for `purpose` (e.g. "start/ns-0", "producer/producer-3").
  static Rng derive(std::uint64_t seed, std::string_view purpose);

  std::uint64_t next_u64();
  // Uniform in [0, bound) by rejection; bound > 0.
  std::uint64_t uniform_u64(std::uint64_t bound);
  // Uniform in [lo, hi], inclusive.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);
  // Uniform in [0, 1) with 53 random bits.
  double uniform_01();
  // Exponential with the given rate (events per unit), via -log1p(-u) / rate.
  double exponential(double rate);
  // Java's Random#nextInt() range, for ThreadLocalIndex seeds: uniform in [-2^31, 2^31).
  std::int32_t next_int32();

  template <typename T>
  void shuffle(std::vector<T>& items) {  // Fisher-Yates
    for (std::size_t i = items.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(uniform_u64(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  std::uint64_t s_[4];
};

}  // namespace nssim::sim
