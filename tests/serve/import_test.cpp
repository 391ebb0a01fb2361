// `nssim import` against `nssim serve`: a cluster of registered brokers becomes a scenario with
// every group, slave, topic queue count and NameServer setting it had, which `nssim run` takes;
// a bad address, a refused or silent port and a port that is no NameServer each end in one line
// and exit 2. Loopback only.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "serve_process.h"

namespace nssim::serve_test {
namespace {

using nlohmann::json;

// REGISTER_BROKER of (brokerName, brokerId) at `address`, with TBW102, TopicTest (4 queues) and
// OrderTopic (8 read, 8 write, perm 6), as serve_test's registration but for any group.
void register_broker(Client& client, const std::string& name, int id, const std::string& address) {
  codec::RemotingHeader header;
  header.code = 103;
  header.version = 409;
  header.opaque = 1;
  header.ext_fields = {{"brokerAddr", address},
                       {"brokerId", std::to_string(id)},
                       {"brokerName", name},
                       {"clusterName", "DefaultCluster"},
                       {"haServerAddr", address}};
  header.has_ext_fields = true;
  client.send(
      header,
      R"({"filterServerList":[],"topicConfigSerializeWrapper":{"topicConfigTable":)"
      R"({"TBW102":{"topicName":"TBW102","perm":7},)"
      R"("TopicTest":{"topicName":"TopicTest","perm":6,"readQueueNums":4,"writeQueueNums":4},)"
      R"("OrderTopic":{"topicName":"OrderTopic","perm":6,"readQueueNums":8,"writeQueueNums":8}}}})");
  ASSERT_EQ(client.receive().header.code, 0);
}

std::string scratch_file(const std::string& name) {
  char dir[] = "/tmp/nssim-import-test-XXXXXX";
  EXPECT_NE(::mkdtemp(dir), nullptr);
  return std::string(dir) + "/" + name;
}

void remove_scratch(const std::string& file) {
  std::remove(file.c_str());
  ::rmdir(file.substr(0, file.rfind('/')).c_str());
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

TEST(Import, TheClusterBecomesAScenarioThatRuns) {
  for (const char* profile : {"4.9", "5.x"}) {
    std::vector<std::string> args = {"--profile", profile};
    if (std::string(profile) == "5.x") {
      args.insert(args.end(), {"--config", "scanNotActiveBrokerInterval=7000"});
    }
    args.insert(args.end(), {"--config", "orderMessageEnable=true"});
    ServeProcess serve(args);
    Client a0(serve.port()), a1(serve.port()), b0(serve.port());
    register_broker(a0, "broker-a", 0, "127.0.0.1:20911");
    register_broker(a1, "broker-a", 1, "127.0.0.1:20921");
    register_broker(b0, "broker-b", 0, "127.0.0.1:30911");
    const std::string address = "127.0.0.1:" + std::to_string(serve.port());
    const std::string out = scratch_file("cluster.json");
    const NssimRun run = run_nssim(
        {"import", "--namesrv", address + ";" + address, "--producers", "12@5", "--out", out}, "");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output, "scenario: " + out + "\n");
    const json scenario = read_json(out);
    EXPECT_EQ(scenario["profile"], profile);
    EXPECT_EQ(scenario["nameservers"]["count"], 2);
    EXPECT_EQ(scenario["nameservers"]["config"]["orderMessageEnable"], true);
    if (std::string(profile) == "5.x") {
      EXPECT_EQ(scenario["nameservers"]["config"]["scanNotActiveBrokerInterval"], 7000);
    } else {
      EXPECT_FALSE(scenario["nameservers"]["config"].contains("scanNotActiveBrokerInterval"));
    }
    EXPECT_EQ(scenario["broker_groups"],
              json::parse(R"([{"name": "broker-a", "slaves": 1}, {"name": "broker-b"}])"));
    EXPECT_EQ(scenario["topics"], json::parse(R"([
      {"name": "OrderTopic", "readQueueNums": 8, "writeQueueNums": 8},
      {"name": "TopicTest", "readQueueNums": 4, "writeQueueNums": 4}])"));  // TBW102 left out
    EXPECT_EQ(scenario["producers"][0]["count"], 12);
    EXPECT_EQ(scenario["faults"], json::array());
    EXPECT_NE(scenario["description"].get<std::string>().find(address), std::string::npos);
    // `nssim run` takes it as it is.
    const std::string run_dir = out.substr(0, out.rfind('/')) + "/run";
    const NssimRun simulated = run_nssim({"run", out, "--out", run_dir}, "");
    EXPECT_EQ(simulated.exit_code, 0) << simulated.output;
    EXPECT_NE(simulated.output.find("report: " + run_dir + "/report.html"), std::string::npos);
    std::system(("rm -rf '" + run_dir + "'").c_str());
    remove_scratch(out);
  }
}

TEST(Import, TopicsNamesTheTopicsToTakeAndStdoutIsTheDefault) {
  ServeProcess serve({});
  Client a0(serve.port());
  register_broker(a0, "broker-a", 0, "127.0.0.1:20911");
  const NssimRun run =
      run_nssim({"import", "--namesrv", "127.0.0.1:" + std::to_string(serve.port()), "--topics",
                 "Topic.*|TBW102"},
                "");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json scenario = json::parse(run.output);
  ASSERT_EQ(scenario["topics"].size(), 2U);
  EXPECT_EQ(scenario["topics"][0]["name"], "TBW102");
  EXPECT_EQ(scenario["topics"][1]["name"], "TopicTest");
}

// A loopback listener that accepts and then does what `behaviour` says with each connection.
class FakeServer {
 public:
  explicit FakeServer(bool answer_garbage) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(::listen(fd_, 4), 0);
    socklen_t length = sizeof address;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this, answer_garbage] {
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) return;
      if (answer_garbage) {
        const char reply[] = "HTTP/1.0 400 Bad Request\r\n\r\n";
        EXPECT_GT(::write(client, reply, sizeof reply - 1), 0);
        ::shutdown(client, SHUT_WR);
      }
      char buffer[4096];
      while (::read(client, buffer, sizeof buffer) > 0) {
      }
      ::close(client);
    });
  }
  ~FakeServer() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

TEST(Import, BadAddressesAndPortsThatAreNoNameServerAreOneLineAndExitTwo) {
  const auto refused_with = [](const std::vector<std::string>& args, const std::string& line) {
    const NssimRun run = run_nssim(args, "");
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(run.output, "nssim import: " + line + "\n");
  };
  refused_with({"import", "--namesrv", "localhost"},
               "--namesrv: expected HOST:PORT addresses separated by ';', got 'localhost'");
  refused_with({"import", "--namesrv", "127.0.0.1:99999"},
               "--namesrv: expected HOST:PORT addresses separated by ';', got '127.0.0.1:99999'");
  {
    FakeServer silent(/*answer_garbage=*/false);
    const std::string address = "127.0.0.1:" + std::to_string(silent.port());
    refused_with({"import", "--namesrv", address},
                 address + ": GET_NAMESRV_CONFIG: no answer within 3000 ms");
  }
  {
    FakeServer garbage(/*answer_garbage=*/true);
    const std::string address = "127.0.0.1:" + std::to_string(garbage.port());
    const NssimRun run = run_nssim({"import", "--namesrv", address}, "");
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.output.rfind("nssim import: " + address + ": GET_NAMESRV_CONFIG: ", 0), 0U)
        << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1);
  }
  // A port nobody listens on: the FakeServer's, once it is gone.
  int closed_port = 0;
  { closed_port = FakeServer(false).port(); }
  const std::string closed = "127.0.0.1:" + std::to_string(closed_port);
  refused_with({"import", "--namesrv", closed}, closed + ": connect: Connection refused");
}

}  // namespace
}  // namespace nssim::serve_test
