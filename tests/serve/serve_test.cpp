// `nssim serve`'s TCP layer: frames however they arrive, bad frames, idle connections as channel
// events, start-up and flags. Loopback only; waits are on socket events.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "serve_process.h"

namespace nssim::serve_test {
namespace {

codec::RemotingHeader route_query(int opaque, const std::string& topic = "TopicTest") {
  codec::RemotingHeader header;
  header.code = 105;
  header.version = 121;  // ali-ons
  header.opaque = opaque;
  header.ext_fields = {{"topic", topic}};
  header.has_ext_fields = true;
  return header;
}

// A REGISTER_BROKER of broker-a at 127.0.0.1:20911 with TBW102 and TopicTest (5.x refuses a first
// registration of exactly one topic), no bodyCrc32 (Java reads 0 and skips the check).
codec::RemotingHeader register_broker(int opaque) {
  codec::RemotingHeader header;
  header.code = 103;
  header.version = 409;
  header.opaque = opaque;
  header.ext_fields = {{"brokerAddr", "127.0.0.1:20911"},
                       {"brokerId", "0"},
                       {"brokerName", "broker-a"},
                       {"clusterName", "DefaultCluster"},
                       {"haServerAddr", "127.0.0.1:20912"}};
  header.has_ext_fields = true;
  return header;
}
const std::string kRegisterBody =
    R"({"filterServerList":[],"topicConfigSerializeWrapper":{"topicConfigTable":)"
    R"({"TBW102":{"topicName":"TBW102","perm":7},)"
    R"("TopicTest":{"topicName":"TopicTest","perm":6,"readQueueNums":4,"writeQueueNums":4}}}})";

TEST(Serve, AnswersBackToBackFramesInOrderAndAFrameSentByteByByte) {
  ServeProcess serve({});
  Client client(serve.port());
  client.send_bytes(codec::encode_frame(route_query(1), "") +
                    codec::encode_frame(route_query(2), "") +
                    codec::encode_frame(route_query(3), ""));
  for (int opaque = 1; opaque <= 3; ++opaque) {
    const codec::RemotingFrame answer = client.receive();
    EXPECT_EQ(answer.header.opaque, opaque);
    EXPECT_EQ(answer.header.code, 17);
    EXPECT_EQ(answer.header.flag, codec::kFlagResponse);
  }
  const std::string bytes = codec::encode_frame(route_query(4), "");
  for (char byte : bytes) client.send_bytes(std::string(1, byte));
  EXPECT_EQ(client.receive().header.opaque, 4);
  EXPECT_EQ(serve.stop(), 0);
}

TEST(Serve, ABadFrameClosesOnlyItsConnection) {
  ServeProcess serve({});
  Client bad(serve.port());
  Client good(serve.port());
  bad.send_bytes(std::string("\x00\x00\x00\x02", 4));  // a length below 4
  EXPECT_TRUE(bad.wait_closed_by_server());
  good.send(route_query(7));
  EXPECT_EQ(good.receive().header.opaque, 7);
}

TEST(Serve, ABrokerClosingItsConnectionLeavesTheRoute) {
  for (const char* profile : {"4.9", "5.x"}) {
    ServeProcess serve({"--profile", profile});
    Client broker(serve.port());
    Client producer(serve.port());
    broker.send(register_broker(1), kRegisterBody);
    EXPECT_EQ(broker.receive().header.code, 0) << profile;
    producer.send(route_query(2));
    EXPECT_EQ(producer.receive().header.code, 0) << profile;
    broker.close_and_wait();
    producer.send(route_query(3));
    EXPECT_EQ(producer.receive().header.code, 17) << profile;  // TOPIC_NOT_EXIST
  }
}

// serverChannelMaxIdleTimeSeconds=1: the broker's connection is closed as idle about a second
// after its last read or write (the one wait here is for that close), and its route goes.
TEST(Serve, AnIdleConnectionIsClosedAndItsBrokerDropped) {
  for (const char* profile : {"4.9", "5.x"}) {
    ServeProcess serve({"--profile", profile, "--config", "serverChannelMaxIdleTimeSeconds=1"});
    Client broker(serve.port());
    broker.send(register_broker(1), kRegisterBody);
    EXPECT_EQ(broker.receive().header.code, 0) << profile;
    EXPECT_TRUE(broker.wait_closed_by_server()) << profile;
    Client producer(serve.port());
    producer.send(route_query(2));
    EXPECT_EQ(producer.receive().header.code, 17) << profile;
  }
}

TEST(Serve, OnewayRequestsAreNotAnswered) {
  ServeProcess serve({});
  Client client(serve.port());
  codec::RemotingHeader oneway = register_broker(1);
  oneway.flag = codec::kFlagOneway;
  client.send(oneway, kRegisterBody);
  client.send(route_query(2));
  const codec::RemotingFrame answer = client.receive();
  EXPECT_EQ(answer.header.opaque, 2);  // the oneway registration ran but got no answer
  EXPECT_EQ(answer.header.code, 0);
}

TEST(Serve, LogHasALinePerConnectionEventAndRequest) {
  ServeProcess serve({"--log"});
  {
    Client client(serve.port());
    client.send(route_query(5));
    EXPECT_EQ(client.receive().header.code, 17);
    codec::RemotingHeader oneway = route_query(6);
    oneway.flag = codec::kFlagOneway;
    client.send(oneway);
    client.close_and_wait();
  }
  Client bad(serve.port());
  bad.send_bytes(std::string("\x00\x00\x00\x02", 4));
  EXPECT_TRUE(bad.wait_closed_by_server());
  Client reset(serve.port());
  reset.send(route_query(7));
  EXPECT_EQ(reset.receive().header.opaque, 7);
  reset.reset();
  Client last(serve.port());  // by its answer the server has polled the reset socket too
  last.send(route_query(8));
  EXPECT_EQ(last.receive().header.opaque, 8);
  EXPECT_EQ(serve.stop(), 0);
  const std::string& log = serve.output();
  const std::string lines[] = {
      "connect #1 127.0.0.1:",
      "request #1 code=105 opaque=5 -> code=17\n",
      "request #1 code=105 opaque=6 -> no response\n",
      "close #1 (closed by the peer) removed=[]\n",
      "connect #2 127.0.0.1:",
      "close #2 (bad frame: frame length 2: expected 4 to 16777212) removed=[]\n",
      "exception #3 (Connection reset by peer) removed=[]\n",
      "stop (signal 15)\n",
  };
  std::size_t at = 0;
  for (const auto& line : lines) {
    const auto found = log.find(line, at);
    ASSERT_NE(found, std::string::npos) << "missing, in order: " << line << "\nin:\n" << log;
    at = found + line.size();
  }
}

// RLIMIT_NOFILE 64 and 100 connections: the listener runs out of descriptors with connections
// still queued. After a failed accept it rests 1 s (Netty's ServerBootstrapAcceptor), so it idles
// instead of spinning (issue 28: 5.0 s of CPU in 5 s, every accept failing), says so once, keeps
// answering the connections it holds, and stops at once on SIGTERM, leaving no port behind.
TEST(Serve, OutOfDescriptorsItRestsBetweenAcceptsAndKeepsServing) {
  const std::string errors = ::testing::TempDir() + "nssim_serve_emfile_stderr.txt";
  const auto start = std::chrono::steady_clock::now();
  ServeProcess serve({}, {64, errors});
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 100; ++i) clients.push_back(std::make_unique<Client>(serve.port()));
  Client& first = *clients.front();
  first.send(route_query(1));
  EXPECT_EQ(first.receive().header.opaque, 1);
  std::this_thread::sleep_for(std::chrono::seconds(3));  // the CPU is measured over this
  first.send(route_query(2));
  EXPECT_EQ(first.receive().header.opaque, 2);
  std::stringstream written;
  written << std::ifstream(errors).rdbuf();
  EXPECT_EQ(written.str(), "nssim serve: accept failed: Too many open files; retrying in 1 s\n");
  const auto stopping = std::chrono::steady_clock::now();
  EXPECT_EQ(serve.stop(), 0);
  const auto end = std::chrono::steady_clock::now();
  EXPECT_LT(end - stopping, std::chrono::seconds(2));
  const double wall = std::chrono::duration<double>(end - start).count();
  EXPECT_GT(wall, 3.0);
  EXPECT_LT(serve.cpu_seconds(), 0.2 * wall) << "over " << wall << " s";
  clients.clear();
  EXPECT_THROW(Client{serve.port()}, std::runtime_error);  // nothing listens there any more
}

// A host name is resolved as a Java listener's would be: localhost is 127.0.0.1.
TEST(Serve, ListensOnAHostName) {
  ServeSpawn spawn;
  spawn.listen = "localhost:0";
  ServeProcess serve({}, spawn);
  Client client(serve.port());
  client.send_bytes(codec::encode_frame(route_query(1), ""));
  EXPECT_EQ(client.receive().header.opaque, 1);
  EXPECT_EQ(serve.stop(), 0);
}

TEST(Serve, BadFlagsExitWithTwoAndOneLine) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"serve", "--listen", ":9876"},
       "nssim serve: --listen: expected HOST:PORT with an IP address or a host name that "
       "resolves and a port 0-65535, got ':9876'\n"},
      {{"serve", "--listen", "127.0.0.1:65536"},
       "nssim serve: --listen: expected HOST:PORT with an IP address or a host name that "
       "resolves and a port 0-65535, got '127.0.0.1:65536'\n"},
      {{"serve", "--profile", "6"}, "nssim serve: --profile: expected 4.9 or 5.x, got '6'\n"},
      {{"serve", "--config", "serverChannelMaxIdleTimeSeconds=x"},
       "nssim serve: --config: serverChannelMaxIdleTimeSeconds: expected a 32-bit integer, got "
       "'x'\n"},
  };
  for (const auto& [args, message] : cases) {
    const NssimRun run = run_nssim(args, "");
    EXPECT_EQ(run.exit_code, 2) << args[2];
    EXPECT_EQ(run.output, message);
  }
  ServeProcess serve({});
  const NssimRun taken =
      run_nssim({"serve", "--listen", "127.0.0.1:" + std::to_string(serve.port())}, "");
  EXPECT_EQ(taken.exit_code, 2);
  EXPECT_EQ(taken.output, "nssim serve: cannot listen on 127.0.0.1:" +
                              std::to_string(serve.port()) + ": Address already in use\n");
}

}  // namespace
}  // namespace nssim::serve_test
