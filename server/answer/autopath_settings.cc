// SPDX-License-Identifier: Apache-2.0
#include "server/answer/autopath_settings.h"

#include <stdexcept>
#include <string_view>

#include "server/settings/system_resolv_conf.h"
#include "server/util/dns_text.h"

namespace rk8s::server {

namespace {

constexpr size_t kMaxHostSearch = 32;  // kubelet's limit for the whole list
constexpr std::string_view kAutopathKeys[] = {"enabled", "code", "marker", "clusterDomain", "hostSearch",
                                              "resolvConf", "schemaCut", "rfc8020Cut"};

Name named(const char* text) {
  Name n;
  parse_name(text, n);
  return n;
}

// hostSearch, else the search line of the node's resolv.conf.
std::vector<Name> host_search(const Field* search, const Field* path, const FileNames& files) {
  if (search && path) path->fail("is read only without hostSearch");
  std::vector<Name> out;
  if (search) {
    for (const Field& d : search->items(0, kMaxHostSearch)) out.push_back(d.domain());
    return out;
  }
  std::string file = path ? files.readable(*path) : files.resolv_conf;
  try {
    return system_resolv_conf_search(file);
  } catch (const std::runtime_error& e) {
    if (path) path->fail(e.what());
    throw std::runtime_error(std::string("autopath: hostSearch absent: ") + e.what());
  }
}

}  // namespace

AutopathSettings parse_autopath_settings(const Field* f, const FileNames& files) {
  AutopathSettings a;
  std::optional<Mapping> m;
  if (f) m = f->mapping(kAutopathKeys);
  auto find = [&](std::string_view key) { return m ? m->find(key) : nullptr; };
  if (const Field* e = find("enabled")) a.mode = e->boolean() ? AutopathMode::on : AutopathMode::off;
  if (const Field* code = find("code")) a.code = uint16_t(code->number(autopath::kMinCode, autopath::kMaxCode));
  const Field* cluster = find("clusterDomain");
  MarkerConfig marker;
  if (cluster) {
    marker.cluster_domain = cluster->domain();
    a.cluster_domain = *cluster;
  }
  if (const Field* cut = find("schemaCut"); cut && cut->boolean()) {
    if (!cluster) cut->fail("needs clusterDomain");
    a.cuts.schema = marker.cluster_domain;
  }
  if (const Field* cut = find("rfc8020Cut"); cut && cut->boolean())
    a.cuts.rfc8020 = cluster ? marker.cluster_domain : named("cluster.local");
  if (a.mode != AutopathMode::on) return a;
  const Field* name = find("marker");
  marker.marker = name ? name->domain() : named(kDefaultMarker);
  if (!cluster) marker.cluster_domain = named("cluster.local");
  marker.host_search = host_search(find("hostSearch"), find("resolvConf"), files);
  Name zone;
  if (!dns::name_concat(marker.cluster_domain, marker.marker, zone))
    (cluster ? cluster : name ? name : f)->fail("clusterDomain.marker is over 255 bytes");
  a.marker = std::move(marker);
  return a;
}

std::vector<SettingKeys> autopath_setting_keys() { return {{"", kAutopathKeys}}; }

}  // namespace rk8s::server
