// File: Properties#load (JDK 8's LineReader, load0 and loadConvert) and properties2String. Text is
// handled as UTF-16 code units, as Java strings are, and turned into UTF-8 at the end.
#include "nameserver_core/java_properties.h"

#include <cstdint>

namespace nssim::core {

namespace {

using Units = std::u16string;

// Java: Properties.LineReader#readLine over an InputStream, whose bytes are ISO-8859-1
// characters. Skips blank and comment lines, joins continued lines and drops leading whitespace.
class LineReader {
 public:
  explicit LineReader(const std::string& bytes) : in_(bytes) {}

  // The next logical line, or false at the end of the input.
  bool read_line(Units& line) {
    line.clear();
    bool skip_white_space = true;
    bool is_comment_line = false;
    bool is_new_line = true;
    bool appended_line_begin = false;
    bool preceding_backslash = false;  // like Java, not reset when a comment line ends
    bool skip_lf = false;
    while (true) {
      if (off_ >= in_.size()) {
        if (line.empty() || is_comment_line) return false;
        if (preceding_backslash) line.pop_back();
        return true;
      }
      const auto c = static_cast<char16_t>(static_cast<unsigned char>(in_[off_++]));
      if (skip_lf) {
        skip_lf = false;
        if (c == u'\n') continue;
      }
      if (skip_white_space) {
        if (c == u' ' || c == u'\t' || c == u'\f') continue;
        if (!appended_line_begin && (c == u'\r' || c == u'\n')) continue;
        skip_white_space = false;
        appended_line_begin = false;
      }
      if (is_new_line) {
        is_new_line = false;
        if (c == u'#' || c == u'!') {
          is_comment_line = true;
          continue;
        }
      }
      if (c != u'\n' && c != u'\r') {
        line.push_back(c);
        preceding_backslash = c == u'\\' ? !preceding_backslash : false;
        continue;
      }
      if (is_comment_line || line.empty()) {  // the end of a line that holds nothing
        is_comment_line = false;
        is_new_line = true;
        skip_white_space = true;
        line.clear();
        continue;
      }
      if (off_ >= in_.size() || !preceding_backslash) {
        if (preceding_backslash) line.pop_back();
        return true;
      }
      line.pop_back();  // a continued line: drop the backslash, skip the next line's indent
      skip_white_space = true;
      appended_line_begin = true;
      preceding_backslash = false;
      if (c == u'\r') skip_lf = true;
    }
  }

 private:
  const std::string& in_;
  std::size_t off_ = 0;
};

int hex_digit(char16_t c) {
  if (c >= u'0' && c <= u'9') return c - u'0';
  if (c >= u'a' && c <= u'f') return 10 + (c - u'a');
  if (c >= u'A' && c <= u'F') return 10 + (c - u'A');
  return -1;
}

// Java: Properties#loadConvert. Reads `len` units of `in` from `off`, resolving escapes. A key's
// \uXXXX may read past the key into its separator, as Java's does; that is never a hex digit.
std::optional<Units> load_convert(const Units& in, std::size_t off, std::size_t len) {
  Units out;
  const std::size_t end = off + len;
  while (off < end) {
    char16_t c = in[off++];
    if (c != u'\\') {
      out.push_back(c);
      continue;
    }
    c = off < in.size() ? in[off++] : u'\0';
    if (c == u'u') {
      int value = 0;
      for (int i = 0; i < 4; ++i) {
        const int digit = off < in.size() ? hex_digit(in[off++]) : -1;
        if (digit < 0) return std::nullopt;  // "Malformed \\uxxxx encoding."
        value = (value << 4) + digit;
      }
      out.push_back(static_cast<char16_t>(value));
      continue;
    }
    if (c == u't') c = u'\t';
    if (c == u'r') c = u'\r';
    if (c == u'n') c = u'\n';
    if (c == u'f') c = u'\f';
    out.push_back(c);
  }
  return out;
}

void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out.push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

// Java: String#getBytes(UTF_8). Surrogate pairs join; an unpaired surrogate becomes '?'.
std::string to_utf8(const Units& units) {
  std::string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const char16_t unit = units[i];
    const bool high = unit >= 0xD800 && unit <= 0xDBFF;
    const bool low = unit >= 0xDC00 && unit <= 0xDFFF;
    if (high && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
      append_utf8(out, 0x10000 + ((unit - 0xD800u) << 10) + (units[i + 1] - 0xDC00u));
      ++i;
    } else if (high || low) {
      out.push_back('?');
    } else {
      append_utf8(out, unit);
    }
  }
  return out;
}

bool is_separator_space(char16_t c) { return c == u' ' || c == u'\t' || c == u'\f'; }

}  // namespace

// Java: Properties#load0 over the lines of LineReader.
std::optional<std::map<std::string, std::string>> string_to_properties(const std::string& text) {
  std::map<std::string, std::string> properties;
  LineReader reader(text);
  Units line;
  while (reader.read_line(line)) {
    const std::size_t limit = line.size();
    std::size_t key_len = 0;
    std::size_t value_start = limit;
    bool has_sep = false;
    bool preceding_backslash = false;
    for (; key_len < limit; ++key_len) {
      const char16_t c = line[key_len];
      if ((c == u'=' || c == u':') && !preceding_backslash) {
        value_start = key_len + 1;
        has_sep = true;
        break;
      }
      if (is_separator_space(c) && !preceding_backslash) {
        value_start = key_len + 1;
        break;
      }
      preceding_backslash = c == u'\\' ? !preceding_backslash : false;
    }
    for (; value_start < limit; ++value_start) {
      const char16_t c = line[value_start];
      if (is_separator_space(c)) continue;
      if (has_sep || (c != u'=' && c != u':')) break;
      has_sep = true;
    }
    auto key = load_convert(line, 0, key_len);
    auto value = load_convert(line, value_start, limit - value_start);
    if (!key || !value) return std::nullopt;
    properties[to_utf8(*key)] = to_utf8(*value);
  }
  return properties;
}

std::string properties_to_string(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string text;
  for (const auto& [key, value] : entries) text += key + "=" + value + "\n";
  return text;
}

}  // namespace nssim::core
