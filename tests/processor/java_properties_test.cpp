// string_to_properties against java.util.Properties#load (JDK 8) and properties_to_string against
// MixAll#properties2String.
#include "nameserver_core/java_properties.h"

#include <gtest/gtest.h>

namespace nssim::core {
namespace {

using Properties = std::map<std::string, std::string>;

Properties load(const std::string& text) {
  auto properties = string_to_properties(text);
  EXPECT_TRUE(properties.has_value()) << text;
  return properties.value_or(Properties{});
}

TEST(JavaProperties, SeparatorsAreEqualsColonOrWhitespace) {
  EXPECT_EQ(load("a=1\nb:2\nc 3\nd\t=\t4\ne = : 5\nf\n"),
            (Properties{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"e", ": 5"}, {"f", ""}}));
}

TEST(JavaProperties, CommentsBlankLinesAndIndentAreSkipped) {
  EXPECT_EQ(load("# comment\n! also\n\n   \n   key = value  \r\n"),
            (Properties{{"key", "value  "}}));
}

TEST(JavaProperties, LineEndsAreLfCrOrCrLf) {
  EXPECT_EQ(load("a=1\rb=2\r\nc=3"), (Properties{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
}

TEST(JavaProperties, BackslashContinuesALineAndDropsTheNextIndent) {
  EXPECT_EQ(load("list=a,\\\n    b,\\\r\n  c\n"), (Properties{{"list", "a,b,c"}}));
  EXPECT_EQ(load("even=x\\\\\nnext=y"), (Properties{{"even", "x\\"}, {"next", "y"}}));
  EXPECT_EQ(load("last=z\\"), (Properties{{"last", "z"}}));  // a backslash at the end is dropped
}

TEST(JavaProperties, CommentLinesDoNotContinue) {
  EXPECT_EQ(load("# note \\\nkey=value"), (Properties{{"key", "value"}}));
}

TEST(JavaProperties, EscapesInKeysAndValues) {
  EXPECT_EQ(load("a\\=b\\ c=\\t\\n\\r\\f\\q\\u0041"), (Properties{{"a=b c", "\t\n\r\fqA"}}));
}

TEST(JavaProperties, UnicodeEscapesBecomeUtf8AndLoneSurrogatesBecomeQuestionMarks) {
  EXPECT_EQ(load("k=\\u00e9\\uD83D\\uDE00\\uD83D"),
            (Properties{{"k", "\xC3\xA9\xF0\x9F\x98\x80?"}}));
}

TEST(JavaProperties, RawBytesAreReadAsLatin1) {
  EXPECT_EQ(load("k=\xC3\xA9"), (Properties{{"k", "\xC3\x83\xC2\xA9"}}));
}

TEST(JavaProperties, LaterKeysWin) { EXPECT_EQ(load("k=1\nk=2"), (Properties{{"k", "2"}})); }

TEST(JavaProperties, MalformedUnicodeEscapeFailsTheWholeText) {
  EXPECT_FALSE(string_to_properties("ok=1\nk=\\u00G1").has_value());
  EXPECT_FALSE(string_to_properties("k=\\u12").has_value());
  EXPECT_FALSE(string_to_properties("\\u12=v").has_value());  // the key's escape hits '='
}

TEST(JavaProperties, EmptyTextHasNoProperties) {
  EXPECT_EQ(load(""), Properties{});
  EXPECT_EQ(load("\n\n# only comments"), Properties{});
}

TEST(JavaProperties, Properties2StringWritesKeyEqualsValueLines) {
  EXPECT_EQ(properties_to_string({{"b", "2"}, {"a", "x=y"}}), "b=2\na=x=y\n");
  EXPECT_EQ(properties_to_string({}), "");
}

}  // namespace
}  // namespace nssim::core
