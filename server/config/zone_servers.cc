// SPDX-License-Identifier: Apache-2.0
#include "server/config/zone_servers.h"

#include "server/util/dns_text.h"
#include "server/util/names.h"

namespace rk8s::server {

namespace {

constexpr std::string_view kServerKeys[] = {"name", "zones", "forwardPlugin", "zoneFiles", "clusterFile",
                                            "clusterDomain"};

}  // namespace

void ZoneServers::read_servers(const Field& f) {
  for (const Field& s : f.items(0, SIZE_MAX)) {
    fields.push_back(s);
    servers.push_back(server(s));
  }
}

ZoneServer ZoneServers::server(const Field& f) {
  Mapping m = f.mapping(kServerKeys);
  ZoneServer s;
  const Field& name = m.need("name");
  s.name = name.text();
  if (s.name.empty()) name.fail("must not be empty");
  if (!names_.insert(s.name).second) name.fail("a second server named '" + s.name + "'");
  for (const Field& z : m.need("zones").items(1, SIZE_MAX)) s.zones.push_back(zone(z, s.name));
  const Field* forward = m.find("forwardPlugin");
  if (forward) s.forward = parse_forward_plugin(*forward, files_);
  if (const Field* list = m.find("zoneFiles"))
    for (const Field& file : list->items(1, SIZE_MAX)) s.zone_files.push_back(files_.readable(file));
  const Field* cluster = m.find("clusterFile");
  if (cluster) s.cluster_file = files_.readable(*cluster);
  if (const Field* domain = m.find("clusterDomain")) {
    if (!cluster) domain->fail("needs clusterFile");
    s.cluster_domain = domain->text();
    domain->domain();
  }
  bool data = !s.zone_files.empty() || !s.cluster_file.empty();
  if (forward && data) forward->fail("a server forwards or serves zoneFiles/clusterFile, not both");
  if (!forward && !data) f.fail("needs forwardPlugin, or zoneFiles and/or clusterFile");
  return s;
}

void ZoneServers::read_stub_domains(const Field& f) {
  try {
    // Not assigned: a YAML::Node assigned to overwrites what it points to.
    const Field map = f.is_scalar() ? Field(f.key(), YAML::Load(f.text()), f.line()) : f;
    if (map.is_null()) return;
    for (const auto& [zone_field, upstreams] : map.entries()) {
      ZoneServer s;
      s.name = "stubDomains " + zone_field.text();
      s.zones.push_back(zone(zone_field, s.name));
      ForwardConfig fc;
      for (const Field& u : upstreams.items(1, kMaxUpstreams)) fc.upstreams.push_back(read_upstream(u));
      s.forward = fc;
      fields.push_back(f);
      servers.push_back(std::move(s));
    }
  } catch (const YAML::Exception& e) {
    f.fail("not a map of zones to upstreams: " + e.msg);
  } catch (const FieldError& e) {
    if (!f.is_scalar()) throw;
    throw FieldError(f.line(), e.what());  // the string's own lines are not the file's
  }
}

// Each zone is served by one server only.
Name ZoneServers::zone(const Field& f, const std::string& server) {
  std::string text = f.text();
  Name name;
  if (text.empty() || !parse_name(text, name)) f.fail("'" + text + "' is not a domain name");
  auto [it, fresh] = zone_servers_.emplace(name_key(name), server);
  if (!fresh) f.fail(name_text(name) + " is already served by '" + it->second + "'");
  return name;
}

void ZoneServers::refuse_uncovered(const Field& field, const Name& domain) const {
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

std::vector<SettingKeys> server_setting_keys() {
  std::vector<SettingKeys> keys = keys_under("forwardPlugin", forward_plugin_setting_keys());
  keys.insert(keys.begin(), {"", kServerKeys});
  return keys;
}

}  // namespace rk8s::server
