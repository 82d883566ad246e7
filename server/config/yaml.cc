// SPDX-License-Identifier: Apache-2.0
#include "server/config/yaml.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/load_error.h"
#include "libresolv-k8s/files/watched_file.h"
#include "server/config/zone_servers.h"

namespace rk8s::server {

namespace {

constexpr std::string_view kTopKeys[] = {"listen", "health", "metrics", "corednsMetrics", "autopath", "cache",
                                         "limits", "nodeSetup", "servers", "stubDomains", "upstreamResolvers",
                                         "logLevel", "queryLog"};

Endpoint endpoint(const Field& f) {
  Endpoint e;
  std::string text = f.text();
  if (!parse_endpoint(text, e)) f.fail("'" + text + "' is not ADDR:PORT or [IPV6ADDR]:PORT");
  return e;
}

// A DNS listen address: endpoint()'s, or an address alone: port 53.
Endpoint dns_endpoint(const Field& f) {
  Endpoint e;
  std::string text = f.text();
  IpAddr ip;
  bool bare = parse_ip(text, ip);
  if (!parse_endpoint(bare ? (ip.family == AF_INET6 ? "[" + text + "]:53" : text + ":53") : text, e))
    f.fail("'" + text + "' is not ADDR, ADDR:PORT or [IPV6ADDR]:PORT");
  return e;
}

// An upstream that is one of our own listen addresses (SystemResolvConf on
// the node the cache serves, say): every query would come back to us.
void refuse_loop(const Field& at, const ForwardConfig& f, const std::vector<Endpoint>& listen) {
  for (const Upstream& u : f.upstreams)
    for (const Endpoint& e : listen) {
      sockaddr_in6 sa;
      socklen_t len = ip_to_sockaddr(u.address, u.port, &sa);
      if (len == e.len && memcmp(&sa, &e.addr, len) == 0)
        at.fail("upstream " + u.text + " is this server's own listen address " + e.text);
    }
}

// The sections after autopath, each by its feature's parser, in the order
// of kTopKeys: of several errors, the first is said.
void read_sections(const Mapping& m, const FileNames& files, ServerConfig& c) {
  if (const Field* f = m.find("cache")) c.cache = parse_cache_settings(*f);
  if (const Field* f = m.find("limits")) c.limits = parse_limits(*f);
  if (const Field* f = m.find("nodeSetup")) {
    c.node_setup = parse_node_settings(*f);
    for (Endpoint& e : c.listen) e.before_address = true;
    if (c.health) c.health->before_address = true;
    if (c.metrics) c.metrics->before_address = true;
  }
  if (const Field* f = m.find("logLevel")) c.log_level = LogLevel(f->choice({"Normal", "Debug", "Trace"}));
  if (const Field* f = m.find("queryLog")) {
    if (c.log_level == LogLevel::normal) f->fail("needs logLevel Debug or Trace");
    c.query_log_file = files.relative(*f);
  }
}

ServerConfig read_document(const Field& document, const FileNames& files) {
  Mapping m = document.mapping(kTopKeys);
  ServerConfig c;
  for (const Field& e : m.need("listen").items(1, SIZE_MAX)) c.listen.push_back(dns_endpoint(e));
  if (const Field* f = m.find("health")) c.health = endpoint(*f);
  if (const Field* f = m.find("metrics")) c.metrics = endpoint(*f);
  if (const Field* f = m.find("corednsMetrics")) c.coredns_metrics = f->boolean();
  AutopathSettings autopath = parse_autopath_settings(m.find("autopath"), files);
  c.autopath = autopath.mode;
  c.autopath_code = autopath.code;
  c.marker = autopath.marker;
  c.walk_cuts = autopath.cuts;
  read_sections(m, files, c);
  ZoneServers zones(files);
  if (const Field* f = m.find("servers")) zones.read_servers(*f);
  if (const Field* f = m.find("stubDomains")) zones.read_stub_domains(*f);
  if (const Field* f = m.find("upstreamResolvers")) {
    c.upstream_resolvers = parse_upstream_resolvers(*f, files);
    refuse_loop(*f, *c.upstream_resolvers, c.listen);
  }
  if (zones.servers.empty() && !c.upstream_resolvers)
    document.fail("no servers and no upstreamResolvers: nothing to answer with");
  if (autopath.cluster_domain) zones.refuse_uncovered(*autopath.cluster_domain, autopath.cluster_domain->domain());
  for (size_t i = 0; i < zones.servers.size(); i++)
    if (zones.servers[i].forward) refuse_loop(zones.fields[i], *zones.servers[i].forward, c.listen);
  c.servers = std::move(zones.servers);
  return c;
}

// Whether line `n` (from 0) of `text` or the one before it starts with
// white space holding a tab, which yaml-cpp reports as something else
// ("illegal map value").
bool indented_with_tab(std::string_view text, int n) {
  size_t start = 0;
  for (int i = 0; i <= n; i++) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (i >= n - 1 && line.substr(0, line.find_first_not_of(" \t")).find('\t') != line.npos) return true;
    if (end == text.size()) break;
    start = end + 1;
  }
  return false;
}

}  // namespace

ServerConfig parse_config(std::string_view yaml_text, const std::string& file,
                          const std::string& base_dir, const std::string& resolv_conf) {
  try {
    return read_document(parse_document(std::string(yaml_text)), FileNames{base_dir, resolv_conf});
  } catch (const FieldError& e) {
    throw LoadError(file, e.line, e.what());
  } catch (const YAML::Exception& e) {
    int line = e.mark.is_null() ? 0 : e.mark.line;
    throw LoadError(file, line + 1, indented_with_tab(yaml_text, line) ? "a tab in the indentation (YAML indents with spaces)"
                                                                        : e.msg);
  }
}

std::vector<SettingKeys> known_settings() {
  std::vector<SettingKeys> keys = {{"", kTopKeys}};
  auto add = [&](const std::string& key, std::vector<SettingKeys> its) {
    for (SettingKeys& k : keys_under(key, std::move(its))) keys.push_back(std::move(k));
  };
  add("autopath", autopath_setting_keys());
  add("cache", cache_setting_keys());
  add("limits", limits_setting_keys());
  add("nodeSetup", node_setting_keys());
  add("servers", server_setting_keys());
  add("upstreamResolvers", upstream_resolvers_setting_keys());
  return keys;
}

ServerConfig load_config_file(const std::string& path) {
  FileBytes file;
  if (!read_file(path.c_str(), file)) throw std::runtime_error(path + ": " + strerror(errno));
  std::string text(file.data, file.size);
  free(file.data);
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash == 0 ? 1 : slash);
  return parse_config(text, path, dir);
}

}  // namespace rk8s::server
