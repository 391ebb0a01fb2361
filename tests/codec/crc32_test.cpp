// crc32 against java.util.zip.CRC32's values.
#include "nameserver_codec/crc32.h"

#include <gtest/gtest.h>

namespace nssim::codec {
namespace {

TEST(Crc32, MatchesTheStandardCheckValue) {
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);  // CRC-32/ISO-HDLC check value
}

TEST(Crc32, EmptyInputIsZero) { EXPECT_EQ(crc32(""), 0u); }

TEST(Crc32, KnownJavaValues) {
  // new CRC32().update("The quick brown fox jumps over the lazy dog".getBytes())
  EXPECT_EQ(crc32("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  EXPECT_EQ(crc32(std::string_view("\0", 1)), 0xD202EF8Du);
  EXPECT_EQ(crc32("a"), 0xE8B7BE43u);
}

}  // namespace
}  // namespace nssim::codec
