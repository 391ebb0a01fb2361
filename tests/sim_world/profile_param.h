// The test name suffix of a test parameterized by profile alone: "V49" or "V5x".
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "nameserver_core/profile.h"

namespace nssim::sim::testing {

inline std::string profile_param_name(const ::testing::TestParamInfo<core::Profile>& info) {
  return info.param == core::Profile::kV4_9 ? "V49" : "V5x";
}

}  // namespace nssim::sim::testing
