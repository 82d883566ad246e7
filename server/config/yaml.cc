// SPDX-License-Identifier: Apache-2.0
#include "server/config/yaml.h"

#include <fcntl.h>
#include <net/if.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "common/load_error.h"
#include "libresolv-k8s/files/watched_file.h"
#include "server/config/address.h"
#include "server/config/system_resolv_conf.h"
#include "server/config/yaml_field.h"
#include "server/util/dns_text.h"
#include "server/util/names.h"

namespace rk8s::server {

namespace {

constexpr size_t kMaxUpstreams = 15;  // OpenShift's limit
constexpr unsigned long kMaxCacheEntries = 100'000'000;
constexpr unsigned long kMaxLimit = 1'000'000;
constexpr uint64_t kMaxBytes = uint64_t(1) << 40;
constexpr uint64_t kMinMemory = 16 << 20;     // the process itself takes about 8 MiB
constexpr uint64_t kMinCacheBytes = 64 << 10;  // room for a few of the largest answers
constexpr unsigned kMaxClientTimeoutMs = 60000;
constexpr size_t kMaxHostSearch = 32;  // kubelet's limit for the whole list
constexpr uint16_t kTlsPort = 853;  // RFC 7858

// Empty when it is a regular file that can be opened for reading, else
// why not. Nothing else is opened: a FIFO would block, a device may act.
std::string unreadable(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return strerror(errno);
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return strerror(errno);
  close(fd);
  return "";
}

class ConfigReader {
 public:
  // An upstream that is one of our own listen addresses (SystemResolvConf on
  // the node the cache serves, say): every query would come back to us.
  static void refuse_loop(const Field& at, const ForwardConfig& f, const std::vector<Endpoint>& listen) {
    for (const Upstream& u : f.upstreams)
      for (const Endpoint& e : listen) {
        sockaddr_in6 sa;
        socklen_t len = ip_to_sockaddr(u.address, u.port, &sa);
        if (len == e.len && memcmp(&sa, &e.addr, len) == 0)
          at.fail("upstream " + u.text + " is this server's own listen address " + e.text);
      }
  }

  ConfigReader(const std::string& base_dir, const std::string& resolv_conf)
      : base_dir_(base_dir), resolv_conf_(resolv_conf) {}

  ServerConfig read(const Field& document) {
    Mapping m = document.mapping({"listen", "health", "metrics", "corednsMetrics", "autopath", "cache", "limits",
                                  "nodeSetup", "servers", "stubDomains", "upstreamResolvers",
                                  "logLevel", "queryLog"});
    ServerConfig c;
    for (const Field& e : m.need("listen").items(1, SIZE_MAX)) c.listen.push_back(dns_endpoint(e));
    if (const Field* f = m.find("health")) c.health = endpoint(*f);
    if (const Field* f = m.find("metrics")) c.metrics = endpoint(*f);
    if (const Field* f = m.find("corednsMetrics")) c.coredns_metrics = f->boolean();
    read_autopath(m.find("autopath"), c);
    if (const Field* f = m.find("cache")) c.cache = cache(*f);
    if (const Field* f = m.find("limits")) c.limits = limits(*f);
    if (const Field* f = m.find("nodeSetup")) {
      c.node_setup = node_setup(*f);
      for (Endpoint& e : c.listen) e.before_address = true;
      if (c.health) c.health->before_address = true;
      if (c.metrics) c.metrics->before_address = true;
    }
    if (const Field* f = m.find("logLevel")) c.log_level = LogLevel(f->choice({"Normal", "Debug", "Trace"}));
    if (const Field* f = m.find("queryLog")) {
      if (c.log_level == LogLevel::normal) f->fail("needs logLevel Debug or Trace");
      c.query_log_file = relative(*f);
    }
    if (const Field* f = m.find("servers"))
      for (const Field& s : f->items(0, SIZE_MAX)) {
        server_fields_.push_back(s);
        c.servers.push_back(server(s));
      }
    if (const Field* f = m.find("stubDomains")) stub_domains(*f, c.servers);
    if (const Field* f = m.find("upstreamResolvers")) {
      c.upstream_resolvers = upstream_resolvers(*f);
      refuse_loop(*f, *c.upstream_resolvers, c.listen);
    }
    if (c.servers.empty() && !c.upstream_resolvers)
      document.fail("no servers and no upstreamResolvers: nothing to answer with");
    refuse_uncovered_cluster_domain(c.servers);
    for (size_t i = 0; i < c.servers.size(); i++)
      if (c.servers[i].forward) refuse_loop(server_fields_[i], *c.servers[i].forward, c.listen);
    return c;
  }

 private:
  static Endpoint endpoint(const Field& f) {
    Endpoint e;
    std::string text = f.text();
    if (!parse_endpoint(text, e)) f.fail("'" + text + "' is not ADDR:PORT or [IPV6ADDR]:PORT");
    return e;
  }

  // A DNS listen address: endpoint()'s, or an address alone: port 53.
  static Endpoint dns_endpoint(const Field& f) {
    Endpoint e;
    std::string text = f.text();
    IpAddr ip;
    bool bare = parse_ip(text, ip);
    if (!parse_endpoint(bare ? (ip.family == AF_INET6 ? "[" + text + "]:53" : text + ":53") : text, e))
      f.fail("'" + text + "' is not ADDR, ADDR:PORT or [IPV6ADDR]:PORT");
    return e;
  }

  // The marker path is on with autopath; hostSearch absent: the search
  // line of the node's resolv.conf.
  void read_autopath(const Field* f, ServerConfig& c) {
    std::optional<Mapping> m;
    if (f) m = f->mapping({"enabled", "code", "marker", "clusterDomain", "hostSearch", "resolvConf"});
    auto find = [&](std::string_view key) { return m ? m->find(key) : nullptr; };
    if (const Field* e = find("enabled")) c.autopath = e->boolean() ? AutopathMode::on : AutopathMode::off;
    if (const Field* code = find("code"))
      c.autopath_code = uint16_t(code->number(autopath::kMinCode, autopath::kMaxCode));
    // The cluster domain, when the file names it, whatever autopath says:
    // some server must hold it (refuse_uncovered_cluster_domain).
    const Field* cluster = find("clusterDomain");
    if (cluster) cluster_domain_.emplace(*cluster, domain(*cluster));
    if (c.autopath != AutopathMode::on) return;
    MarkerConfig marker;
    const Field* name = find("marker");
    marker.marker = name ? domain(*name) : named(kDefaultMarker);
    marker.cluster_domain = cluster ? cluster_domain_->second : named("cluster.local");
    const Field* search = find("hostSearch");
    const Field* path = find("resolvConf");
    if (search && path) path->fail("is read only without hostSearch");
    if (search) {
      for (const Field& d : search->items(0, kMaxHostSearch)) marker.host_search.push_back(domain(d));
    } else {
      try {
        marker.host_search = system_resolv_conf_search(path ? readable(*path) : resolv_conf_);
      } catch (const std::runtime_error& e) {
        if (path) path->fail(e.what());
        throw std::runtime_error(std::string("autopath: hostSearch absent: ") + e.what());
      }
    }
    Name zone;
    if (!dns::name_concat(marker.cluster_domain, marker.marker, zone))
      (cluster ? cluster : name ? name : f)->fail("clusterDomain.marker is over 255 bytes");
    c.marker = std::move(marker);
  }

  // A cluster domain (autopath.clusterDomain) that no server's zone holds
  // would be asked of upstreamResolvers, the node's resolvers, which know
  // no Service: every cluster name NXDOMAIN. A zone holds it when it is the
  // domain or one of its parents.
  void refuse_uncovered_cluster_domain(const std::vector<ZoneServer>& servers) const {
    if (!cluster_domain_) return;
    const auto& [field, domain] = *cluster_domain_;
    for (Name n = domain;; n = name_parent(n)) {
      if (zone_servers_.count(name_key(n))) return;
      if (n.len <= 1) break;
    }
    std::string zones;
    for (const ZoneServer& s : servers)
      for (const Name& z : s.zones) zones += (zones.empty() ? "" : ", ") + name_text(z) + " ('" + s.name + "')";
    field.fail("no server holds the cluster domain " + name_text(domain) + ", so every name under it would go to " +
               "upstreamResolvers, which know no Service (NXDOMAIN); the servers hold " +
               (zones.empty() ? std::string("nothing") : zones) + ": add " + name_text(domain) +
               " to the zones of the server forwarding to the cluster's DNS");
  }

  static Name named(const char* text) {
    Name n;
    parse_name(text, n);
    return n;
  }

  // A domain name below the root.
  static Name domain(const Field& f) {
    std::string text = f.text();
    Name n;
    if (!parse_name(text, n) || n.len <= 1) f.fail("'" + text + "' is not a domain name below the root");
    return n;
  }

  static CacheConfig cache(const Field& f) {
    Mapping m = f.mapping({"capacity", "maxBytes", "positiveTTL", "negativeTTL", "prefetch", "prefetchPercentage",
                           "prefetchMinHits", "prefetchPeriod", "serveStale"});
    CacheConfig c;
    if (const Field* b = m.find("prefetch")) c.prefetch.enabled = b->boolean();
    if (const Field* n = m.find("prefetchPercentage")) c.prefetch.percentage = unsigned(n->number(1, 100));
    if (const Field* n = m.find("prefetchMinHits")) c.prefetch.min_hits = uint32_t(n->number(1, kMaxLimit));
    if (const Field* d = m.find("prefetchPeriod")) {
      c.prefetch.period = d->duration_seconds();
      if (c.prefetch.period == 0) d->fail("must be at least 1s");
    }
    if (const Field* n = m.find("capacity")) c.capacity = n->number(1, kMaxCacheEntries);
    if (const Field* n = m.find("maxBytes")) c.max_bytes = n->bytes(kMinCacheBytes, kMaxBytes);
    if (const Field* d = m.find("positiveTTL")) c.positive_ttl = d->duration_seconds();
    if (const Field* d = m.find("negativeTTL")) c.negative_ttl = d->duration_seconds();
    if (const Field* s = m.find("serveStale")) c.stale = serve_stale(*s);
    return c;
  }

  static ServeStaleConfig serve_stale(const Field& f) {
    Mapping m = f.mapping({"maxStale", "staleTTL", "clientTimeout", "failureRecheck", "mode"});
    ServeStaleConfig s;
    if (const Field* d = m.find("maxStale")) s.max_stale = d->duration_seconds();
    if (const Field* d = m.find("staleTTL")) s.stale_ttl = d->duration_seconds();
    if (const Field* d = m.find("clientTimeout")) s.client_timeout_ms = d->duration_ms(kMaxClientTimeoutMs);
    if (const Field* d = m.find("failureRecheck")) s.failure_recheck = d->duration_seconds();
    if (const Field* c = m.find("mode")) s.mode = StaleMode(c->choice({"Verify", "Immediate"}));
    return s;
  }

  static Limits limits(const Field& f) {
    Mapping m = f.mapping({"memory", "maxConcurrent", "maxPending", "maxJoined", "maxUpstreamPerQuery",
                           "clientQPS", "maxUDPSize", "maxTCPClients", "maxTCPPerClient", "maxTCPQueries",
                           "tcpIdleTimeout", "maxHTTPClients", "maxHTTPPerClient", "httpTimeout"});
    Limits l;
    auto count = [&](std::string_view key, auto& out, unsigned long min, unsigned long max) {
      if (const Field* n = m.find(key)) out = decltype(+out)(n->number(min, max));
    };
    auto seconds = [&](std::string_view key, unsigned& out) {
      if (const Field* d = m.find(key)) {
        out = d->duration_seconds();
        if (out == 0) d->fail("must be at least 1s");
      }
    };
    if (const Field* n = m.find("memory")) l.memory = n->bytes(kMinMemory, kMaxBytes);
    count("maxConcurrent", l.max_concurrent, 1, kMaxLimit);
    count("maxPending", l.max_pending, 1, kMaxLimit);
    count("maxJoined", l.max_joined, 1, kMaxLimit);
    count("maxUpstreamPerQuery", l.max_upstream_per_query, 1, 2 * autopath::kMaxSuffixes);
    count("clientQPS", l.client_qps, 0, kMaxLimit);
    count("maxUDPSize", l.max_udp_size, 512, 65535);
    count("maxTCPClients", l.max_tcp_clients, 1, kMaxLimit);
    count("maxTCPPerClient", l.max_tcp_per_client, 1, kMaxLimit);
    count("maxTCPQueries", l.max_tcp_queries, 1, kMaxLimit);
    seconds("tcpIdleTimeout", l.tcp_idle_seconds);
    count("maxHTTPClients", l.max_http_clients, 1, kMaxLimit);
    count("maxHTTPPerClient", l.max_http_per_client, 1, kMaxLimit);
    seconds("httpTimeout", l.http_timeout_seconds);
    return l;
  }

  static NodeSetupConfig node_setup(const Field& f) {
    Mapping m = f.mapping({"interface", "checkInterval", "lockFile", "keepLinkLocal", "daemonSet"});
    NodeSetupConfig n;
    if (const Field* d = m.find("daemonSet")) {
      n.daemon_set = d->text();
      size_t slash = n.daemon_set.find('/');
      if (slash == 0 || slash == std::string::npos || slash + 1 == n.daemon_set.size() ||
          n.daemon_set.find('/', slash + 1) != std::string::npos)
        d->fail("'" + n.daemon_set + "' is not NAMESPACE/NAME");
    }
    if (const Field* k = m.find("keepLinkLocal")) n.keep_link_local = k->boolean();
    if (const Field* i = m.find("interface")) {
      n.interface = i->text();
      if (n.interface.empty() || n.interface.size() >= IFNAMSIZ || n.interface.find('/') != std::string::npos)
        i->fail("'" + n.interface + "' is not an interface name");
    }
    if (const Field* d = m.find("checkInterval")) {
      n.check_seconds = d->duration_seconds();
      if (n.check_seconds == 0) d->fail("must be at least 1s");
    }
    if (const Field* l = m.find("lockFile")) {
      n.lock_file = l->text();
      if (n.lock_file.empty() || n.lock_file[0] != '/') l->fail("must be an absolute path");
    }
    return n;
  }

  ZoneServer server(const Field& f) {
    Mapping m =
        f.mapping({"name", "zones", "forwardPlugin", "zoneFiles", "clusterFile", "clusterDomain"});
    ZoneServer s;
    const Field& name = m.need("name");
    s.name = name.text();
    if (s.name.empty()) name.fail("must not be empty");
    if (!server_names_.insert(s.name).second) name.fail("a second server named '" + s.name + "'");
    for (const Field& z : m.need("zones").items(1, SIZE_MAX)) s.zones.push_back(zone(z, s.name));
    const Field* forward = m.find("forwardPlugin");
    if (forward) s.forward = forward_plugin(*forward);
    if (const Field* files = m.find("zoneFiles"))
      for (const Field& file : files->items(1, SIZE_MAX)) s.zone_files.push_back(readable(file));
    const Field* cluster = m.find("clusterFile");
    if (cluster) s.cluster_file = readable(*cluster);
    if (const Field* domain = m.find("clusterDomain")) {
      if (!cluster) domain->fail("needs clusterFile");
      s.cluster_domain = domain->text();
      Name n;
      if (!parse_name(s.cluster_domain, n) || n.len <= 1)
        domain->fail("'" + s.cluster_domain + "' is not a domain name below the root");
    }
    bool data = !s.zone_files.empty() || !s.cluster_file.empty();
    if (forward && data)
      forward->fail("a server forwards or serves zoneFiles/clusterFile, not both");
    if (!forward && !data) f.fail("needs forwardPlugin, or zoneFiles and/or clusterFile");
    return s;
  }

  // kube-dns's ConfigMap key: {"ZONE": ["IP", ...]}, a map or that JSON as
  // a string (as the ConfigMap holds it, and `${NAME}` gives it); each zone
  // a server forwarding it, named "stubDomains ZONE".
  void stub_domains(const Field& f, std::vector<ZoneServer>& out) {
    try {
      // Not assigned: a YAML::Node assigned to overwrites what it points to.
      const Field map = f.is_scalar() ? Field(f.key(), YAML::Load(f.text()), f.line()) : f;
      if (map.is_null()) return;
      for (const auto& [zone_field, upstreams] : map.entries()) {
        ZoneServer s;
        s.name = "stubDomains " + zone_field.text();
        s.zones.push_back(zone(zone_field, s.name));
        ForwardConfig fc;
        for (const Field& u : upstreams.items(1, kMaxUpstreams)) fc.upstreams.push_back(upstream(u));
        s.forward = fc;
        server_fields_.push_back(f);
        out.push_back(std::move(s));
      }
    } catch (const YAML::Exception& e) {
      f.fail("not a map of zones to upstreams: " + e.msg);
    } catch (const FieldError& e) {
      if (!f.is_scalar()) throw;
      throw FieldError(f.line(), e.what());  // the string's own lines are not the file's
    }
  }

  // Each zone is served by one server only.
  Name zone(const Field& f, const std::string& server) {
    std::string text = f.text();
    Name name;
    if (text.empty() || !parse_name(text, name)) f.fail("'" + text + "' is not a domain name");
    auto [it, fresh] = zone_servers_.emplace(name_key(name), server);
    if (!fresh) f.fail(name_text(name) + " is already served by '" + it->second + "'");
    return name;
  }

  // The path of a file named relative to the config file's directory.
  std::string relative(const Field& f) const {
    std::string name = f.text();
    if (name.empty() || name.find('\0') != std::string::npos) f.fail("expected a file name");
    if (base_dir_.empty() || name.front() == '/') return name;
    return base_dir_ + (base_dir_.back() == '/' ? "" : "/") + name;
  }

  // relative()'s, of a file that can be read.
  std::string readable(const Field& f) const {
    std::string path = relative(f);
    std::string why = unreadable(path);
    if (!why.empty()) f.fail(path + ": " + why);
    return path;
  }

  static ForwardConfig forward_options(const Mapping& m, Policy default_policy) {
    ForwardConfig fc;
    fc.policy = default_policy;
    if (const Field* p = m.find("policy"))
      fc.policy = Policy(p->choice({"Random", "RoundRobin", "Sequential"}));  // Policy's order
    if (const Field* s = m.find("protocolStrategy")) fc.tcp_only = s->choice({"", "TCP"}) == 1;
    return fc;
  }

  ForwardConfig forward_plugin(const Field& f) const {
    Mapping m = f.mapping({"upstreams", "policy", "protocolStrategy", "transportConfig"});
    ForwardConfig fc = forward_options(m, Policy::random);
    std::shared_ptr<const TlsConfig> tls = transport(m.find("transportConfig"));
    for (const Field& u : m.need("upstreams").items(1, kMaxUpstreams)) {
      fc.upstreams.push_back(upstream(u, tls ? kTlsPort : 53));
      fc.upstreams.back().tls = tls;
    }
    return fc;
  }

  static Upstream upstream(const Field& f, uint16_t port = 53) {
    std::string text = f.text();
    Upstream u;
    if (!parse_upstream(text, u, port)) f.fail("'" + text + "' is not IP, IP:PORT or [IPV6]:PORT");
    return u;
  }

  // transportConfig: {transport: TLS | Cleartext | "", tls: {serverName,
  // caBundle}}, OpenShift's; null for Cleartext. caBundle is a file (the
  // ConfigMap OpenShift names, mounted).
  std::shared_ptr<const TlsConfig> transport(const Field* f) const {
    if (!f) return nullptr;
    Mapping m = f->mapping({"transport", "tls"});
    const Field* t = m.find("transport");
    bool tls = t && t->choice({"", "Cleartext", "TLS"}) == 2;
    const Field* settings = m.find("tls");
    if (!tls) {
      if (settings) settings->fail("is for transport TLS");
      return nullptr;
    }
    if (!settings) f->fail("transport TLS needs tls.serverName");
    Mapping s = settings->mapping({"serverName", "caBundle"});
    auto c = std::make_shared<TlsConfig>();
    const Field& name = s.need("serverName");
    c->server_name = name.text();
    if (!c->server_name.empty() && c->server_name.back() == '.') c->server_name.pop_back();
    Name parsed;
    if (c->server_name.empty() || !parse_name(c->server_name, parsed))
      name.fail("'" + name.text() + "' is not a domain name");
    if (const Field* ca = s.find("caBundle")) {
      c->ca_bundle = readable(*ca);
      if (!holds_certificate(c->ca_bundle)) ca->fail(c->ca_bundle + ": no PEM certificate in it");
    }
    return c;
  }

  // Whether the file has a PEM certificate block; OpenSSL reads it whole
  // when a connection is made (forward/exchange_tls.cc).
  static bool holds_certificate(const std::string& path) {
    FileBytes file;
    if (!read_file(path.c_str(), file)) return false;
    bool found = std::string_view(file.data, file.size).find("-----BEGIN CERTIFICATE-----") != std::string_view::npos;
    free(file.data);
    return found;
  }

  ForwardConfig upstream_resolvers(const Field& f) const {
    Mapping m = f.mapping({"upstreams", "policy", "protocolStrategy", "transportConfig"});
    ForwardConfig fc = forward_options(m, Policy::sequential);
    std::shared_ptr<const TlsConfig> tls = transport(m.find("transportConfig"));
    const Field& list = m.need("upstreams");
    for (const Field& u : list.items(1, kMaxUpstreams)) add_resolver(u, tls ? kTlsPort : 53, fc.upstreams);
    if (fc.upstreams.size() > kMaxUpstreams)
      list.fail(std::to_string(fc.upstreams.size()) + " upstreams with resolv.conf's: at most " +
                std::to_string(kMaxUpstreams));
    for (Upstream& u : fc.upstreams) u.tls = tls;
    return fc;
  }

  // {type: SystemResolvConf} or {type: Network, address: IP, port: N}; an
  // upstream without a port is on `port`.
  void add_resolver(const Field& f, uint16_t port, std::vector<Upstream>& out) const {
    Mapping m = f.mapping({"type", "address", "port"});
    const Field& type = m.need("type");
    if (type.choice({"SystemResolvConf", "Network"}) == 0) {
      if (m.find("address") || m.find("port")) f.fail("address and port are for type Network");
      try {
        for (const Upstream& u : system_resolv_conf_upstreams(resolv_conf_)) out.push_back(upstream_at(u.address, port));
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

  const std::string& base_dir_;
  const std::string& resolv_conf_;
  std::vector<Field> server_fields_;  // of c.servers, for errors found later
  std::set<std::string> server_names_;
  std::map<std::string, std::string> zone_servers_;  // name_key -> server name
  std::optional<std::pair<Field, Name>> cluster_domain_;  // autopath.clusterDomain, when given
};

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
    return ConfigReader(base_dir, resolv_conf).read(parse_document(std::string(yaml_text)));
  } catch (const FieldError& e) {
    throw LoadError(file, e.line, e.what());
  } catch (const YAML::Exception& e) {
    int line = e.mark.is_null() ? 0 : e.mark.line;
    throw LoadError(file, line + 1, indented_with_tab(yaml_text, line) ? "a tab in the indentation (YAML indents with spaces)"
                                                                        : e.msg);
  }
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
