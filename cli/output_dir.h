// File: writing a run's files so that a reader never sees half of one, nor a mix of two runs:
// every file of a group is written to a temporary name in the same folder first, and only then
// are they all renamed into place.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nssim::cli {

// A file name inside the output folder and its whole content.
using NamedContent = std::pair<std::string, std::string>;

// Creates `dir` (and parents). Returns an error text, or an empty string on success.
std::string make_output_dir(const std::string& dir);

// Writes every file into `dir` as one group. On any error it removes its temporaries and any
// file of the group it already renamed, so the folder holds no mix of this group and an older
// one, and returns the error text naming the file; an empty string on success.
std::string write_files_atomically(const std::string& dir, const std::vector<NamedContent>& files);

// The one-file case of write_files_atomically.
std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& content);

}  // namespace nssim::cli
