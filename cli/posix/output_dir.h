// File: how nssim writes its output, so that a reader never sees half of it. THE rule:
//   - a folder's group (the documents a command writes into --out: run's, sweep's and merge's,
//     compare's, compare --seeds' sides): a StagedFolder (staged_folder.h), written aside and
//     swapped in whole, so --out never holds a mix of two groups;
//   - one file on its own (check --junit FILE, a shard's shard-I-of-K.json, sweep.sbatch):
//     write_file_atomically, a temporary in the same folder then one rename.
#pragma once

#include <string>

namespace nssim::cli {

// Creates `dir` (and parents); a Refusal naming it when it cannot.
void make_output_dir(const std::string& dir);

// Writes `content` to `path` (created or truncated) with write(2); a Refusal naming the path and
// the system's reason ("No space left on device") when it cannot.
void write_whole_file(const std::string& path, const std::string& content);

// Writes `dir`/`name` through a temporary name in `dir` (.<name>.<pid>.tmp, unique to the
// process, so concurrent writers never share one) renamed into place; on any error the
// temporary is removed and a Refusal names the file.
void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& content);

}  // namespace nssim::cli
