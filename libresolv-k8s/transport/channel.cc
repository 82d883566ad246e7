// SPDX-License-Identifier: Apache-2.0
// Per-thread c-ares channels, built from a Config alone, dropped at thread
// exit, rebuilt after fork, when the Config changes and when an exchange on
// them was left mid-way.
//
// c-ares allocates with its default hooks (the libc's malloc): our copy of
// c-ares is private, and nothing it allocates outlives this file's channels.
#include "transport/channel.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rk8s {

// The first query of a pair, held until the second comes (hold_sends).
// c-ares's buffer of it lives as long as the query, which cannot end
// between the two ares_send calls.
struct HeldSend {
  bool on;
  bool failed;  // it could not be sent
  ares_socket_t fd;
  const void* data;
  size_t len;
};

// A query's callback and its argument, where c-ares's callback finds them:
// in the Channels, which outlive any exchange, not in the exchange's frame.
struct QuerySlot {
  Channels* owner;
  ares_callback done;
  void* arg;
};

struct Channels {
  bool built;
  unsigned generation;
  // The Config fields the channels are built from.
  FixedVec<IpAddr, kMaxNameservers> ns;
  uint8_t timeout;
  Dialect dialect;
  bool single_request;  // glibc's, without reopen: the UDP channels keep their socket

  // [0] over UDP, [1] over TCP alone.
  ares_channel server[2][kMaxNameservers];
  uint8_t* reply[2];
  size_t reply_cap[2];

  bool busy;        // between begin_exchange and end_exchange
  bool discarding;  // in ares_destroy, whose callbacks reach no exchange
  QuerySlot slot[2];
  HeldSend held;
  const int* awaited;  // await_replies
};

static Once once;
// The thread's channels; the key frees them at thread exit. Where there
// are no keys (the preload in a glibc before 2.34 without libpthread, so
// with one thread), TLS alone holds them.
//
// Why per thread, and not owned by the lookup (issue 48): everything an
// exchange carries reaches c-ares's callbacks through the Channels
// (user_data, the query slots), but the channels themselves must outlive
// the lookup. A channel made per lookup costs 43,000 instructions and 9 µs
// here (ares_init_options and ares_destroy: 3,072 list heads, and the ID
// key read from /dev/urandom, a file glibc never opens; c-ares 1.18.1
// falls back to rand() without it, which moves the program's own rand()
// sequence): more than the whole lookup. A process-wide pool lent to each
// lookup cannot tell the channels of a lookup left by siglongjmp from
// those of a lookup still running on another thread: each left lookup
// would leak its channels (72 KiB of list heads each) and its socket,
// without bound.
// Finding them again needs the thread's identity, and freeing them after
// pthread_cancel a hook at thread exit: per-thread state under another
// name. So the cache is the thread's, as glibc's own resolver state is
// (__res_state is thread-local there), and a left exchange is found and
// discarded by the thread's next one (begin_exchange).
static __thread Channels* mine __attribute__((tls_model("initial-exec")));
static pthread_key_t key;
static bool have_key;
// Bumped in the child after fork: older channels hold the parent's sockets.
static unsigned fork_generation;

// ares_destroy ends every query left with a callback, whose argument may
// be in the frame of an exchange that was left or cancelled: the slots
// pass none on.
static void destroy_channels(Channels& c) {
  c.discarding = true;
  for (auto& side : c.server)
    for (ares_channel& ch : side) {
      if (ch) ares_destroy(ch);
      ch = nullptr;
    }
  c.discarding = false;
  c.held = HeldSend{};
  c.awaited = nullptr;
}

static void free_channels(void* p) {
  Channels* c = static_cast<Channels*>(p);
  mine = nullptr;
  destroy_channels(*c);
  free(c->reply[0]);
  free(c->reply[1]);
  free(c);
}

static void after_fork_in_child() { fork_generation++; }

static void init_once() {
  have_key = pthread_key_create(&key, free_channels) == 0;
  pthread_atfork(nullptr, nullptr, after_fork_in_child);
}

// glibc's single-request sends the second query of a pair on the socket of
// the first, once the first is answered; every other step's socket closes
// with the step.
static bool keeps_socket(const Config& conf) {
  return conf.opt.single_request && !conf.opt.single_request_reopen;
}

static bool built_from(const Channels& c, const Config& conf) {
  if (!c.built || c.generation != fork_generation || c.timeout != conf.opt.timeout ||
      c.dialect != conf.dialect || c.single_request != keeps_socket(conf) ||
      c.ns.count != conf.ns.count)
    return false;
  for (size_t i = 0; i < c.ns.count; i++)
    if (!same_ip(c.ns[i], conf.ns[i])) return false;
  return true;
}

// A socket as glibc opens one, flags and all in the one call; c-ares would
// set them with three fcntl calls after it.
static ares_socket_t open_socket(int domain, int type, int protocol, void*) {
  int fd = socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
  if (fd >= 0 && type == SOCK_STREAM) {
    // With socket functions set, c-ares leaves Nagle on: the A and AAAA
    // queries of a pair are two writes, and the second must not wait for
    // the ACK of the first.
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd < 0 ? ARES_SOCKET_BAD : fd;
}

// The held query and `second` on one socket, in one sendmmsg as glibc's
// send_dg sends a pair; what sendmmsg did not send goes alone.
static ares_ssize_t send_pair(HeldSend& held, ares_socket_t fd, const iovec& second) {
  mmsghdr m[2] = {};
  iovec first = {const_cast<void*>(held.data), held.len};
  m[0].msg_hdr.msg_iov = &first;
  m[1].msg_hdr.msg_iov = const_cast<iovec*>(&second);
  m[0].msg_hdr.msg_iovlen = m[1].msg_hdr.msg_iovlen = 1;
  int sent = sendmmsg(fd, m, 2, MSG_NOSIGNAL);
  if (sent < 1 && send(fd, first.iov_base, first.iov_len, MSG_NOSIGNAL) < 0) held.failed = true;
  held.data = nullptr;
  if (sent == 2) return ares_ssize_t(m[1].msg_len);
  return send(fd, second.iov_base, second.iov_len, MSG_NOSIGNAL);
}

// c-ares writes with writev: a TCP server gone away would raise SIGPIPE.
// One piece (a UDP query) goes out as glibc sends it, with send, or held
// to go out with the next (hold_sends).
static ares_ssize_t send_vector(ares_socket_t fd, const iovec* iov, int n, void* channels) {
  HeldSend& held = static_cast<Channels*>(channels)->held;
  if (n == 1 && held.on && !held.data) {
    held.fd = fd;
    held.data = iov[0].iov_base;
    held.len = iov[0].iov_len;
    return ares_ssize_t(held.len);
  }
  if (n == 1 && held.data && held.fd == fd) return send_pair(held, fd, iov[0]);
  if (n == 1) return send(fd, iov[0].iov_base, iov[0].iov_len, MSG_NOSIGNAL);
  msghdr m{};
  m.msg_iov = const_cast<iovec*>(iov);
  m.msg_iovlen = size_t(n);
  return sendmsg(fd, &m, MSG_NOSIGNAL);
}

// With socket functions set, c-ares calls each of them: the other three
// are the plain system calls.
static int close_socket(ares_socket_t fd, void*) { return close(fd); }

static int connect_socket(ares_socket_t fd, const sockaddr* to, ares_socklen_t len, void*) {
  return connect(fd, to, len);
}

// c-ares reads a UDP socket until it is empty: once every reply came, the
// read that would say so is answered here, as glibc and musl read no more
// than they wait for.
static ares_ssize_t receive(ares_socket_t fd, void* buf, size_t len, int flags, sockaddr* from,
                            ares_socklen_t* from_len, void* channels) {
  const int* awaited = static_cast<Channels*>(channels)->awaited;
  if (awaited && *awaited == 0) {
    errno = EAGAIN;
    return -1;
  }
  return recvfrom(fd, buf, len, flags, from, from_len);
}

static const ares_socket_functions kSocketFunctions = {open_socket, close_socket, connect_socket,
                                                       receive, send_vector};

// ares_set_servers_ports also drops the server's sockets: it is how a
// channel that keeps them (STAYOPEN) gets a new socket without losing its
// other state.
static bool set_server(ares_channel ch, const IpAddr& ns) {
  ares_addr_port_node node;
  memset(&node, 0, sizeof node);
  node.family = ns.family;
  if (ns.family == AF_INET)
    memcpy(&node.addr.addr4, ns.addr, 4);
  else
    memcpy(&node.addr.addr6, ns.addr, 16);
  return ares_set_servers_ports(ch, &node) == ARES_SUCCESS;
}

// glibc 2.36's send_dg waits (timeout << server index) seconds, divided by
// the server count past the first server, and at least 1 s.
static int timeout_ms(const Channels& c, size_t s) {
  unsigned seconds = unsigned(c.timeout) << s;
  if (s > 0) seconds /= unsigned(c.ns.count);
  return int(seconds ? seconds : 1) * 1000;
}

static ares_channel new_channel(Channels& c, size_t s, bool tcp) {
  static char lookups[] = "b";
  ares_options o;
  memset(&o, 0, sizeof o);
  // NOCHECKRESP: SERVFAIL, REFUSED and NOTIMP come back to us, so the walk
  // over servers is ours. Without STAYOPEN c-ares closes a channel's
  // sockets once its last query ended (answered, timed out or cancelled):
  // at the end of every step, and between the two queries of
  // single-request-reopen; with it (single-request) they close when we
  // say so. No EDNS flag: c-ares would cut 11 bytes off our query on
  // FORMERR. IGNTC for glibc: a truncated reply comes back to exchange.cc,
  // which switches to TCP as glibc does (c-ares then cuts a reply at 512
  // bytes, kept as truncated too).
  o.flags = ARES_FLAG_NOCHECKRESP | (!tcp && c.single_request ? ARES_FLAG_STAYOPEN : 0) |
            (tcp                            ? ARES_FLAG_USEVC
             : c.dialect == Dialect::glibc ? ARES_FLAG_IGNTC
                                           : 0);
  o.timeout = timeout_ms(c, s);
  o.tries = 1;
  o.ndots = 1;
  o.lookups = lookups;
  // With servers, domains, lookups, sortlist, ndots, timeout, tries and
  // rotation all given, ares_init_options opens no configuration file and
  // every field LOCALDOMAIN or RES_OPTIONS could set is taken.
  int mask = ARES_OPT_FLAGS | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES | ARES_OPT_NDOTS |
             ARES_OPT_NOROTATE | ARES_OPT_SERVERS | ARES_OPT_DOMAINS | ARES_OPT_LOOKUPS |
             ARES_OPT_SORTLIST;
  ares_channel ch;
  if (ares_init_options(&ch, &o, mask) != ARES_SUCCESS) return nullptr;
  if (!set_server(ch, c.ns[s])) {
    ares_destroy(ch);
    return nullptr;
  }
  ares_set_socket_functions(ch, &kSocketFunctions, &c);
  return ch;
}

Channels* begin_exchange(const Config& conf) {
  once.run(init_once);
  Channels* c = mine;
  if (!c) {
    c = static_cast<Channels*>(calloc(1, sizeof *c));
    if (!c) return nullptr;
    if (have_key && pthread_setspecific(key, c) != 0) {
      free(c);
      return nullptr;
    }
    mine = c;
  }
  // Still busy: the last exchange was left, its queries still in them.
  if (c->busy || !built_from(*c, conf)) {
    destroy_channels(*c);
    c->built = true;
    c->generation = fork_generation;
    c->ns = conf.ns;
    c->timeout = conf.opt.timeout;
    c->dialect = conf.dialect;
    c->single_request = keeps_socket(conf);
  }
  c->busy = true;
  return c;
}

void end_exchange(Channels& c) { c.busy = false; }

ares_channel server_channel(Channels& c, size_t s, bool tcp) {
  ares_channel& ch = c.server[tcp][s];
  if (!ch) ch = new_channel(c, s, tcp);
  return ch;
}

static void on_done(void* slot, int status, int timeouts, unsigned char* msg, int len) {
  const QuerySlot& q = *static_cast<QuerySlot*>(slot);
  if (!q.owner->discarding) q.done(q.arg, status, timeouts, msg, len);
}

void send_query(Channels& c, ares_channel ch, size_t i, const Bytes& query, ares_callback done,
                void* arg) {
  c.slot[i] = QuerySlot{&c, done, arg};
  ares_send(ch, query.data, int(query.size), on_done, &c.slot[i]);
}

void end_step(Channels& c, size_t s, bool tcp) {
  ares_channel& ch = c.server[tcp][s];
  if (ch && !tcp && c.single_request && !set_server(ch, c.ns[s])) {
    ares_destroy(ch);
    ch = nullptr;
  }
}

void hold_sends(Channels& c) { c.held.on = true; }

bool flush_sends(Channels& c) {
  HeldSend& held = c.held;
  held.on = false;
  if (held.data && send(held.fd, held.data, held.len, MSG_NOSIGNAL) < 0) held.failed = true;
  held.data = nullptr;
  bool sent = !held.failed;
  held.failed = false;
  return sent;
}

void await_replies(Channels& c, const int* outstanding) { c.awaited = outstanding; }

const uint8_t* keep_reply(Channels& c, size_t i, const uint8_t* msg, size_t len) {
  if (len > c.reply_cap[i]) {
    uint8_t* p = static_cast<uint8_t*>(realloc(c.reply[i], len));
    if (!p) return nullptr;
    c.reply[i] = p;
    c.reply_cap[i] = len;
  }
  memcpy(c.reply[i], msg, len);
  return c.reply[i];
}

}  // namespace rk8s
