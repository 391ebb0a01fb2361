// File: output folders and atomic single files (see output_dir.h).
#include "cli/posix/output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "cli/refusal.h"

namespace nssim::cli {

namespace fs = std::filesystem;

namespace {

Refusal cannot_write_to(const std::string& path, int error) {
  return Refusal{"cannot write '" + path + "': " + std::strerror(error)};
}

}  // namespace

void make_output_dir(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw Refusal{"cannot create '" + dir + "': " + error.message()};
}

void write_whole_file(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw cannot_write_to(path, errno);
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw cannot_write_to(path, error);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw cannot_write_to(path, errno);
}

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& content) {
  const fs::path temporary =
      fs::path(dir) / ("." + name + "." + std::to_string(::getpid()) + ".tmp");
  const fs::path target = fs::path(dir) / name;
  std::error_code error;
  try {
    write_whole_file(temporary.string(), content);
  } catch (const Refusal&) {
    fs::remove(temporary, error);  // best effort: the write error is the one worth reporting
    throw;
  }
  fs::rename(temporary, target, error);
  if (error) {
    const std::string reason = error.message();
    fs::remove(temporary, error);
    throw Refusal{"cannot rename to '" + target.string() + "': " + reason};
  }
}

}  // namespace nssim::cli
