// File: libFuzzer target for `nssim sweep merge`: the input is one or more shard files, each
// after the first starting at a line "--next-shard". Each is read as `nssim sweep merge` reads
// a shard file, the shards are merged, and the sweep's documents are built and rendered and its
// summary printed, as the merge writes them (in memory here). A bad input must give one
// Refusal of one line; any other exception, a crash or a sanitizer report is a finding
// (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/sweep/sweep_shards.h"
#include "cli/sweep/sweep_summary.h"
#include "reports/sweep/sweep_document.h"
#include "reports/sweep/sweep_files.h"

namespace {

constexpr std::string_view kShardMarker = "\n--next-shard\n";

std::vector<std::string> split(std::string_view input) {
  std::vector<std::string> files;
  for (;;) {
    const std::size_t at = input.find(kShardMarker);
    files.emplace_back(input.substr(0, at));
    if (at == std::string_view::npos) return files;
    input.remove_prefix(at + kShardMarker.size());
  }
}

void merge(const std::vector<std::string>& texts) {
  using namespace nssim;
  try {
    std::vector<cli::ShardFile> shards;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      shards.push_back(cli::parse_shard_file("shard-" + std::to_string(i + 1) + ".json", texts[i]));
    }
    const cli::MergedSweep merged = cli::merge_shards(std::move(shards));
    const nlohmann::json sweep = reports::build_sweep(merged.plan, merged.records);
    (void)reports::render_sweep_files(sweep, merged.records);
    std::ostringstream summary;
    cli::print_sweep_summary(summary, sweep, /*colour=*/false);
    (void)reports::sweep_verdict(sweep);
  } catch (const cli::Refusal& error) {
    if (!error.message.empty() && error.message.find('\n') == std::string::npos) return;
    std::fprintf(stderr, "sweep_merge_fuzz: not a one-line error: '%s'\n", error.message.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  merge(split(std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
