// SPDX-License-Identifier: Apache-2.0
// Our getaddrinfo logic over the oracle's cases (stdin): results/gai_steps.h plus
// the hosts parser on /etc/hosts, in the dialect named by argv[1].
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "files/hosts.h"
#include "results/gai_steps.h"
#include "results/list.h"

namespace {

rk8s::Dialect g_dialect;

size_t read_file(const char* path, char* buf, size_t cap) {
  int fd = open(path, O_RDONLY);
  ssize_t n = fd < 0 ? 0 : read(fd, buf, cap);
  if (fd >= 0) close(fd);
  return n > 0 ? size_t(n) : 0;
}

void append(const rk8s::HostsResult& r, rk8s::IpAddr* out, size_t& n) {
  for (const rk8s::IpAddr& a : r.addrs) {
    out[n].family = a.family;
    memcpy(out[n].addr, a.addr, 16);
    out[n++].scope_id = a.scope_id;
  }
}

int look_up(const char* name, int family, rk8s::HostsResult& r) {
  static char text[65536];
  rk8s::HostsQuery q;
  q.dialect = g_dialect;
  q.family = family;
  // Debian's /etc/host.conf says "multi on"; a crude check is enough here.
  size_t n = read_file("/etc/host.conf", text, sizeof text - 1);
  text[n] = 0;
  q.multi = strstr(text, "multi on") != nullptr;
  rk8s::LineReader lines(rk8s::Str{text, read_file("/etc/hosts", text, sizeof text)});
  rk8s::hosts_lookup(q, lines, rk8s::str(name), r);
  return r.error;
}

int resolve(const rk8s::GaiRequest& plan, struct addrinfo** res) {
  rk8s::IpAddr addrs[2 * rk8s::kMaxHostsAddrs];
  size_t n = 0;
  rk8s::HostsResult first, second;
  bool two_steps = g_dialect == rk8s::Dialect::glibc && plan.family == AF_INET6 && plan.want_a;
  int family = two_steps ? AF_INET6 : plan.want_a && plan.want_aaaa ? AF_UNSPEC
                                     : plan.want_a ? AF_INET : AF_INET6;
  if (int err = look_up(plan.node, family, first)) return err;
  append(first, addrs, n);
  if (two_steps && (!plan.a_only_without_aaaa || n == 0)) {
    look_up(plan.node, AF_INET, second);
    append(second, addrs, n);
  }
  if (n == 0) return EAI_AGAIN;  // the sandbox's nameserver never answers
  const rk8s::HostsResult& named = first.found() ? first : second;
  return rk8s::gai_finish(plan, addrs, n, named.canon()[0] ? named.canon() : nullptr, res);
}

int our_getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                    struct addrinfo** res) {
  rk8s::GaiRequest plan;
  int rc = rk8s::gai_start(g_dialect, node, service, hints, plan, res);
  return rc == rk8s::kGaiResolve ? resolve(plan, res) : rc;
}

void our_freeaddrinfo(struct addrinfo* ai) { rk8s::gai_free(g_dialect, ai); }

}  // namespace

int main(int argc, char** argv) {
  g_dialect = argc > 1 && !strcmp(argv[1], "musl") ? rk8s::Dialect::musl : rk8s::Dialect::glibc;
  run_cases(stdin, our_getaddrinfo, our_freeaddrinfo);
  return 0;
}
