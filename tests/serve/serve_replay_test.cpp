// `nssim serve` answers every request of the replay examples and goldens as `nssim replay`
// answers the same lines: each request line is sent as a wire frame on its channel's own
// connection and the answer compared with replay's line.
//
// What cannot be driven through a served NameServer's wall clock is left out of both runs:
// at_ms (replay then runs every line at 0 and serve within milliseconds of its start; no answer of
// these files echoes the time, and none depends on it below a broker's 120 s expiry), scan and idle
// events (the scan runs on upstream's schedule and expires a broker after 120 s, left to the
// core's and replay's tests; idle closing is checked in serve_test.cpp). A close event is a real
// close of that connection, without its remoteAddr: a real peer address is an ephemeral port, which
// matches no broker. Lines replay reports as malformed are replay's own input errors and have no
// frame. A body given as the empty string is not sent: an empty body on the wire is no body (Java
// decodes it as null).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "nameserver_codec/body_codec.h"
#include "serve_process.h"

namespace nssim::serve_test {
namespace {

using nlohmann::json;

struct ReplayFile {
  const char* path;  // under the source tree
  const char* profile;
  friend void PrintTo(const ReplayFile& file, std::ostream* out) { *out << file.path; }
};

std::string source_path(const std::string& relative) {
  const char* root = std::getenv("NSSIM_SOURCE_DIR");
  return std::string(root ? root : ".") + "/" + relative;
}

// The input lines replay and serve both get (see the file comment), as parsed JSON.
std::vector<json> comparable_lines(const std::string& path) {
  std::ifstream file(path);
  std::vector<json> lines;
  std::string text;
  while (std::getline(file, text)) {
    json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (line.is_discarded() || !line.is_object()) continue;
    line.erase("at_ms");
    if (line.contains("event")) {
      if (line["event"] != "close") continue;
      line.erase("remoteAddr");
    }
    if (line.contains("body") && line["body"] == "") continue;
    lines.push_back(std::move(line));
  }
  return lines;
}

codec::RemotingHeader header_of(const json& line, const std::string& profile, int opaque) {
  codec::RemotingHeader header;
  header.code = line["code"].get<int>();
  header.version =
      line.contains("version") ? line["version"].get<int>() : (profile == "4.9" ? 409 : 479);
  header.opaque = opaque;
  header.flag = line.value("oneway", false) ? codec::kFlagOneway : 0;
  // extFields go out as written, numbers and booleans unquoted, as ali-ons sends them.
  if (line.contains("extFields")) {
    for (const auto& [key, value] : line["extFields"].items()) {
      header.ext_fields[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    header.has_ext_fields = true;
  }
  return header;
}

// Replay's {"code","remark","extFields","body"} against the frame serve answered with.
void expect_same_answer(const json& replay, const codec::RemotingFrame& served,
                        const std::string& where) {
  EXPECT_EQ(served.header.code, replay["code"].get<int>()) << where;
  EXPECT_EQ(served.header.remark ? json(*served.header.remark) : json(nullptr), replay["remark"])
      << where;
  EXPECT_EQ(json(served.header.ext_fields), replay["extFields"]) << where;
  EXPECT_EQ(served.header.flag, codec::kFlagResponse) << where;
  const json& body = replay["body"];
  if (body.is_null()) {
    EXPECT_EQ(served.body, "") << where;
  } else if (body.is_string()) {
    EXPECT_EQ(served.body, body.get<std::string>()) << where;  // properties text, as it is
  } else {
    // The same value in the spelling upstream uses for this answer (remoting_handler_test pins
    // which one each answer gets).
    const std::string standard = codec::write_body_json(body, codec::BodyJson::kStandard);
    const std::string legacy = codec::write_body_json(body, codec::BodyJson::kLegacy);
    EXPECT_TRUE(served.body == standard || served.body == legacy)
        << where << "\nserved: " << served.body << "\nreplay: " << standard;
  }
}

class ServeMatchesReplay : public testing::TestWithParam<ReplayFile> {};

TEST_P(ServeMatchesReplay, EveryAnswer) {
  const ReplayFile file = GetParam();
  const std::vector<json> lines = comparable_lines(source_path(file.path));
  std::string input;
  for (const auto& line : lines) input += line.dump() + "\n";
  std::istringstream replay_output(run_nssim({"replay", "--profile", file.profile}, input).output);

  ServeProcess serve({"--profile", file.profile});
  std::map<std::string, std::unique_ptr<Client>> channels;
  int opaque = 0;
  int compared = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const json& line = lines[i];
    std::string replay_text;
    ASSERT_TRUE(std::getline(replay_output, replay_text)) << "replay stopped at line " << i + 1;
    const json replay = json::parse(replay_text);
    const std::string where = std::string(file.path) + " line " + std::to_string(i + 1) + ": " +
                              line.dump().substr(0, 200);
    if (replay.contains("error")) continue;
    const std::string channel = line.value("channel", "default");
    if (line.contains("event")) {  // a close
      if (auto found = channels.find(channel); found != channels.end()) {
        found->second->close_and_wait();
        channels.erase(found);
      }
      continue;
    }
    auto& client = channels[channel];
    if (!client) client = std::make_unique<Client>(serve.port());
    const std::string body =
        line.contains("body") && !line["body"].is_null() ? codec::raw_body_bytes(line["body"]) : "";
    client->send(header_of(line, file.profile, ++opaque), body);
    if (replay.contains("noResponse")) continue;  // the next answer must not be this one's
    const codec::RemotingFrame served = client->receive();
    EXPECT_EQ(served.header.opaque, opaque) << where;
    expect_same_answer(replay, served, where);
    ++compared;
  }
  // Nothing stray is left on any connection: each one's next answer is a probe's.
  for (auto& [name, client] : channels) {
    codec::RemotingHeader probe;
    probe.code = 105;
    probe.opaque = ++opaque;
    probe.ext_fields = {{"topic", "nssim-serve-probe"}};
    probe.has_ext_fields = true;
    client->send(probe);
    EXPECT_EQ(client->receive().header.opaque, opaque) << "channel " << name;
  }
  EXPECT_GT(compared, 0);
  channels.clear();
  EXPECT_EQ(serve.stop(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Files, ServeMatchesReplay,
    testing::Values(ReplayFile{"examples/replay/broker_lifecycle_5x.jsonl", "5.x"},
                    ReplayFile{"examples/replay/broker_lifecycle_49.jsonl", "4.9"},
                    ReplayFile{"examples/replay/kv_order_topic_5x.jsonl", "5.x"},
                    ReplayFile{"examples/replay/admin_perm_5x.jsonl", "5.x"},
                    ReplayFile{"examples/replay/admin_perm_49.jsonl", "4.9"},
                    ReplayFile{"tests/replay/processor_errors_5x.jsonl", "5.x"},
                    ReplayFile{"tests/replay/processor_errors_49.jsonl", "4.9"},
                    ReplayFile{"tests/replay/malformed_5x.jsonl", "5.x"}),
    [](const testing::TestParamInfo<ReplayFile>& param_info) {
      std::string name = param_info.param.path;
      name = name.substr(name.rfind('/') + 1);
      name = name.substr(0, name.find('.'));
      return name;
    });

}  // namespace
}  // namespace nssim::serve_test
