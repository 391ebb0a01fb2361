// File: atomic output files (see output_dir.h).
#include "output_dir.h"

#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

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

StreamedFile::StreamedFile(const std::string& dir, std::string name)
    : name_(std::move(name)), temporary_(temporary_path(dir, name_).string()) {
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_) error_ = "cannot write '" + temporary_ + "'";
}

StreamedFile::~StreamedFile() {
  if (temporary_.empty()) return;  // renamed into place
  out_.close();
  remove_quietly({fs::path(temporary_)});
}

std::string write_files_atomically(const std::string& dir, const std::vector<NamedContent>& files,
                                   const std::vector<StreamedFile*>& streamed) {
  std::vector<fs::path> temporaries;
  std::vector<std::string> names;
  for (const auto& [name, content] : files) {
    temporaries.push_back(temporary_path(dir, name));
    names.push_back(name);
    if (auto error = write_whole(temporaries.back(), content); !error.empty()) {
      remove_quietly(temporaries);
      return error;
    }
  }
  // A streamed file's temporary belongs to it until it is renamed: its destructor removes it.
  for (StreamedFile* file : streamed) {
    file->out_.close();
    if (!file->error_.empty() || file->out_.fail()) {
      remove_quietly(temporaries);
      return file->error_.empty() ? "cannot write '" + file->temporary_ + "'" : file->error_;
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
      return "cannot rename to '" + target.string() + "': " + error.message();
    }
    renamed.push_back(target);
    if (file != nullptr) file->temporary_.clear();
  }
  return "";
}

std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& content) {
  return write_files_atomically(dir, {{name, content}});
}

}  // namespace nssim::cli
