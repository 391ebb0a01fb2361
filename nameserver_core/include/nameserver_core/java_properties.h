// File: java.util.Properties text, as MixAll#string2Properties reads it (UPDATE_NAMESRV_CONFIG)
// and MixAll#properties2String writes it (GET_NAMESRV_CONFIG).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nssim::core {

// Java: MixAll#string2Properties, i.e. Properties#load (JDK 8) over text.getBytes("UTF-8"). Load
// reads those bytes as ISO-8859-1, so a non-ASCII character arrives as one character per UTF-8
// byte; keys and values are returned as UTF-8 of those Java strings (String#getBytes(UTF_8):
// \uXXXX escapes give real characters, an unpaired surrogate gives '?'). Line continuations,
// comments ('#', '!'), the separators '=', ':' and whitespace, and the escapes \t \r \n \f \uXXXX
// follow Properties#load. nullopt is Java's null: load threw "Malformed \uxxxx encoding.".
// Deviation: a \uXXXX cut short by the end of a value is malformed here; Java reads on into the
// rest of its line buffer, which may still hold an earlier, longer line.
std::optional<std::map<std::string, std::string>> string_to_properties(const std::string& text);

// Java: MixAll#properties2String, "key=value\n" per entry in the given order, nothing escaped.
std::string properties_to_string(const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace nssim::core
