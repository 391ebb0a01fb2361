// File: a run's output group swapped in whole. The group's files are written into a private
// staging folder beside --out (.<name>.nssim-<pid>.tmp), then one renameat2(RENAME_EXCHANGE)
// swaps it with --out and the old folder is removed. At no instant does --out hold a mix of two
// runs, even if nssim is killed (kill -9) at any point: before the swap --out is the old group,
// after it the new one, and what a kill leaves behind is only a staging folder, which the next
// run beside it removes. Two runs into one --out each write their own staging folder; each swap
// installs one complete group, and the last to finish is what --out holds.
//
// So that a swap never takes away what nssim did not write, --out must be new, empty, or hold
// only the group's files and what a parent nssim keeps there: check's and compare's stdout.txt
// and stderr.txt of the child, carried over into the new folder by hard link so the parent's
// open descriptors still write into them, and check's sweep/ folder, moved over just before
// the swap.
#pragma once

#include <set>
#include <string>

namespace nssim::cli {

class StagedFolder {
 public:
  // Refuses `dir` (a Refusal) when it is not a folder, holds an entry outside `group_names` and
  // `kept_names`, is the working folder or one of its ancestors, or the staging folder cannot be
  // made. Creates `dir`'s parent folders as needed.
  static StagedFolder prepare(const std::string& dir, std::set<std::string> group_names,
                              std::set<std::string> kept_names);

  StagedFolder(StagedFolder&& other) noexcept;
  StagedFolder& operator=(StagedFolder&&) = delete;
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder();  // removes the staging folder unless committed

  // Where the group's files are written (by name, each once).
  const std::string& path() const { return staging_; }

  // Links the kept files of `dir` into the staging folder, swaps it in and removes the old
  // folder; a Refusal naming the path and the system's reason when it cannot.
  void commit();

 private:
  StagedFolder(std::string dir, std::string staging, std::set<std::string> kept_names);

  std::string dir_;
  std::string staging_;  // empty once committed or moved from
  std::set<std::string> kept_names_;
};

}  // namespace nssim::cli
