// File: the lines that say whether expectations held, as run, check and sweep print them, and
// their colour on a terminal: the verdict word green (PASS, pass) or red (FAIL, ERROR), NONE
// yellow; never on a pipe or a file, and never when NO_COLOR is set (no-color.org) or TERM is
// "dumb", so scripts and CI logs read the same bytes as before.
#pragma once

#include <string>

namespace nssim::cli {

// "  pass SOURCE: MESSAGE" or "  FAIL SOURCE: MESSAGE".
std::string expectation_line(bool passed, const std::string& source, const std::string& message);

// Whether to colour: on a terminal, NO_COLOR unset or empty, TERM not "dumb" (null: unset).
bool colour_wanted(bool terminal, const char* no_color, const char* term);
// colour_wanted for stdout and this process's environment.
bool colour_on_stdout();

// `line` with its leading verdict word (after any indent) in colour when `colour`; other lines
// as they are.
std::string painted(const std::string& line, bool colour);

}  // namespace nssim::cli
