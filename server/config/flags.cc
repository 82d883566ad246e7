// SPDX-License-Identifier: Apache-2.0
#include "server/config/flags.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "resolv-k8s.h"
#include "server/settings/address.h"
#include "server/config/yaml.h"
#include "server/util/dns_text.h"
#include "server/util/names.h"
#include "server/util/strings.h"

namespace rk8s::server {

const char kUsage[] =
    "usage: resolv-k8s-server --config FILE [TEST FLAGS]\n"
    "       resolv-k8s-server --help | --version\n"
    "       resolv-k8s-server --listen ADDR:PORT [--listen ...] [--cluster FILE]\n"
    "           [--cluster-domain DOMAIN] [--zone FILE ...] [--autopath on|off]\n"
    "           [--autopath-code N] [--marker DOMAIN] [--host-search DOMAIN ...]\n"
    "           [--metrics ADDR:PORT] [TEST FLAGS]\n"
    "test flags: [--autopath formerr|echo] [--delay-ms N] [--tcp-nodelay off] [--query-log FILE]\n"
    "           [--rcode NAME[/TYPE]=RCODE ...] [--drop NAME[/TYPE] ...]\n";

namespace {

struct ServerFlags {
  std::vector<Endpoint> listen;
  std::string cluster;
  std::string cluster_domain = "cluster.local";
  std::vector<std::string> zones;
  AutopathMode autopath = AutopathMode::on;
  uint16_t autopath_code = autopath::kDefaultCode;
  Name marker;  // the root: kDefaultMarker
  std::vector<Name> host_search;
  bool tcp_nodelay = true;
  std::optional<Endpoint> metrics;
  bool help = false;
  bool version = false;
};

// The flags as given, --config's file, and the flags given that describe
// the closed world: a config file describes it instead.
struct CommandLine {
  ServerFlags flags;
  std::string config_file;
  std::vector<std::string> closed_world_flags;
};

// The flags a config file replaces (the test faults' --autopath formerr
// and echo are server/faults/flags.h's).
bool describes_closed_world(const std::string& flag) {
  for (const char* f : {"--listen", "--metrics", "--cluster", "--cluster-domain", "--zone",
                        "--autopath", "--autopath-code", "--marker", "--host-search"})
    if (flag == f) return true;
  return false;
}

CommandLine read_command_line(int argc, char** argv) {
  CommandLine cl;
  ServerFlags& f = cl.flags;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h" || flag == "--version") {
      (flag == "--version" ? f.version : f.help) = true;
      continue;
    }
    static const char* const kTakeValues[] = {"--config",   "--listen",     "--metrics", "--cluster",
                                              "--cluster-domain", "--zone", "--autopath", "--autopath-code",
                                              "--marker",   "--host-search", "--tcp-nodelay"};
    if (std::none_of(std::begin(kTakeValues), std::end(kTakeValues), [&](const char* name) { return flag == name; }))
      throw std::runtime_error("unknown flag " + flag + " (see --help)");
    if (i + 1 == argc) throw std::runtime_error(flag + ": missing value (see --help)");
    std::string v = argv[++i];
    unsigned long n;
    auto bad = [&] { return std::runtime_error(flag + ": bad value '" + v + "'"); };
    if (flag == "--config") {
      if (v.empty()) throw bad();
      cl.config_file = v;
    } else if (flag == "--listen" || flag == "--metrics") {
      Endpoint e;
      if (!parse_endpoint(v, e)) throw bad();
      if (flag == "--listen") f.listen.push_back(e);
      else f.metrics = e;
    } else if (flag == "--cluster") {
      f.cluster = v;
    } else if (flag == "--cluster-domain") {
      f.cluster_domain = v;
    } else if (flag == "--zone") {
      f.zones.push_back(v);
    } else if (flag == "--autopath") {
      if (v == "on") f.autopath = AutopathMode::on;
      else if (v == "off") f.autopath = AutopathMode::off;
      else throw bad();
    } else if (flag == "--autopath-code") {
      if (!parse_uint(v, 65535, n) || n == 0) throw bad();
      f.autopath_code = uint16_t(n);
    } else if (flag == "--marker" || flag == "--host-search") {
      Name domain;
      if (!parse_name(v, domain) || domain.len <= 1) throw bad();
      if (flag == "--marker") f.marker = domain;
      else f.host_search.push_back(domain);
    } else if (flag == "--tcp-nodelay") {
      if (v != "off" && v != "on") throw bad();
      f.tcp_nodelay = v == "on";
    }
    if (describes_closed_world(flag)) cl.closed_world_flags.push_back(flag);
  }
  return cl;
}

void require_listen(const ServerFlags& f) {
  if (f.listen.empty())
    throw std::runtime_error("give --config FILE (as the DaemonSet does) or --listen ADDR:PORT (see --help)");
}

// One closed world for every name (the root zone), as the flags describe it.
ServerConfig closed_world(const ServerFlags& f) {
  ZoneServer everything;
  everything.name = "closed-world";
  everything.zones = {Name{}};
  everything.zone_files = f.zones;
  everything.cluster_file = f.cluster;
  everything.cluster_domain = f.cluster_domain;
  ServerConfig c;
  c.listen = f.listen;
  c.metrics = f.metrics;
  c.autopath = f.autopath;
  c.autopath_code = f.autopath_code;
  if (f.autopath == AutopathMode::on) {
    MarkerConfig m;
    if (!parse_name(f.cluster_domain, m.cluster_domain)) throw std::runtime_error("--cluster-domain: bad value");
    if (f.marker.len > 1) m.marker = f.marker;
    else parse_name(kDefaultMarker, m.marker);
    m.host_search = f.host_search;
    c.marker = std::move(m);
  }
  c.servers.push_back(std::move(everything));
  return c;
}

}  // namespace

ServerConfig parse_command_line(int argc, char** argv) {
  CommandLine cl = read_command_line(argc, argv);
  ServerFlags& f = cl.flags;
  if (f.help || f.version) {
    fputs(f.help ? kUsage : "resolv-k8s-server " RK8S_VERSION "\n", stdout);
    exit(0);
  }
  ServerConfig c;
  if (cl.config_file.empty()) {
    require_listen(f);
    c = closed_world(f);
  } else {
    if (!cl.closed_world_flags.empty())
      throw std::runtime_error(cl.closed_world_flags[0] + ": not with --config (the file says it)");
    c = load_config_file(cl.config_file);
  }
  c.tcp_nodelay = f.tcp_nodelay;
  return c;
}

}  // namespace rk8s::server
