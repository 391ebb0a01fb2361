// Pretty JSON text written from shared member texts: the same bytes as nlohmann's dump(2).
#include "reports/json_text.h"

#include <gtest/gtest.h>

namespace nssim::reports {
namespace {

// Nested objects and arrays, empty ones, escapes, non-ASCII text and every number kind.
const nlohmann::json kObject = nlohmann::json::parse(R"({
  "b": {"list": [1, -2, 3.5, {"deep": [[], {}]}], "empty": {}, "none": null},
  "a": "line\nbreak \"quoted\" \u00e9 \u2192",
  "c": [true, false, 18446744073709551615, -9223372036854775808, 1e-7],
  "key \"with\" quotes\n": []
})");

TEST(JsonText, WithoutSharedTextsIsDumpWithIndentTwo) {
  EXPECT_EQ(object_text(kObject, {}), kObject.dump(2));
}

TEST(JsonText, FromItsOwnMemberTextsIsDumpWithIndentTwo) {
  EXPECT_EQ(object_text(kObject, member_texts(kObject)), kObject.dump(2));
}

TEST(JsonText, MemberTextsAreIndentedOneLevelDeeper) {
  const auto texts = member_texts(nlohmann::json::parse(R"({"o": {"x": [1]}, "s": "v"})"));
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts.at("o"), "{\n    \"x\": [\n      1\n    ]\n  }");
  EXPECT_EQ(texts.at("s"), "\"v\"");
}

TEST(JsonText, ASharedTextIsTakenAsItIsAndTheOthersAreWritten) {
  const auto object = nlohmann::json::parse(R"({"a": 1, "b": [2]})");
  EXPECT_EQ(object_text(object, {{"a", "TEXT"}}), "{\n  \"a\": TEXT,\n  \"b\": [\n    2\n  ]\n}");
}

TEST(JsonText, AnEmptyObjectIsTwoBraces) {
  EXPECT_EQ(object_text(nlohmann::json::object(), {}), "{}");
}

}  // namespace
}  // namespace nssim::reports
