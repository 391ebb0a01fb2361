// File: `nssim import --namesrv 'HOST:PORT;...'`: asks a live cluster's NameServers what the
// cluster is, over the remoting protocol, and writes a scenario `nssim run` accepts as it is
// (cluster_import.h). Read-only: it sends only queries (GET_NAMESRV_CONFIG,
// GET_BROKER_CLUSTER_INFO, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, GET_ROUTEINFO_BY_TOPIC), each with
// upstream's mqClientApiTimeout (3000 ms).
#include <CLI/CLI.hpp>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>

#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "cli/import/cluster_import.h"
#include "cli/posix/output_dir.h"
#include "cli/refusal.h"
#include "nameserver_codec/body_codec.h"
#include "nameserver_core/java_properties.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/remoting.h"
#include "nssim_serve/remoting_client.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Java: ClientConfig#mqClientApiTimeout, what a client waits for each of these answers.
constexpr std::chrono::milliseconds kMqClientApiTimeout{3000};
// The version the requests carry, as a 5.3.3 client sends them.
constexpr int kClientVersion = core::kVersionV5_3_3;

struct ImportCommandOptions {
  std::string namesrv;
  std::string topics;
  std::string out;
  std::string producers;
  std::string broker_config;
  std::string name = "imported";
  std::int64_t duration_ms = 600000;
};

struct Address {
  std::string text;
  std::string host;
  std::uint16_t port = 0;
};

std::vector<Address> parse_addresses(const std::string& text) {
  std::vector<Address> addresses;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ';')) {
    if (item.empty()) continue;
    const auto colon = item.rfind(':');
    unsigned port = 0;
    const char* begin = item.data() + (colon == std::string::npos ? 0 : colon + 1);
    const char* end = item.data() + item.size();
    const auto [rest, error] = std::from_chars(begin, end, port);
    if (colon == std::string::npos || colon == 0 || error != std::errc() || rest != end ||
        port == 0 || port > 65535) {
      throw Refusal{"--namesrv: expected HOST:PORT addresses separated by ';', got '" + item + "'"};
    }
    addresses.push_back({item, item.substr(0, colon), static_cast<std::uint16_t>(port)});
  }
  if (addresses.empty()) throw Refusal{"--namesrv: expected at least one HOST:PORT, got ''"};
  return addresses;
}

// One NameServer's connection: every failure is a Refusal naming its address.
class NameServerQueries {
 public:
  explicit NameServerQueries(const Address& address)
      : address_(address.text), client_(connect(address)) {}

  // The answer's body to a request of `code`, with its header's version.
  std::string ask(int code, std::map<std::string, std::string> fields, int* version = nullptr) {
    codec::RemotingHeader header;
    header.code = code;
    header.version = kClientVersion;
    header.ext_fields = std::move(fields);
    header.has_ext_fields = !header.ext_fields.empty();
    const std::string name = core::request_code_name(code);
    codec::RemotingFrame answer;
    try {
      answer = client_->invoke(header, "", kMqClientApiTimeout);
    } catch (const serve::RemotingClientError& error) {
      throw Refusal{address_ + ": " + name + ": " + error.what()};
    }
    if (answer.header.code != 0) {
      throw Refusal{address_ + ": " + name + " answered code " +
                    std::to_string(answer.header.code) +
                    (answer.header.remark ? " (" + *answer.header.remark + ")" : "")};
    }
    if (version != nullptr) *version = answer.header.version;
    return answer.body;
  }
  json ask_json(int code, std::map<std::string, std::string> fields = {}) {
    const std::string body = ask(code, std::move(fields));
    auto parsed = codec::parse_response_body(body);
    if (!parsed) {
      throw Refusal{address_ + ": " + core::request_code_name(code) + ": its body is not JSON"};
    }
    return *parsed;
  }
  const std::string& address() const { return address_; }

 private:
  std::unique_ptr<serve::RemotingClient> connect(const Address& address) {
    try {
      return std::make_unique<serve::RemotingClient>(address.host, address.port,
                                                     kMqClientApiTimeout);
    } catch (const serve::RemotingClientError& error) {
      throw Refusal{address.text + ": " + error.what()};
    }
  }

  std::string address_;
  std::unique_ptr<serve::RemotingClient> client_;
};

NameServerAnswers config_of(NameServerQueries& queries) {
  NameServerAnswers answers;
  answers.address = queries.address();
  const std::string text = queries.ask(core::request_code::kGetNamesrvConfig, {}, &answers.version);
  const auto properties = core::string_to_properties(text);
  if (!properties) {
    throw Refusal{queries.address() + ": GET_NAMESRV_CONFIG: its body is not a properties text"};
  }
  answers.config = *properties;
  return answers;
}

void parse_producers(const std::string& text, ImportOptions& options) {
  if (text.empty()) return;
  const auto at = text.find('@');
  int count = 0;
  double rate = 0;
  bool ok = at != std::string::npos;
  if (ok) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + at, count);
    ok = error == std::errc() && end == text.data() + at && count >= 1;
    try {
      std::size_t used = 0;
      rate = std::stod(text.substr(at + 1), &used);
      ok = ok && used == text.size() - at - 1 && rate > 0;
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok) throw Refusal{"--producers: expected COUNT@RATE (e.g. 40@10), got '" + text + "'"};
  options.producer_count = count;
  options.producer_rate_per_s = rate;
}

void read_broker_config(const std::string& path, ImportOptions& options) {
  if (path.empty()) return;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Refusal{"--broker-config: cannot read " + path};
  std::stringstream text;
  text << in.rdbuf();
  const auto properties = core::string_to_properties(text.str());
  if (!properties) throw Refusal{"--broker-config: " + path + ": not a properties text"};
  options.broker_config = *properties;
  options.broker_config_file = path;
}

int run_import(const ImportCommandOptions& command) {
  const std::vector<Address> addresses = parse_addresses(command.namesrv);
  std::optional<std::regex> pattern;
  if (!command.topics.empty()) {
    try {
      pattern.emplace(command.topics, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      throw Refusal{"--topics: not a regular expression: '" + command.topics + "'"};
    }
  }
  ImportOptions options;
  options.name = command.name;
  options.duration_ms = command.duration_ms;
  parse_producers(command.producers, options);
  read_broker_config(command.broker_config, options);

  ClusterAnswers answers;
  NameServerQueries first(addresses.front());
  answers.nameservers.push_back(config_of(first));
  answers.cluster_info = first.ask_json(core::request_code::kGetBrokerClusterInfo);
  const json topic_list = first.ask_json(core::request_code::kGetAllTopicListFromNameserver);
  for (const auto& topic : topic_list.value("topicList", json::array())) {
    if (!topic.is_string()) continue;
    const std::string name = topic.get<std::string>();
    const bool wanted = pattern ? std::regex_match(name, *pattern)
                                : !is_system_or_name_topic(name, answers.cluster_info);
    if (!wanted) continue;
    answers.routes[name] =
        first.ask_json(core::request_code::kGetRouteinfoByTopic, {{"topic", name}});
  }
  for (std::size_t i = 1; i < addresses.size(); ++i) {
    NameServerQueries other(addresses[i]);
    answers.nameservers.push_back(config_of(other));
  }
  nlohmann::ordered_json scenario;
  try {
    scenario = import_scenario(answers, options);
  } catch (const ImportError& error) {
    throw Refusal{addresses.front().text + ": " + error.what()};
  }
  const std::string text = scenario.dump(2) + "\n";
  // What `nssim run` will say of it, before anything is written.
  in_context("the imported scenario: ", [&] {
    sim::parse_scenario(text, command.out.empty() ? "<stdout>" : command.out, {});
  });
  if (command.out.empty()) {
    std::cout << text;
    return 0;
  }
  const fs::path out(command.out);
  in_context("--out: ", [&] {
    write_file_atomically(out.has_parent_path() ? out.parent_path().string() : ".",
                          out.filename().string(), text);
  });
  std::cout << "scenario: " << command.out << "\n";
  return 0;
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ImportCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "import",
      "Ask a live cluster's NameServers what it is and write a scenario of it (read-only: it "
      "sends only queries, each with a 3000 ms timeout)");
  command->add_option("--namesrv", options->namesrv, "The NameServers, 'HOST:PORT;HOST:PORT'")
      ->required()
      ->check(non_empty_text());
  command->add_option("--topics", options->topics,
                      "A regular expression (whole name) of the topics to take; default: every "
                      "topic but RocketMQ's system topics and the broker and cluster names");
  command->add_option("--out", options->out, "The scenario file to write (default: stdout)")
      ->check(non_empty_text());
  command->add_option("--producers", options->producers,
                      "COUNT@RATE: COUNT producers sending RATE messages per second each, to "
                      "every topic (a NameServer knows no producer; default: none)");
  command
      ->add_option("--broker-config", options->broker_config,
                   "A broker.conf whose settings every broker group takes (default: "
                   "upstream's defaults)")
      ->check(non_empty_text());
  command->add_option("--name", options->name, "The scenario's name")
      ->capture_default_str()
      ->check(non_empty_text());
  command->add_option("--duration-ms", options->duration_ms, "The scenario's duration_ms")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
  run_refusing(*command, exit_code, [options] { return run_import(*options); });
}

}  // namespace nssim::cli
