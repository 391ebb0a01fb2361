// File: how `nssim serve` writes endpoints and removals in its log and start-up line.
#pragma once

#include <asio.hpp>
#include <string>
#include <vector>

#include "nameserver_core/name_server.h"

namespace nssim::serve {

// "a.b.c.d:port", "[v6]:port".
std::string endpoint_text(const asio::ip::tcp::endpoint& endpoint);

// The removed addresses: "[a, b]", sorted, each once.
std::string removed_text(const std::vector<core::BrokerRemoval>& removals);

}  // namespace nssim::serve
