// File: `nssim serve`: one NameServer core behind a TCP listener speaking RocketMQ remoting, until
// SIGINT or SIGTERM. Prints "nssim serve: listening on HOST:PORT" once bound (so a caller can use
// port 0), and with --log one line per connection event and request. docs/serve.md.
#include <charconv>
#include <csignal>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "cli/namesrv_options.h"
#include "cli/refusal.h"
#include "nssim_serve/log_text.h"
#include "nssim_serve/server.h"

namespace nssim::cli {

namespace {

// Java: NettyServerConfig#serverChannelMaxIdleTimeSeconds. NamesrvStartup reads one properties
// file into NamesrvConfig and NettyServerConfig alike, so it is a --config name too.
constexpr const char* kIdleField = "serverChannelMaxIdleTimeSeconds";

struct ServeFlags {
  std::string listen = "127.0.0.1:9876";
  std::string profile = "5.x";
  std::vector<std::string> config;
  bool log = false;
};

// "HOST:PORT" with an IPv4 literal or a bracketed IPv6 one ("[::1]:0").
std::optional<asio::ip::tcp::endpoint> parse_listen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string port_text = text.substr(colon + 1);
  unsigned port = 0;
  const auto [end, error] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || error != std::errc() || end != port_text.data() + port_text.size() ||
      port > 65535) {
    return std::nullopt;
  }
  std::error_code bad_address;
  const auto address = asio::ip::make_address(host, bad_address);
  if (!bad_address) return asio::ip::tcp::endpoint(address, static_cast<unsigned short>(port));
  // A host name (localhost, the machine's own name): the address InetAddress.getByName gives a
  // Java listener, the first IPv4 one (java.net.preferIPv6Addresses=false), else the first.
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  std::error_code unresolved;
  const auto found = resolver.resolve(host, port_text, unresolved);
  if (unresolved || found.empty()) return std::nullopt;
  for (const auto& entry : found) {
    if (entry.endpoint().address().is_v4()) return entry.endpoint();
  }
  return found.begin()->endpoint();
}

// Java: Integer.parseInt.
std::optional<int> parse_int(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

int run_serve(const ServeFlags& flags) {
  serve::ServeOptions options;
  std::vector<std::string> namesrv_config;
  for (const auto& assignment : flags.config) {
    const std::string prefix = std::string(kIdleField) + "=";
    if (assignment.rfind(prefix, 0) != 0) {
      namesrv_config.push_back(assignment);
      continue;
    }
    const auto seconds = parse_int(assignment.substr(prefix.size()));
    if (!seconds) {
      throw Refusal{"--config: " + std::string(kIdleField) + ": expected a 32-bit integer, got '" +
                    assignment.substr(prefix.size()) + "'"};
    }
    options.server_channel_max_idle_time_seconds = *seconds;
  }
  NamesrvOptions namesrv = parse_namesrv_options(flags.profile, namesrv_config);
  const auto listen = parse_listen(flags.listen);
  if (!listen) {
    throw Refusal{
        "--listen: expected HOST:PORT with an IP address or a host name that resolves and a port "
        "0-65535, got '" +
        flags.listen + "'"};
  }
  options.profile = namesrv.profile;
  options.config = std::move(namesrv.config);
  if (flags.log) options.log = &std::cout;
  options.errors = &std::cerr;

  asio::io_context io;
  std::unique_ptr<serve::Server> server;
  try {
    server = std::make_unique<serve::Server>(io, *listen, std::move(options));
  } catch (const std::system_error& error) {
    throw Refusal{"cannot listen on " + flags.listen + ": " + error.code().message()};
  }
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&server, &flags](std::error_code error, int signal_number) {
    if (error) return;
    if (flags.log) std::cout << "stop (signal " << signal_number << ")" << std::endl;
    server->stop();
  });
  std::cout << "nssim serve: listening on " << serve::endpoint_text(server->local_endpoint())
            << " (profile " << core::profile_name(namesrv.profile) << ")" << std::endl;
  io.run();
  // A stop asked for by SIGINT or SIGTERM is the normal end of a server.
  return 0;
}

}  // namespace

void add_serve_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ServeFlags>();
  CLI::App* serve = app.add_subcommand(
      "serve", "Serve one NameServer core over TCP (RocketMQ remoting) until SIGINT or SIGTERM");
  serve->add_option("--listen", flags->listen, "HOST:PORT to listen at (default 127.0.0.1:9876)")
      ->check(non_empty_text());
  serve->add_option("--profile", flags->profile, "upstream behaviour: 4.9 or 5.x (default)")
      ->check(non_empty_text());
  serve
      ->add_option("--config", flags->config,
                   "set a NamesrvConfig field or serverChannelMaxIdleTimeSeconds, NAME=VALUE")
      ->allow_extra_args(false);
  serve->add_flag("--log", flags->log, "one line per connection event and request on stdout");
  run_refusing(*serve, exit_code, [flags] { return run_serve(*flags); });
}

}  // namespace nssim::cli
