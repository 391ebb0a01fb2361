// File: writing a run's files so that a reader never sees half of one: each file is written to a
// temporary name in the same folder and renamed into place.
#pragma once

#include <string>

namespace nssim::cli {

// Creates `dir` (and parents). Returns an error text, or an empty string on success.
std::string make_output_dir(const std::string& dir);
// Writes `content` to dir/name atomically. Returns an error text, or an empty string.
std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& content);

}  // namespace nssim::cli
