// Sockets and threads: UDP workers, TCP connections with pipelined
// queries (answered in order), and the metrics HTTP endpoint.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "server/config/flags.h"

namespace rk8s::server {

// Answers one query from `client` into `out`; 0 means no reply.
using QueryHandler =
    std::function<size_t(Bytes query, bool tcp, const std::string& client, uint8_t* out, size_t cap)>;

// A bound socket (SOCK_DGRAM or a listening SOCK_STREAM). Throws
// std::runtime_error "bind ADDR:PORT/udp: reason".
int open_socket(const Endpoint& at, int type);
std::string address_text(const sockaddr_storage& addr);

// Each runs forever on its own threads and returns at once.
void serve_udp(int fd, unsigned workers, const QueryHandler& handler);
void serve_tcp(int fd, const QueryHandler& handler);
void serve_http(int fd, const std::function<std::string()>& body);

}  // namespace rk8s::server
