// SPDX-License-Identifier: Apache-2.0
// Where forwarding sends a zone's questions, read from the config file:
// forwardPlugin (a server's upstreams) and upstreamResolvers (everything
// no server holds), OpenShift's keys.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libresolv-k8s/util/ip.h"
#include "server/forward/transport_settings.h"
#include "server/settings/file_names.h"
#include "server/settings/yaml_field.h"

namespace rk8s::server {

constexpr size_t kMaxUpstreams = 15;  // OpenShift's limit

// An upstream DNS server: "10.96.0.11" (port 53, 853 with TLS) or
// "10.96.0.12:5353".
struct Upstream {
  IpAddr address;
  uint16_t port = 53;
  std::string text;  // "10.96.0.12:5353", the metrics' label
  std::shared_ptr<const TlsConfig> tls;  // over TLS (forward/exchange_tls.h); null: UDP and TCP
};

enum class Policy : uint8_t { random, round_robin, sequential };

// forwardPlugin, and upstreamResolvers.
struct ForwardConfig {
  std::vector<Upstream> upstreams;  // 1 to 15
  Policy policy = Policy::random;
  bool tcp_only = false;            // protocolStrategy: TCP
};

// "10.96.0.11" (port `port`, 53 by default), "10.96.0.12:5353",
// "fd00::11", "[fd00::11]:53". Port 0 is refused.
bool parse_upstream(std::string_view text, Upstream& out, uint16_t port = 53);
// The upstream at `ip` and `port`, its text always with the port:
// "10.96.0.11:53", "[fd00::11]:53".
Upstream upstream_at(const IpAddr& ip, uint16_t port);
// parse_upstream()'s of a field, an error when it is not one.
Upstream read_upstream(const Field& f, uint16_t port = 53);

// forwardPlugin: {upstreams: [IP[:PORT]...], policy, protocolStrategy,
// transportConfig}, policy Random by default.
ForwardConfig parse_forward_plugin(const Field& f, const FileNames& files);
// upstreamResolvers: the same keys, each upstream {type: SystemResolvConf}
// (the nameservers of files.resolv_conf) or {type: Network, address: IP,
// port: N}, policy Sequential by default.
ForwardConfig parse_upstream_resolvers(const Field& f, const FileNames& files);

// The keys of forwardPlugin and of upstreamResolvers.
std::vector<SettingKeys> forward_plugin_setting_keys();
std::vector<SettingKeys> upstream_resolvers_setting_keys();

}  // namespace rk8s::server
