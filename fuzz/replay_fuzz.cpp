// File: libFuzzer target for the replay engine: the input is a replay file (JSON Lines), fed line
// by line, as `nssim replay` splits it, through one NameServer of each profile. Whatever the
// bytes, each line must give exactly one output line that is JSON (docs/replay.md); a crash, a
// sanitizer report or a broken output line is a finding (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "nameserver_codec/replay.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"

namespace {

void require_one_json_line(const std::string& output) {
  if (output.find('\n') == std::string::npos && nlohmann::json::accept(output)) return;
  std::fprintf(stderr, "replay_fuzz: output is not one JSON line: %s\n", output.c_str());
  std::abort();
}

void replay(std::string_view input, nssim::core::Profile profile) {
  nssim::codec::ReplaySession session(profile, nssim::core::NamesrvConfig{});
  // std::getline's split: a last line without a line break still counts, "" has no line.
  while (!input.empty()) {
    const std::size_t end = input.find('\n');
    const std::string_view line = input.substr(0, end);
    require_one_json_line(session.process_line(line));
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  replay(input, nssim::core::Profile::kV4_9);
  replay(input, nssim::core::Profile::kV5);
  return 0;
}
