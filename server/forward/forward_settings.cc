// SPDX-License-Identifier: Apache-2.0
#include "server/forward/forward_settings.h"

#include <stdexcept>

#include "server/settings/address.h"
#include "server/settings/system_resolv_conf.h"

namespace rk8s::server {

namespace {

constexpr uint16_t kTlsPort = 853;  // RFC 7858
constexpr std::string_view kForwardKeys[] = {"upstreams", "policy", "protocolStrategy", "transportConfig"};
constexpr std::string_view kResolverKeys[] = {"type", "address", "port"};

ForwardConfig forward_options(const Mapping& m, Policy default_policy) {
  ForwardConfig fc;
  fc.policy = default_policy;
  if (const Field* p = m.find("policy"))
    fc.policy = Policy(p->choice({"Random", "RoundRobin", "Sequential"}));  // Policy's order
  if (const Field* s = m.find("protocolStrategy")) fc.tcp_only = s->choice({"", "TCP"}) == 1;
  return fc;
}

// {type: SystemResolvConf} or {type: Network, address: IP, port: N}; an
// upstream without a port is on `port`.
void add_resolver(const Field& f, uint16_t port, const FileNames& files, std::vector<Upstream>& out) {
  Mapping m = f.mapping(kResolverKeys);
  const Field& type = m.need("type");
  if (type.choice({"SystemResolvConf", "Network"}) == 0) {
    if (m.find("address") || m.find("port")) f.fail("address and port are for type Network");
    try {
      for (const IpAddr& ip : system_resolv_conf_nameservers(files.resolv_conf)) out.push_back(upstream_at(ip, port));
    } catch (const std::runtime_error& e) {
      type.fail(e.what());
    }
    return;
  }
  const Field& address = m.need("address");
  std::string text = address.text();
  IpAddr ip;
  if (!parse_ip(text, ip)) address.fail("'" + text + "' is not an IP address");
  const Field* given = m.find("port");
  out.push_back(upstream_at(ip, given ? uint16_t(given->number(1, 65535)) : port));
}

}  // namespace

bool parse_upstream(std::string_view text, Upstream& out, uint16_t port) {
  IpAddr ip;
  if (!parse_ip(text, ip) && !parse_address_port(text, ip, port)) return false;
  if (port == 0) return false;
  out = upstream_at(ip, port);
  return true;
}

Upstream upstream_at(const IpAddr& ip, uint16_t port) {
  char buf[64];
  ip_to_text(ip, buf, sizeof buf);
  std::string host = buf;
  if (ip.family == AF_INET6) host = "[" + host + "]";
  return Upstream{ip, port, host + ":" + std::to_string(port)};
}

Upstream read_upstream(const Field& f, uint16_t port) {
  std::string text = f.text();
  Upstream u;
  if (!parse_upstream(text, u, port)) f.fail("'" + text + "' is not IP, IP:PORT or [IPV6]:PORT");
  return u;
}

ForwardConfig parse_forward_plugin(const Field& f, const FileNames& files) {
  Mapping m = f.mapping(kForwardKeys);
  ForwardConfig fc = forward_options(m, Policy::random);
  std::shared_ptr<const TlsConfig> tls = parse_transport(m.find("transportConfig"), files);
  for (const Field& u : m.need("upstreams").items(1, kMaxUpstreams)) {
    fc.upstreams.push_back(read_upstream(u, tls ? kTlsPort : 53));
    fc.upstreams.back().tls = tls;
  }
  return fc;
}

ForwardConfig parse_upstream_resolvers(const Field& f, const FileNames& files) {
  Mapping m = f.mapping(kForwardKeys);
  ForwardConfig fc = forward_options(m, Policy::sequential);
  std::shared_ptr<const TlsConfig> tls = parse_transport(m.find("transportConfig"), files);
  const Field& list = m.need("upstreams");
  for (const Field& u : list.items(1, kMaxUpstreams)) add_resolver(u, tls ? kTlsPort : 53, files, fc.upstreams);
  if (fc.upstreams.size() > kMaxUpstreams)
    list.fail(std::to_string(fc.upstreams.size()) + " upstreams with resolv.conf's: at most " +
              std::to_string(kMaxUpstreams));
  for (Upstream& u : fc.upstreams) u.tls = tls;
  return fc;
}

std::vector<SettingKeys> forward_plugin_setting_keys() {
  std::vector<SettingKeys> keys = keys_under("transportConfig", transport_setting_keys());
  keys.insert(keys.begin(), {"", kForwardKeys});
  return keys;
}

std::vector<SettingKeys> upstream_resolvers_setting_keys() {
  std::vector<SettingKeys> keys = forward_plugin_setting_keys();
  keys.push_back({"upstreams", kResolverKeys});
  return keys;
}

}  // namespace rk8s::server
