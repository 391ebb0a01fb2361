// File: NSSIM_CHECK, the one way nssim states a programmer's invariant: when it does not hold the
// program says where and what, and aborts (a model in a state upstream cannot reach would give
// figures nobody can trust). Bad input is never checked this way: it gets a one-line error, exit 2.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace nssim {

[[noreturn]] inline void invariant_failed(const char* file, int line, const char* what) {
  std::fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
  std::abort();
}

}  // namespace nssim

// Checked in every build type: the checks are cheap beside a simulated event.
#define NSSIM_CHECK(condition, what) \
  ((condition) ? static_cast<void>(0) : ::nssim::invariant_failed(__FILE__, __LINE__, what))
