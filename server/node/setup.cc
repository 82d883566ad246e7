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
    : interface_(config.interface, listen_addresses(listen)), rules_(listen_addresses(listen)),
      lock_fd_(lock_shared(config.lock_file)) {
  check();
}

NodeSetup::~NodeSetup() { close(lock_fd_); }

void NodeSetup::check() const {
  interface_.ensure();
  rules_.ensure();
}

bool NodeSetup::teardown() {
  // Exclusive only when no other instance holds its shared lock; shared
  // again after, so that an instance starting beside this one is not held up.
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) return false;
  rules_.remove();
  interface_.remove();
  flock(lock_fd_, LOCK_SH);
  return true;
}

}  // namespace rk8s::server
