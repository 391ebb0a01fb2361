// File: atomic output files (see output_dir.h).
#include "output_dir.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace nssim::cli {

namespace fs = std::filesystem;

std::string make_output_dir(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return "cannot create '" + dir + "': " + error.message();
  return "";
}

std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& content) {
  const fs::path target = fs::path(dir) / name;
  const fs::path temporary = fs::path(dir) / ("." + name + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write '" + temporary.string() + "'";
    out << content;
    if (!out.flush()) return "cannot write '" + temporary.string() + "'";
  }
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error) return "cannot rename to '" + target.string() + "': " + error.message();
  return "";
}

}  // namespace nssim::cli
