// File: where an installed nssim finds what it ships beside it (the scenarios and their schema,
// the docs): <prefix>/share/nssim, found from the executable's own path, so an unpacked package
// works from any root (dpkg-deb -x into a folder) as well as from /usr.
#pragma once

#include <optional>
#include <string>

namespace nssim::cli {

// <folder of the running executable>/NSSIM_DATA_FROM_BIN (../share/nssim with GNUInstallDirs'
// defaults), when that folder exists; nullopt in a build tree or when /proc/self/exe cannot be
// read.
std::optional<std::string> installed_data_dir();

// What `nssim check` runs without a PATH: ./scenarios when the working folder has one (a
// checkout), else the installed scenarios, else "scenarios" (whose absence check reports).
std::string default_scenarios_path();

}  // namespace nssim::cli
