// File: atomic output files (see output_dir.h).
#include "output_dir.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace nssim::cli {

namespace fs = std::filesystem;

namespace {

fs::path temporary_path(const std::string& dir, const std::string& name) {
  return fs::path(dir) / ("." + name + ".tmp");
}

std::string write_whole(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return "cannot write '" + path.string() + "'";
  out << content;
  if (!out.flush()) return "cannot write '" + path.string() + "'";
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

std::string make_output_dir(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return "cannot create '" + dir + "': " + error.message();
  return "";
}

std::string write_files_atomically(const std::string& dir, const std::vector<NamedContent>& files) {
  std::vector<fs::path> temporaries;
  for (const auto& [name, content] : files) {
    temporaries.push_back(temporary_path(dir, name));
    if (auto error = write_whole(temporaries.back(), content); !error.empty()) {
      remove_quietly(temporaries);
      return error;
    }
  }
  std::vector<fs::path> renamed;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path target = fs::path(dir) / files[i].first;
    std::error_code error;
    fs::rename(temporaries[i], target, error);
    if (error) {
      remove_quietly({temporaries.begin() + static_cast<std::ptrdiff_t>(i), temporaries.end()});
      remove_quietly(renamed);
      return "cannot rename to '" + target.string() + "': " + error.message();
    }
    renamed.push_back(target);
  }
  return "";
}

std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& content) {
  return write_files_atomically(dir, {{name, content}});
}

}  // namespace nssim::cli
