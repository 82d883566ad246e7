// SPDX-License-Identifier: Apache-2.0
#include "server/forward/loop_guard.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "server/util/dns_text.h"
#include "server/util/names.h"

namespace rk8s::server {

namespace {

constexpr uint16_t kTypeHinfo = 13;  // CoreDNS's probe type

// Per thread, so that no lock is taken: a generator's state is no one's.
std::mt19937_64& random() {
  static thread_local std::mt19937_64 r{std::random_device{}()};
  return r;
}

constexpr int kProbeSeconds = 30;  // CoreDNS's

// One probe query and its reply's rcode; -1 without one (3 s).
int ask(const Name& name, const sockaddr_storage& to, socklen_t len) {
  int fd = socket(to.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval wait{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  uint8_t query[512], reply[512];
  uint16_t id = uint16_t(random()());
  size_t n = dns::build_query({id, name, kTypeHinfo}, query, sizeof query);
  int rcode = -1;
  if (n && connect(fd, reinterpret_cast<const sockaddr*>(&to), len) == 0 && send(fd, query, n, 0) == ssize_t(n))
    for (ssize_t got; (got = recv(fd, reply, sizeof reply, 0)) >= 0;)
      if (got >= 12 && load16(reply) == id) {
        rcode = reply[3] & dns::kRcodeMask;
        break;
      }
  close(fd);
  return rcode;
}

}  // namespace

void LoopGuard::add(const Name& zone, Forwarder& forwarder) {
  char labels[48];
  snprintf(labels, sizeof labels, "%016llx.%016llx", (unsigned long long)random()(),
           (unsigned long long)random()());
  auto probe = std::make_shared<Probe>();
  probe->forwarder = &forwarder;
  Name prefix;
  if (!parse_name(labels, prefix) || !dns::name_concat(prefix, zone, probe->name)) return;
  probes_.push_back(std::move(probe));
}

void LoopGuard::arrived(const Name& qname) {
  for (const std::shared_ptr<Probe>& p : probes_) {
    if (!dns::name_equal(p->name, qname)) continue;
    // The first arrival is our own query; a second came back.
    if (p->arrivals.fetch_add(1) != 1 || p->looped.exchange(true)) return;
    p->forwarder->stop_forwarding();
    std::string to;
    for (size_t i = 0; i < p->forwarder->upstreams().size(); i++)
      to += (i ? ", " : "") + p->forwarder->upstreams().at(i).text;
    warn_("loop: " + name_text(p->name) + " HINFO, sent to ourselves and forwarded to " + to +
          ", came back: those upstreams forward to this server. Not forwarding to them (SERVFAIL) "
          "until a reload finds no loop");
    return;
  }
}

void LoopGuard::send(const Endpoint& listen) const {
  sockaddr_storage to = listen.addr;
  if (to.ss_family == AF_INET) {
    auto& in = reinterpret_cast<sockaddr_in&>(to);
    if (in.sin_addr.s_addr == htonl(INADDR_ANY)) in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  } else {
    auto& in6 = reinterpret_cast<sockaddr_in6&>(to);
    if (IN6_IS_ADDR_UNSPECIFIED(&in6.sin6_addr)) in6.sin6_addr = in6addr_loopback;
  }
  std::thread([probes = probes_, to, len = listen.len] {
    for (const std::shared_ptr<Probe>& p : probes)
      for (auto end = std::chrono::steady_clock::now() + std::chrono::seconds(kProbeSeconds);
           !p->looped && std::chrono::steady_clock::now() < end;
           std::this_thread::sleep_for(std::chrono::seconds(1))) {
        p->arrivals = 0;
        int rcode = ask(p->name, to, len);
        if (p->looped || (rcode >= 0 && rcode != dns::kServFail)) break;
      }
  }).detach();
}

}  // namespace rk8s::server
