// File: installed_data_dir and default_scenarios_path (see install_paths.h).
#include "cli/install_paths.h"

#include <filesystem>
#include <system_error>

namespace nssim::cli {

namespace fs = std::filesystem;

std::optional<std::string> installed_data_dir() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  const fs::path data = (executable.parent_path() / NSSIM_DATA_FROM_BIN).lexically_normal();
  if (!fs::is_directory(data, error)) return std::nullopt;
  return data.string();
}

std::string default_scenarios_path() {
  std::error_code error;
  if (fs::is_directory("scenarios", error)) return "scenarios";
  if (const auto data = installed_data_dir()) {
    const fs::path shipped = fs::path(*data) / "scenarios";
    if (fs::is_directory(shipped, error)) return shipped.string();
  }
  return "scenarios";
}

}  // namespace nssim::cli
