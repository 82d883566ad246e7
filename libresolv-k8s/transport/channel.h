// SPDX-License-Identifier: Apache-2.0
// The calling thread's c-ares channels: two per nameserver of its Config,
// one over UDP and one over TCP alone.
//
// One channel per server, not one for all: c-ares 1.18.1 does not tell which
// server answered, and its own walk over servers differs from glibc's
// (per-query order, its timeout doubling, no SERVFAIL status). With one
// server per channel and tries = 1, the walk is ours and exact; c-ares still
// matches replies to queries and drops spoofed ones; for musl it also does
// TC -> TCP (for glibc, exchange.cc does it glibc's way).
#pragma once

#include <ares.h>

#include "conf/resolv_conf.h"

namespace rk8s {

struct Channels;

// Starts an exchange on the calling thread's channels for `conf`, rebuilt
// when the fields they were built from changed, after fork, and when the
// thread's last exchange never ended: a lookup left by siglongjmp (a
// SIGALRM handler's timeout) left its queries in them. nullptr when out of
// memory. end_exchange() when it is over.
Channels* begin_exchange(const Config& conf);
void end_exchange(Channels& c);

// The channel of server `s` of the Config last passed, over TCP or UDP,
// created on first use. nullptr when c-ares cannot be initialised.
ares_channel server_channel(Channels& c, size_t s, bool tcp);

// ares_send of `query` on `ch`, one of c's, through the channels' slot `i`
// (0 or 1, free: its last query ended): `done` gets `arg` as c-ares calls
// back, unless the channels are being discarded (a left exchange's, or at
// the thread's exit on pthread_cancel), when `arg` may be a dead frame's.
void send_query(Channels& c, ares_channel ch, size_t i, const Bytes& query, ares_callback done,
                void* arg);

// After a step to server `s`: its socket is closed, as glibc closes its
// socket after each res_send, so the next step opens a new one, from a new
// source port. c-ares closes it itself as the step's last query ends, but
// on a channel of single-request, which keeps it between the two queries.
void end_step(Channels& c, size_t s, bool tcp);

// A glibc step's two UDP queries go out in one sendmmsg, as send_dg sends
// them: after hold_sends() the first write is held and goes out with the
// second, until flush_sends(), which sends a write still held alone.
// False when a held write could not be sent (c-ares took it as sent).
void hold_sends(Channels& c);
bool flush_sends(Channels& c);

// The count of replies the step still waits for, while it waits (null
// after): at 0, the channels read no more.
void await_replies(Channels& c, const int* outstanding);

// Copies a reply into the thread's buffer `i` (0 or 1), kept until the next
// exchange. nullptr when out of memory.
const uint8_t* keep_reply(Channels& c, size_t i, const uint8_t* msg, size_t len);

}  // namespace rk8s
