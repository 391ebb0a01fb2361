// File: xoshiro256** (Blackman and Vigna) seeded with splitmix64, and the distributions built on
// it.
#include "sim/scenario/rng.h"

#include <cmath>

#include "common/random_bits.h"

namespace nssim::sim {

namespace {

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Rng::Rng(std::uint64_t seed) {
  std::uint64_t state = seed;
  for (auto& word : s_) word = splitmix64(state);
}

Rng Rng::derive(std::uint64_t seed, std::string_view purpose) {
  std::uint64_t state = seed;
  const std::uint64_t mixed = splitmix64(state) ^ fnv1a(purpose);
  return Rng(mixed);
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::uniform_u64(std::uint64_t bound) {
  return uniform_below(bound, [this] { return next_u64(); });
}

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) {
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == UINT64_MAX) return static_cast<std::int64_t>(next_u64());
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + uniform_u64(span + 1));
}

double Rng::uniform_01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Rng::exponential(double rate) { return -std::log1p(-uniform_01()) / rate; }

std::int32_t Rng::next_int32() { return static_cast<std::int32_t>(next_u64() >> 32); }

}  // namespace nssim::sim
