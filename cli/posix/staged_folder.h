// File: a command's output group swapped in whole (the rule in output_dir.h). The group's files
// are written into a private staging folder beside --out (.<name>.nssim-<pid>.tmp), then one
// renameat2(RENAME_EXCHANGE) swaps it with --out and the old folder is removed. At no instant
// does --out hold a mix of two groups, even if nssim is killed (kill -9) at any point: before
// the swap --out is the old group, after it the new one, and what a kill leaves behind is only a
// staging folder, which the next command beside it removes. Two commands into one --out each
// write their own staging folder; each swap installs one complete group, and the last to finish
// is what --out holds. `nssim run`, `sweep` (and its merge) and `compare` (and each side of
// compare --seeds) write their groups this way.
//
// So that a swap never takes away what nssim did not write, --out must be new, empty, or hold
// only the group's files and what the command keeps there across the swap (its kept names): a
// parent nssim's stdout.txt and stderr.txt of the child, carried over into the new folder by
// hard link so the parent's open descriptors still write into them; check's sweep/ folder in a
// run's folder, sweep's shards/ and slurm/ folders and its sweep.sbatch, compare's a/ and b/.
// Kept folders are moved over just before the swap; a kill in between leaves them in the
// staging folder, and the next command beside it moves them back before removing it.
#pragma once

#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace nssim::cli {

// A file name inside the output folder and its whole content.
using NamedContent = std::pair<std::string, std::string>;

class StreamedFile;

class StagedFolder {
 public:
  // A group name ending in "/" is a folder of the group (explore's counterexamples/): the files
  // written under it ("counterexamples/x/scenario.json") are the group's.
  // Refuses `dir` (a Refusal naming `command`, the nssim command that writes the group) when it
  // is not a folder, holds an entry outside `group_names` and `kept_names`, is the working
  // folder or one of its ancestors, or the staging folder cannot be made. Creates `dir`'s parent
  // folders as needed.
  static StagedFolder prepare(const std::string& command, const std::string& dir,
                              std::set<std::string> group_names, std::set<std::string> kept_names);

  StagedFolder(StagedFolder&& other) noexcept;
  StagedFolder& operator=(StagedFolder&&) = delete;
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder();  // removes the staging folder unless committed

  // Writes `files` into the staging folder, closes the `streamed` ones (opened in it), carries
  // the kept entries of `dir` over, swaps it in and removes the old folder. Every name must be
  // one of the group's. A Refusal naming the path and the system's reason when it cannot (a
  // streamed file's failed writes included); --out then still holds the old group.
  void commit(const std::vector<NamedContent>& files,
              const std::vector<StreamedFile*>& streamed = {});

 private:
  friend class StreamedFile;
  StagedFolder(std::string dir, std::string staging, std::set<std::string> group_names,
               std::set<std::string> kept_names);
  void check_group_name(const std::string& name) const;
  void swap_in();  // carries the kept entries over, then the swap

  std::string dir_;
  std::string staging_;  // empty once committed or moved from
  std::set<std::string> group_names_;
  std::set<std::string> kept_names_;
};

// A file of a group written bit by bit while the command goes on (run's trace.jsonl): `out()`
// writes into the staging folder under its name; commit() closes it and checks that every write
// succeeded.
class StreamedFile {
 public:
  // A Refusal naming the file when it cannot be opened for writing.
  StreamedFile(const StagedFolder& folder, std::string name);

  std::ostream& out() { return out_; }

 private:
  friend class StagedFolder;
  std::string name_;
  std::string path_;
  std::ofstream out_;
};

}  // namespace nssim::cli
