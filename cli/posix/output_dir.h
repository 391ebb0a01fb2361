// File: writing a group of files so that a reader never sees half of one: every file of a group is
// written to a temporary name in the same folder first (unique to the process, so concurrent
// writers never share one), and only then are they all renamed into place. A file too big to
// hold in memory is streamed to its temporary name while the run goes on and joins the group at
// the end. `nssim run` writes its group into a StagedFolder (staged_folder.h), which swaps the
// whole folder in; the file-by-file renames here serve the documents of compare, sweep and check.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace nssim::cli {

// A file name inside the output folder and its whole content.
using NamedContent = std::pair<std::string, std::string>;

// Creates `dir` (and parents); a Refusal naming it when it cannot.
void make_output_dir(const std::string& dir);

// A file of a group written bit by bit: `out()` writes to its temporary name in the folder
// (.<name>.<pid>.tmp); write_files_atomically renames it with the rest. Until then it is no file of
// the folder, and if it never joins a group (an error, an early return) the destructor removes
// the temporary.
class StreamedFile {
 public:
  // A Refusal naming the file when the temporary cannot be opened for writing.
  StreamedFile(const std::string& dir, std::string name);
  ~StreamedFile();
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;

  std::ostream& out() { return out_; }
  const std::string& name() const { return name_; }

 private:
  friend void write_files_atomically(const std::string& dir, const std::vector<NamedContent>& files,
                                     const std::vector<StreamedFile*>& streamed);
  std::string name_;
  std::string temporary_;
  std::ofstream out_;
};

// Writes every file into `dir` as one group, the streamed files (opened in `dir`) after the
// others. On any error, a streamed file's failed writes included, it removes its temporaries and
// any file of the group it already renamed, so the folder holds no mix of this group and an older
// one, and throws a Refusal naming the file.
void write_files_atomically(const std::string& dir, const std::vector<NamedContent>& files,
                            const std::vector<StreamedFile*>& streamed = {});

// The one-file case of write_files_atomically.
void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& content);

}  // namespace nssim::cli
