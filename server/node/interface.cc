// SPDX-License-Identifier: Apache-2.0
#include "server/node/interface.h"

#include <net/if.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>

#include <memory>
#include <stdexcept>

namespace rk8s::server {
namespace {

struct Socket {
  nl_sock* sk = nl_socket_alloc();
  Socket() {
    if (!sk || nl_connect(sk, NETLINK_ROUTE) < 0) throw std::runtime_error("netlink: cannot connect");
  }
  ~Socket() { nl_socket_free(sk); }
};

[[noreturn]] void fail(const std::string& what, int err) {
  throw std::runtime_error(what + ": " + nl_geterror(err));
}

rtnl_link* find(const Socket& s, const std::string& name) {
  rtnl_link* link = nullptr;
  return rtnl_link_get_kernel(s.sk, 0, name.c_str(), &link) == 0 ? link : nullptr;
}

void create(const Socket& s, const std::string& name) {
  int err = 0;
  for (const char* kind : {"dummy", "bridge"}) {
    std::unique_ptr<rtnl_link, void (*)(rtnl_link*)> link(rtnl_link_alloc(), rtnl_link_put);
    rtnl_link_set_name(link.get(), name.c_str());
    if ((err = rtnl_link_set_type(link.get(), kind)) < 0) continue;
    rtnl_link_set_flags(link.get(), IFF_UP);
    if ((err = rtnl_link_add(s.sk, link.get(), NLM_F_CREATE)) >= 0) return;
  }
  fail("interface " + name, err);
}

void bring_up(const Socket& s, rtnl_link* link, const std::string& name) {
  if (rtnl_link_get_flags(link) & IFF_UP) return;
  std::unique_ptr<rtnl_link, void (*)(rtnl_link*)> change(rtnl_link_alloc(), rtnl_link_put);
  rtnl_link_set_flags(change.get(), IFF_UP);
  if (int err = rtnl_link_change(s.sk, link, change.get(), 0); err < 0) fail("interface " + name + " up", err);
}

void add_address(const Socket& s, int ifindex, const IpAddr& a) {
  std::unique_ptr<nl_addr, void (*)(nl_addr*)> local(
      nl_addr_build(a.family, a.addr, ip_size(a)), nl_addr_put);
  std::unique_ptr<rtnl_addr, void (*)(rtnl_addr*)> addr(rtnl_addr_alloc(), rtnl_addr_put);
  nl_addr_set_prefixlen(local.get(), a.family == AF_INET ? 32 : 128);
  rtnl_addr_set_ifindex(addr.get(), ifindex);
  rtnl_addr_set_local(addr.get(), local.get());
  int err = rtnl_addr_add(s.sk, addr.get(), 0);
  if (err < 0 && err != -NLE_EXIST) {
    char text[64];
    ip_to_text(a, text, sizeof text);
    fail(std::string("address ") + text, err);
  }
}

}  // namespace

void LocalInterface::ensure() const {
  Socket s;
  rtnl_link* link = find(s, name_);
  if (!link) {
    create(s, name_);
    link = find(s, name_);
    if (!link) throw std::runtime_error("interface " + name_ + ": created, then gone");
  }
  std::unique_ptr<rtnl_link, void (*)(rtnl_link*)> held(link, rtnl_link_put);
  bring_up(s, link, name_);
  for (const IpAddr& a : addresses_) add_address(s, rtnl_link_get_ifindex(link), a);
}

void LocalInterface::drop(const std::vector<IpAddr>& addresses) const {
  Socket s;
  rtnl_link* link = find(s, name_);
  if (!link) return;
  int ifindex = rtnl_link_get_ifindex(link);
  rtnl_link_put(link);
  for (const IpAddr& a : addresses) {
    std::unique_ptr<nl_addr, void (*)(nl_addr*)> local(nl_addr_build(a.family, a.addr, ip_size(a)), nl_addr_put);
    std::unique_ptr<rtnl_addr, void (*)(rtnl_addr*)> addr(rtnl_addr_alloc(), rtnl_addr_put);
    nl_addr_set_prefixlen(local.get(), a.family == AF_INET ? 32 : 128);
    rtnl_addr_set_ifindex(addr.get(), ifindex);
    rtnl_addr_set_local(addr.get(), local.get());
    rtnl_addr_delete(s.sk, addr.get(), 0);  // gone already: nothing to do
  }
}

void LocalInterface::remove() const {
  Socket s;
  if (rtnl_link* link = find(s, name_)) {
    rtnl_link_delete(s.sk, link);
    rtnl_link_put(link);
  }
}

}  // namespace rk8s::server
