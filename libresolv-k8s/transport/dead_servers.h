// SPDX-License-Identifier: Apache-2.0
// Nameservers that did not answer, remembered for a while within a process:
// the exchange asks the others first (a node-local cache that is gone costs
// one timeout, not one per query). glibc and musl keep no such memory; the
// README lists the difference.
#pragma once

#include "util/ip.h"

namespace rk8s {

// How long a server that timed out or refused stays at the back.
constexpr unsigned kDeadServerSeconds = 30;

// Whether `server` timed out or refused within kDeadServerSeconds, and
// gave no answer since.
bool server_is_dead(const IpAddr& server);
// What an exchange with `server` came to: an answer of any rcode (alive),
// or a timeout or ICMP unreachable (dead).
void note_server(const IpAddr& server, bool answered);
// Forgets every server (a test's fresh start).
void forget_dead_servers();

}  // namespace rk8s
