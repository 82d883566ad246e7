// SPDX-License-Identifier: Apache-2.0
// glibc 2.36's res_send walk: attempts, then servers (from a rotating start
// with `rotate`); each step sends the queries to one server and waits. A
// truncated reply switches it to TCP: the same step again, then use-vc.
// Differences left in: a glibc UDP reply over 512 bytes is taken as
// truncated (c-ares cuts it there); c-ares ignores a 12-byte REFUSED without
// a question (glibc accepts it); glibc's switch to single-request after a
// half-answered timeout is not made; a server that timed out or was
// unreachable within the last 30 s is asked after the others
// (dead_servers.h).
#include <errno.h>
#include <poll.h>

#include "transport/channel.h"
#include "transport/dead_servers.h"
#include "transport/exchange.h"

namespace rk8s {

// Who judges a reply's rcode: glibc's send_dg moves on to the next server
// after SERVFAIL, NOTIMP, REFUSED and a referral, its send_vc (use-vc)
// takes every reply; musl's rcodes are read by the walk.
enum class Verdict : uint8_t { glibc_udp, glibc_tcp, musl };

// The queries sent to one server together.
struct Step {
  int outstanding;
  bool heard;  // a reply came, of any rcode
  // A socket error (ICMP unreachable) reaches only one of the queries
  // sharing the socket; glibc gives up on the server for both.
  bool refused;
  // glibc's send_dg stops at a truncated reply, whatever the other did.
  bool truncated;
  Verdict verdict;
};

struct Pending {
  Channels* channels;
  Reply* reply;
  size_t index;  // of the reply buffer
  uint8_t server;
  Step* step;
};

// NOERROR without answers or additional records, neither AA nor RA.
static bool is_referral(const uint8_t* msg) {
  return (msg[3] & 0x0f) == 0 && !(msg[2] & 0x04) && !(msg[3] & 0x80) && !load16(msg + 6) &&
         !load16(msg + 10);
}

// TC, or cut at 512 bytes by c-ares (ARES_FLAG_IGNTC).
static bool is_truncated(const uint8_t* msg, size_t len) {
  return (msg[2] & 0x02) || len >= 512;
}

static Reply::Status status_of(int ares_status, const uint8_t* msg, Verdict verdict) {
  switch (ares_status) {
    case ARES_SUCCESS:
      if (verdict == Verdict::glibc_tcp) return Reply::ok;
      switch (msg[3] & 0x0f) {  // c-ares passes on nothing shorter than a header
        case 2: return Reply::servfail;
        case 4: return Reply::notimp;
        case 5: return Reply::refused;
        default: return verdict == Verdict::glibc_udp && is_referral(msg) ? Reply::lame : Reply::ok;
      }
    case ARES_ETIMEOUT: return Reply::timeout;
    case ARES_ECONNREFUSED: return Reply::conn_refused;
    default: return Reply::error;
  }
}

static void on_reply(void* arg, int ares_status, int, unsigned char* msg, int len) {
  Pending& p = *static_cast<Pending*>(arg);
  Step& step = *p.step;
  --step.outstanding;
  Reply& r = *p.reply;
  Reply::Status s = status_of(ares_status, msg, step.verdict);
  if (ares_status == ARES_ECANCELLED && step.refused) s = Reply::conn_refused;
  if (s == Reply::conn_refused) step.refused = true;
  // After rcode and referral, as send_dg looks.
  if (s == Reply::ok && step.verdict == Verdict::glibc_udp && is_truncated(msg, size_t(len)))
    step.truncated = true;
  if (ares_status == ARES_SUCCESS) {
    step.heard = true;
    r.msg = keep_reply(*p.channels, p.index, msg, size_t(len));
    r.len = size_t(len);
    if (!r.msg) s = Reply::error;
  }
  r.server = p.server;
  // glibc reports "connection refused" only when no server got anywhere.
  if (s != Reply::conn_refused || r.status == Reply::not_sent) r.status = s;
}

static void wait_for(ares_channel ch, const Step& step) {
  while (step.outstanding > 0) {
    if (step.refused || step.truncated) {
      ares_cancel(ch);  // runs every callback left, with ARES_ECANCELLED
      return;
    }
    ares_socket_t socks[ARES_GETSOCK_MAXNUM];
    int bits = ares_getsock(ch, socks, ARES_GETSOCK_MAXNUM);
    pollfd pfd[ARES_GETSOCK_MAXNUM];
    nfds_t n = 0;
    for (int i = 0; i < ARES_GETSOCK_MAXNUM; i++) {
      short events = short((ARES_GETSOCK_READABLE(bits, i) ? POLLIN : 0) |
                           (ARES_GETSOCK_WRITABLE(bits, i) ? POLLOUT : 0));
      if (events) pfd[n++] = pollfd{socks[i], events, 0};
    }
    timeval tv;
    const timeval* left = ares_timeout(ch, nullptr, &tv);
    int ms = left ? int(left->tv_sec * 1000 + (left->tv_usec + 999) / 1000) : -1;
    int ready = poll(pfd, n, ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      ares_cancel(ch);
      return;
    }
    if (ready == 0) ares_process_fd(ch, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
    for (nfds_t i = 0; i < n; i++) {
      short ev = pfd[i].revents;
      if (!ev) continue;
      ares_process_fd(ch, ev & (POLLIN | POLLERR | POLLHUP) ? pfd[i].fd : ARES_SOCKET_BAD,
                      ev & POLLOUT ? pfd[i].fd : ARES_SOCKET_BAD);
    }
  }
}

// True when a reply was truncated; `heard` set when any reply came.
static bool send_and_wait(ares_channel ch, const Bytes* queries, Pending* p, size_t n,
                          Verdict verdict, bool& heard) {
  Step step = {int(n), false, false, false, verdict};
  // glibc's pair leaves in one sendmmsg; musl sends each with sendto.
  bool pair = n == 2 && verdict == Verdict::glibc_udp;
  Channels& c = *p[0].channels;
  if (pair) hold_sends(c);
  for (size_t i = 0; i < n; i++) {
    p[i].step = &step;
    send_query(c, ch, p[i].index, queries[i], on_reply, &p[i]);
  }
  if (pair && !flush_sends(c)) ares_cancel(ch);  // as glibc gives up on the server
  await_replies(c, &step.outstanding);
  wait_for(ch, step);
  await_replies(c, nullptr);
  heard = heard || step.heard;
  return step.truncated;
}

enum class Outcome : uint8_t { next_server, answered, truncated };

// One step of the walk: every query to server s. Answered when a reply ends
// the walk (glibc keeps one good reply of a pair and gives up on the other).
static Outcome ask(Channels& c, const Config& conf, size_t s, Verdict verdict,
                   const Bytes* queries, Reply* replies, size_t n) {
  bool tcp = verdict == Verdict::glibc_tcp;
  ares_channel ch = server_channel(c, s, tcp);
  if (!ch) {
    for (size_t i = 0; i < n; i++) replies[i].status = Reply::error;
    return Outcome::next_server;
  }
  Pending p[2];
  for (size_t i = 0; i < n; i++) p[i] = Pending{&c, &replies[i], i, uint8_t(s), nullptr};
  bool reopen = conf.opt.single_request_reopen;
  bool truncated, heard = false;
  if (n == 1 || tcp || !(conf.opt.single_request || reopen)) {  // send_vc writes both
    truncated = send_and_wait(ch, queries, p, n, verdict, heard);
  } else {
    // glibc sends the second query only once the first is answered.
    truncated = send_and_wait(ch, queries, p, 1, verdict, heard);
    // With reopen the socket of the first closed with it.
    if (replies[0].status == Reply::ok && !truncated)
      truncated = send_and_wait(ch, queries + 1, p + 1, 1, verdict, heard);
  }
  bool silent = false;  // timed out or unreachable, nothing heard
  for (size_t i = 0; i < n; i++)
    silent = silent || replies[i].status == Reply::timeout || replies[i].status == Reply::conn_refused;
  if (heard || silent) note_server(conf.ns[s], heard);
  end_step(c, s, tcp);
  if (truncated) return Outcome::truncated;
  for (size_t i = 0; i < n; i++)
    if (replies[i].status == Reply::ok) return Outcome::answered;
  return Outcome::next_server;
}

// glibc's rotate: a process-wide counter that starts at a random server.
static size_t first_server(size_t count) {
  static unsigned next;  // bit 0: seeded
  unsigned v = __atomic_fetch_add(&next, 2, __ATOMIC_RELAXED);
  if (!(v & 1)) {
    v = unsigned(random_query_id()) << 1 | 1;
    __atomic_store_n(&next, v + 2, __ATOMIC_RELAXED);
  }
  return (v >> 1) % count;
}

static void walk(Channels& c, const Config& conf, const Bytes* queries, Reply* replies, size_t n) {
  size_t count = conf.ns.count;
  Verdict verdict = conf.dialect == Dialect::musl ? Verdict::musl
                    : conf.opt.use_vc                ? Verdict::glibc_tcp
                                                     : Verdict::glibc_udp;
  // Over TCP (use-vc) glibc makes one pass over the servers.
  unsigned attempts = verdict == Verdict::glibc_tcp ? 1 : conf.opt.attempts;
  size_t first = conf.opt.rotate && count > 1 ? first_server(count) : 0;
  // glibc's order, but a server that did not answer lately goes last (a
  // deliberate difference: dead_servers.h).
  size_t order[kMaxNameservers], ordered = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0; k < count; k++) {
      size_t s = (first + k) % count;
      if (server_is_dead(conf.ns[s]) == (pass == 1)) order[ordered++] = s;
    }
  for (unsigned a = 0; a < attempts; a++)
    for (size_t k = 0; k < count; k++) {
      size_t s = order[k];
      Outcome o = ask(c, conf, s, verdict, queries, replies, n);
      if (o == Outcome::truncated) {
        // The step again over TCP, both queries, and use-vc for the rest
        // of this pass: glibc's send_dg sets v_circuit.
        verdict = Verdict::glibc_tcp;
        attempts = a + 1;
        for (size_t i = 0; i < n; i++) replies[i] = Reply{};
        o = ask(c, conf, s, verdict, queries, replies, n);
      }
      if (o == Outcome::answered) return;
    }
}

void exchange(const Config& conf, const Bytes* queries, Reply* replies, size_t n) {
  for (size_t i = 0; i < n; i++) replies[i] = Reply{};
  if (conf.ns.count == 0 || conf.opt.attempts == 0) return;
  Channels* c = begin_exchange(conf);
  if (!c) {
    for (size_t i = 0; i < n; i++) replies[i].status = Reply::error;
    return;
  }
  walk(*c, conf, queries, replies, n);
  end_exchange(*c);
}

}  // namespace rk8s
