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

// Back to the shared lock from the exclusive one, or from none: Linux
// removes the lock held before it looks for a conflicting one, so a
// conversion that failed leaves none. Waits while an instance tearing down
// holds it exclusive; a signal (the supervisor's have no SA_RESTART) does
// not end the wait.
void share_again(int fd) {
  while (flock(fd, LOCK_SH) != 0 && errno == EINTR) {
  }
}

// The link-local ones among `addresses` (169.254.0.0/16, fe80::/10).
std::vector<IpAddr> link_local(const std::vector<IpAddr>& addresses) {
  std::vector<IpAddr> out;
  for (const IpAddr& a : addresses)
    if (a.family == AF_INET ? a.addr[0] == 169 && a.addr[1] == 254 : a.addr[0] == 0xfe && (a.addr[1] & 0xc0) == 0x80)
      out.push_back(a);
  return out;
}

// `all` but those of `kept`.
std::vector<IpAddr> others(const std::vector<IpAddr>& all, const std::vector<IpAddr>& kept) {
  std::vector<IpAddr> out;
  for (const IpAddr& a : all) {
    bool is_kept = false;
    for (const IpAddr& k : kept) is_kept = is_kept || same_ip(a, k);
    if (!is_kept) out.push_back(a);
  }
  return out;
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
      kept_(config.keep_link_local ? link_local(listen_addresses(listen)) : std::vector<IpAddr>{}),
      dropped_(others(listen_addresses(listen), kept_)), kept_rules_(kept_),
      lock_fd_(lock_shared(config.lock_file)) {}

NodeSetup::~NodeSetup() { close(lock_fd_); }

void NodeSetup::check() {
  interface_.ensure();
  if (rules_kept_)
    rules_.install();
  else
    rules_.ensure();
  rules_kept_ = false;
}

bool NodeSetup::teardown(const std::function<bool()>& wanted) {
  // Exclusive only when no other instance holds its shared lock; shared
  // again after, so that an instance starting beside this one is not held up,
  // and so that one ending after this one sees it.
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    share_again(lock_fd_);
    return false;
  }
  // The rules first, as kube-proxy's DNAT is to take the ClusterIP's
  // queries back while it is still on the interface.
  bool kept = false;
  if (!kept_.empty()) {
    try {
      kept_rules_.install();
      interface_.drop(dropped_);
      kept = true;
    } catch (const std::runtime_error&) {  // then as without keepLinkLocal
    }
  }
  // Asked once the rest is gone: kube-dns's address back to kube-proxy
  // first, whatever the answer's wait.
  if (kept && wanted && !wanted()) kept = false;
  if (!kept) {
    rules_.remove();
    interface_.remove();
  }
  rules_kept_ = kept;
  share_again(lock_fd_);
  return true;
}

std::string NodeSetup::kept() const {
  std::string out;
  for (const IpAddr& a : kept_) {
    char text[64];
    ip_to_text(a, text, sizeof text);
    out += (out.empty() ? "" : ", ") + std::string(text);
  }
  return out;
}

}  // namespace rk8s::server
