// SPDX-License-Identifier: Apache-2.0
#include "server/node/setup.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rk8s::server {
namespace {

int lock_shared(const std::string& path) {
  std::string dir = path.substr(0, path.rfind('/'));
  if (!dir.empty()) mkdir(dir.c_str(), 0755);
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || flock(fd, LOCK_SH) != 0)
    throw std::runtime_error(path + ": " + strerror(errno));
  return fd;
}

}  // namespace

std::vector<IpAddr> listen_addresses(const std::vector<Endpoint>& listen) {
  std::vector<IpAddr> out;
  for (const Endpoint& e : listen) {
    IpAddr a = ip_from_sockaddr(reinterpret_cast<const sockaddr*>(&e.addr));
    a.scope_id = 0;
    if (!same_ip(a, IpAddr{a.family})) out.push_back(a);  // not 0.0.0.0 nor ::
  }
  return out;
}

NodeSetup::NodeSetup(const NodeSetupConfig& config, const std::vector<Endpoint>& listen)
    : config_(config), listen_(listen), interface_(config.interface, listen_addresses(listen)),
      rules_(listen_addresses(listen)), lock_fd_(lock_shared(config.lock_file)) {
  rules_.install();
  check();
}

NodeSetup::~NodeSetup() { close(lock_fd_); }

void NodeSetup::check() const {
  interface_.ensure();
  rules_.ensure();
}

void NodeSetup::teardown() {
  // Exclusive only when no other instance holds its shared lock.
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) return;
  tear_down(config_, listen_);
}

std::vector<IpAddr> kept_addresses(const NodeSetupConfig& config, const std::vector<Endpoint>& listen) {
  std::vector<IpAddr> out;
  if (config.keep_link_local)
    for (const IpAddr& a : listen_addresses(listen))
      if (a.family == AF_INET ? a.addr[0] == 169 && a.addr[1] == 254 : a.addr[0] == 0xfe && (a.addr[1] & 0xc0) == 0x80)
        out.push_back(a);
  return out;
}

// Everything removed, then the link-local addresses (with keepLinkLocal)
// put back with their rules alone.
void tear_down(const NodeSetupConfig& config, const std::vector<Endpoint>& listen) {
  NotrackRules(listen_addresses(listen)).remove();
  LocalInterface(config.interface, listen_addresses(listen)).remove();
  std::vector<IpAddr> kept = kept_addresses(config, listen);
  if (kept.empty()) return;
  try {
    LocalInterface(config.interface, kept).ensure();
    NotrackRules(kept).ensure();
  } catch (const std::runtime_error&) {  // as it would be without keepLinkLocal
  }
}

bool tear_down_after(const NodeSetupConfig& config, const std::vector<Endpoint>& listen) {
  int fd = open(config.lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  bool alone = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
  if (alone) tear_down(config, listen);
  if (fd >= 0) close(fd);
  return alone;
}

}  // namespace rk8s::server
