// File: atomic output files (see output_dir.h).
#include "cli/posix/output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

#include "cli/refusal.h"

namespace nssim::cli {

namespace fs = std::filesystem;

namespace {

// Unique to this process, so two runs writing into one folder never share a temporary.
fs::path temporary_path(const std::string& dir, const std::string& name) {
  return fs::path(dir) / ("." + name + "." + std::to_string(::getpid()) + ".tmp");
}

std::string cannot_write(const fs::path& path, int error) {
  return "cannot write '" + path.string() + "': " + std::strerror(error);
}

// The whole content with write(2), so a failure names the system's reason (a full disk:
// "No space left on device").
std::string write_whole(const fs::path& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return cannot_write(path, errno);
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return cannot_write(path, error);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return cannot_write(path, errno);
  return "";
}

// Best effort: the error that brought us here is the one worth reporting.
void remove_quietly(const std::vector<fs::path>& paths) {
  for (const auto& path : paths) {
    std::error_code ignored;
    fs::remove(path, ignored);
  }
}

}  // namespace

void make_output_dir(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw Refusal{"cannot create '" + dir + "': " + error.message()};
}

StreamedFile::StreamedFile(const std::string& dir, std::string name)
    : name_(std::move(name)), temporary_(temporary_path(dir, name_).string()) {
  errno = 0;
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_) throw Refusal{cannot_write(temporary_, errno)};
}

StreamedFile::~StreamedFile() {
  if (temporary_.empty()) return;  // renamed into place
  out_.close();
  remove_quietly({fs::path(temporary_)});
}

void write_files_atomically(const std::string& dir, const std::vector<NamedContent>& files,
                            const std::vector<StreamedFile*>& streamed) {
  std::vector<fs::path> temporaries;
  std::vector<std::string> names;
  for (const auto& [name, content] : files) {
    temporaries.push_back(temporary_path(dir, name));
    names.push_back(name);
    if (auto error = write_whole(temporaries.back(), content); !error.empty()) {
      remove_quietly(temporaries);
      throw Refusal{error};
    }
  }
  // A streamed file's temporary belongs to it until it is renamed: its destructor removes it.
  for (StreamedFile* file : streamed) {
    // The stream keeps no errno of a write that failed earlier; the flush in close() sets one
    // when it fails itself, as it does on a full disk.
    errno = 0;
    file->out_.close();
    if (file->out_.fail()) {
      remove_quietly(temporaries);
      throw Refusal{errno != 0 ? cannot_write(file->temporary_, errno)
                               : "cannot write '" + file->temporary_ + "'"};
    }
  }
  std::vector<fs::path> renamed;
  const std::size_t count = temporaries.size() + streamed.size();
  for (std::size_t i = 0; i < count; ++i) {
    StreamedFile* file = i < temporaries.size() ? nullptr : streamed[i - temporaries.size()];
    const fs::path from = file != nullptr ? fs::path(file->temporary_) : temporaries[i];
    const fs::path target = fs::path(dir) / (file != nullptr ? file->name_ : names[i]);
    std::error_code error;
    fs::rename(from, target, error);
    if (error) {
      if (i < temporaries.size()) {
        remove_quietly({temporaries.begin() + static_cast<std::ptrdiff_t>(i), temporaries.end()});
      }
      remove_quietly(renamed);
      throw Refusal{"cannot rename to '" + target.string() + "': " + error.message()};
    }
    renamed.push_back(target);
    if (file != nullptr) file->temporary_.clear();
  }
}

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& content) {
  write_files_atomically(dir, {{name, content}});
}

}  // namespace nssim::cli
