// SPDX-License-Identifier: Apache-2.0
// What the server says on standard error, one line each,
// "resolv-k8s-server: WHAT". Lines whatever clients do can make recur
// (accept() failing, sockets that cannot be opened, upstreams going down
// and up, libevent's own warnings) are bounded however often their cause
// recurs: a line like one said in the last kQuietSeconds (the same but
// for its numbers) is held back and counted, and the count said once the
// time is up (say_held_back(), from the periodic work).
#pragma once

#include <cstdint>
#include <string>

namespace rk8s::server {

constexpr unsigned kQuietSeconds = 10;

void say(const std::string& what);
void say_limited(const std::string& what);
// "N more like 'LINE' in the last 10 s" for each line held back.
void say_held_back();
// Lines held back so far (resolv_k8s_log_lines_held_back_total).
uint64_t lines_held_back();
// libevent's warnings and errors through say_limited().
void say_libevent_warnings();

}  // namespace rk8s::server
