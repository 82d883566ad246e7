// SPDX-License-Identifier: Apache-2.0
// Listening sockets, and a client's address as the query log writes it.
#pragma once

#include <string>

#include "server/settings/address.h"

namespace rk8s::server {

// A bound socket (SOCK_DGRAM or a listening SOCK_STREAM), non-blocking,
// with SO_REUSEPORT: each worker thread has its own, and a second instance
// can listen beside this one during a rolling restart. Throws
// std::runtime_error "bind ADDR:PORT/udp: reason".
int open_socket(const Endpoint& at, int type);

// TCP_NODELAY: DNS messages are small and a second one written before the
// first is acknowledged must not wait for the ACK (Nagle), which the
// peer's delayed ACK can hold back 40 ms.
void no_delay(int fd);

// TCP_QUICKACK: what was read is acknowledged now, not after the delayed
// ACK's wait, so a peer that leaves Nagle on (dnsmasq's kube-dns, and
// others) sends its next reply on the connection at once. Linux clears it
// again: set after each read.
void quick_ack(int fd);

// 10.0.0.1:5353, [fd00::1]:53.
std::string address_text(const sockaddr_storage& addr);

}  // namespace rk8s::server
