// Profile names and DataVersion equality, the two things every other rule branches on.
#include "nameserver_core/profile.h"

#include <gtest/gtest.h>

#include "nameserver_core/route_types.h"

namespace nssim::core {
namespace {

TEST(Profile, NamesRoundTrip) {
  EXPECT_EQ(parse_profile("4.9"), Profile::kV4_9);
  EXPECT_EQ(parse_profile("5.x"), Profile::kV5);
  EXPECT_FALSE(parse_profile("5.0").has_value());
  EXPECT_STREQ(profile_name(Profile::kV4_9), "4.9");
  EXPECT_STREQ(profile_name(Profile::kV5), "5.x");
}

TEST(Profile, DefaultRequestVersionIsTheNewestReleaseOrdinal) {
  EXPECT_EQ(default_request_version(Profile::kV4_9), 409);
  EXPECT_EQ(default_request_version(Profile::kV5), 479);
}

TEST(DataVersion, StateVersionCountsOnlyIn5x) {
  const DataVersion a{100, 1, 0};
  const DataVersion b{100, 1, 7};
  EXPECT_TRUE(data_version_equals(a, b, Profile::kV4_9));
  EXPECT_FALSE(data_version_equals(a, b, Profile::kV5));
  EXPECT_FALSE(data_version_equals(a, DataVersion{100, 2, 0}, Profile::kV4_9));
  EXPECT_FALSE(data_version_equals(a, DataVersion{101, 1, 0}, Profile::kV5));
}

}  // namespace
}  // namespace nssim::core
