// File: StagedFolder and StreamedFile (see staged_folder.h).
#include "cli/posix/staged_folder.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "cli/posix/output_dir.h"
#include "cli/refusal.h"

namespace nssim::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kStagingInfix = ".nssim-";
constexpr const char* kStagingSuffix = ".tmp";

std::string system_reason() { return std::strerror(errno); }

// ".<name>.nssim-<pid>.tmp" beside `dir`.
fs::path staging_path(const fs::path& dir, long pid) {
  return dir.parent_path() /
         ("." + dir.filename().string() + kStagingInfix + std::to_string(pid) + kStagingSuffix);
}

// The pid in a staging folder's name for `dir`, or -1 if `entry` is none.
long staging_pid(const fs::path& dir, const std::string& entry) {
  const std::string prefix = "." + dir.filename().string() + kStagingInfix;
  const std::string suffix = kStagingSuffix;
  if (entry.size() <= prefix.size() + suffix.size() || entry.rfind(prefix, 0) != 0 ||
      entry.compare(entry.size() - suffix.size(), suffix.size(), suffix) != 0)
    return -1;
  const std::string digits =
      entry.substr(prefix.size(), entry.size() - prefix.size() - suffix.size());
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return -1;
  return std::stol(digits);
}

// Staging folders of `dir` whose process is gone: what a killed command left. A kept folder it
// had moved in before the swap goes back to `dir` first, so a kill never loses one.
void remove_abandoned_staging(const fs::path& dir, const std::set<std::string>& kept_names) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir.parent_path(), error)) {
    const long pid = staging_pid(dir, entry.path().filename().string());
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) continue;  // still alive
    std::error_code ignored;
    for (const std::string& name : kept_names) {
      const fs::path moved = entry.path() / name;
      if (fs::is_directory(fs::symlink_status(moved, ignored)) &&
          !fs::exists(fs::symlink_status(dir / name, ignored))) {
        fs::rename(moved, dir / name, ignored);
      }
    }
    fs::remove_all(entry.path(), ignored);
  }
}

// Whether `dir` is the working folder or one of its ancestors: swapping it would pull the
// working folder out from under the user.
bool holds_working_folder(const fs::path& dir) {
  std::error_code error;
  const fs::path target = fs::canonical(dir, error);
  if (error) return false;
  for (fs::path at = fs::current_path(error); !error && !at.empty(); at = at.parent_path()) {
    if (fs::equivalent(at, target, error)) return true;
    if (at == at.parent_path()) break;
  }
  return false;
}

}  // namespace

StagedFolder StagedFolder::prepare(const std::string& command, const std::string& dir_text,
                                   std::set<std::string> group_names,
                                   std::set<std::string> kept_names) {
  const fs::path dir = fs::path(dir_text).lexically_normal();
  const fs::path named = dir.filename().empty() ? dir.parent_path() : dir;
  std::error_code code;
  const fs::path parent = fs::absolute(named, code).parent_path();
  fs::create_directories(parent, code);
  if (code) {
    throw Refusal{"cannot create '" + parent.string() + "': " + code.message()};
  }
  const fs::path absolute = parent / named.filename();
  if (fs::exists(absolute, code)) {
    if (!fs::is_directory(absolute, code)) {
      throw Refusal{"'" + dir_text + "' is not a folder"};
    }
    if (holds_working_folder(absolute)) {
      throw Refusal{"'" + dir_text +
                    "' is the working folder or holds it: give a folder of its own"};
    }
    // A child command writing into a kept folder (compare's a/, check's sweep/) stages beside
    // it, inside `dir`: what a killed child left there is no entry of ours to refuse.
    for (const std::string& name : kept_names) remove_abandoned_staging(absolute / name, {});
    for (const auto& entry : fs::directory_iterator(absolute, code)) {
      const std::string name = entry.path().filename().string();
      if (kept_names.count(name) != 0) continue;
      const bool ours = group_names.count(name) != 0;
      if (ours && entry.is_regular_file(code)) continue;
      if (group_names.count(name + "/") != 0 && entry.is_directory(code)) continue;
      throw Refusal{"'" + dir_text + "' holds " +
                    (ours ? "a folder or special file named '" : "'") + name + "', which nssim " +
                    command +
                    " does not write: give a new or empty folder, or one an earlier run wrote"};
    }
    if (code) {
      throw Refusal{"cannot read '" + dir_text + "': " + code.message()};
    }
  }
  remove_abandoned_staging(absolute, kept_names);
  const fs::path staging = staging_path(absolute, ::getpid());
  fs::remove_all(staging, code);
  if (::mkdir(staging.c_str(), 0755) != 0) {
    throw Refusal{"cannot create '" + staging.string() + "': " + system_reason()};
  }
  return StagedFolder(absolute.string(), staging.string(), std::move(group_names),
                      std::move(kept_names));
}

StagedFolder::StagedFolder(std::string dir, std::string staging, std::set<std::string> group_names,
                           std::set<std::string> kept_names)
    : dir_(std::move(dir)),
      staging_(std::move(staging)),
      group_names_(std::move(group_names)),
      kept_names_(std::move(kept_names)) {}

StagedFolder::StagedFolder(StagedFolder&& other) noexcept
    : dir_(std::move(other.dir_)),
      staging_(std::exchange(other.staging_, std::string())),
      group_names_(std::move(other.group_names_)),
      kept_names_(std::move(other.kept_names_)) {}

StagedFolder::~StagedFolder() {
  if (staging_.empty()) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void StagedFolder::commit(const std::vector<NamedContent>& files,
                          const std::vector<StreamedFile*>& streamed) {
  for (const auto& [name, content] : files) {
    check_group_name(name);
    const fs::path path = fs::path(staging_) / name;
    if (name.find('/') != std::string::npos) {
      std::error_code error;
      fs::create_directories(path.parent_path(), error);
      if (error)
        throw Refusal{"cannot create '" + path.parent_path().string() + "': " + error.message()};
    }
    write_whole_file(path.string(), content);
  }
  for (StreamedFile* file : streamed) {
    check_group_name(file->name_);
    // The stream keeps no errno of a write that failed earlier; the flush in close() sets one
    // when it fails itself, as it does on a full disk.
    errno = 0;
    file->out_.close();
    if (file->out_.fail()) {
      throw Refusal{"cannot write '" + file->path_ + "'" +
                    (errno != 0 ? ": " + system_reason() : std::string())};
    }
  }
  swap_in();
}

void StagedFolder::check_group_name(const std::string& name) const {
  // prepare() let --out hold only these names: a file outside them would make the next command
  // refuse the folder this one wrote.
  const std::size_t slash = name.find('/');
  const std::string entry = slash == std::string::npos ? name : name.substr(0, slash + 1);
  if (group_names_.count(entry) == 0) {
    throw std::logic_error("'" + name + "' is not a name of the group staged for '" + dir_ + "'");
  }
}

void StagedFolder::swap_in() {
  const fs::path dir(dir_);
  const fs::path staging(staging_);
  for (const std::string& name : kept_names_) {
    const fs::path kept = dir / name;
    std::error_code code;
    const bool folder = fs::is_directory(fs::symlink_status(kept, code));
    // A file is linked, so a parent's open descriptor still writes into it; a folder moves.
    const int moved = folder ? ::rename(kept.c_str(), (staging / name).c_str())
                             : ::link(kept.c_str(), (staging / name).c_str());
    if (moved != 0 && errno != ENOENT) {
      throw Refusal{"cannot " + std::string(folder ? "move '" : "link '") + kept.string() +
                    "' into '" + staging.string() + "': " + system_reason()};
    }
  }
  // A new folder is renamed into place; an existing one (even one another run created a moment
  // ago) is exchanged with the staging folder in one step.
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dir.c_str(), RENAME_NOREPLACE) == 0) {
    staging_.clear();
    return;
  }
  const bool without_flags = errno == EINVAL || errno == ENOSYS;  // the file system has none
  if (without_flags && !fs::exists(dir) && ::rename(staging.c_str(), dir.c_str()) == 0) {
    staging_.clear();
    return;
  }
  if (!without_flags && errno != EEXIST) {
    throw Refusal{"cannot rename '" + staging.string() + "' to '" + dir.string() +
                  "': " + system_reason()};
  }
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS) {
      throw Refusal{"cannot swap '" + staging.string() + "' with '" + dir.string() +
                    "': " + system_reason()};
    }
    // A file system without RENAME_EXCHANGE: the old folder steps aside, then the new one takes
    // its place. Between the two renames --out is briefly absent, never a mix.
    const fs::path aside = staging.string() + ".old";
    if (::rename(dir.c_str(), aside.c_str()) != 0 || ::rename(staging.c_str(), dir.c_str()) != 0) {
      throw Refusal{"cannot rename '" + staging.string() + "' to '" + dir.string() +
                    "': " + system_reason()};
    }
    std::error_code ignored;
    fs::remove_all(aside, ignored);
    staging_.clear();
    return;
  }
  std::error_code ignored;
  fs::remove_all(staging, ignored);  // the old group, now at the staging path
  staging_.clear();
}

StreamedFile::StreamedFile(const StagedFolder& folder, std::string name)
    : name_(std::move(name)), path_((fs::path(folder.staging_) / name_).string()) {
  errno = 0;
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    throw Refusal{"cannot write '" + path_ + "'" +
                  (errno != 0 ? ": " + system_reason() : std::string())};
  }
}

}  // namespace nssim::cli
