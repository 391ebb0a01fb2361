// File: member_texts and object_text (see json_text.h).
#include "reports/json_text.h"

namespace nssim::reports {

namespace {

constexpr int kIndent = 2;

// dump(2) of a value one level deep: its own text with every line after the first indented once
// more. A string's newlines are escaped in JSON text, so every '\n' starts a line.
std::string nested_text(const nlohmann::json& value) {
  const std::string text = value.dump(kIndent);
  std::string nested;
  nested.reserve(text.size() + text.size() / 8);
  std::size_t from = 0;
  for (std::size_t newline = text.find('\n'); newline != std::string::npos;
       newline = text.find('\n', from)) {
    nested.append(text, from, newline + 1 - from);
    nested.append(kIndent, ' ');
    from = newline + 1;
  }
  return nested.append(text, from);
}

}  // namespace

MemberTexts member_texts(const nlohmann::json& object) {
  MemberTexts texts;
  for (const auto& [key, value] : object.items()) texts.emplace(key, nested_text(value));
  return texts;
}

std::string object_text(const nlohmann::json& object, const MemberTexts& shared) {
  if (object.empty()) return object.dump(kIndent);
  std::string text = "{\n";
  bool first = true;
  for (const auto& [key, value] : object.items()) {
    if (!first) text += ",\n";
    first = false;
    text.append(kIndent, ' ');
    text += nlohmann::json(key).dump();
    text += ": ";
    const auto found = shared.find(key);
    text += found != shared.end() ? found->second : nested_text(value);
  }
  return text + "\n}";
}

}  // namespace nssim::reports
