// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/inject_status.h"

#include "common/json.h"
#include "common/load_error.h"
#include "resolv-k8s.h"
#include "tools/inject/yaml_json.h"

namespace rk8s::tools {
namespace {

Json::Value list_json(const std::vector<std::string>& items) {
  Json::Value out(Json::arrayValue);
  for (const std::string& s : items) out.append(s);
  return out;
}

bool read_list(const Json::Value& v, std::vector<std::string>& out) {
  if (v.isNull()) return true;
  if (!v.isArray()) return false;
  for (const Json::Value& item : v) {
    if (!item.isString()) return false;
    out.push_back(item.asString());
  }
  return true;
}

std::string words(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : " ") + s;
  return "[" + out + "]";
}

}  // namespace

InjectStatus status_of(const InjectOptions& o) {
  InjectStatus s;
  s.version = RK8S_VERSION;
  if (!o.marker) s.image = o.image, s.libc = o.libc;
  s.marker = o.marker;
  s.nameservers = o.nameservers;
  s.host_search = o.host_search;
  s.cluster_domain = o.cluster_domain;
  return s;
}

InjectOptions with_status_settings(const InjectOptions& options, const InjectStatus& s) {
  InjectOptions o = options;
  if (!o.given.image && !s.image.empty()) o.image = s.image;
  if (!o.given.libc && !s.libc.empty()) o.libc = s.libc;
  if (!o.given.marker) o.marker = s.marker;
  if (!o.given.nameservers) o.nameservers = s.nameservers;
  if (!o.given.host_search) o.host_search = s.host_search;
  if (!o.given.cluster_domain && !s.cluster_domain.empty()) o.cluster_domain = s.cluster_domain;
  return o;
}

std::string status_text(const InjectStatus& s) {
  Json::Value v(Json::objectValue);
  v["version"] = s.version;
  v["autopath"] = s.marker ? "marker" : "option";
  if (!s.marker) v["image"] = s.image, v["libc"] = s.libc;
  if (!s.nameservers.empty()) {
    v["nameservers"] = list_json(s.nameservers);
    v["clusterDomain"] = s.cluster_domain;
  }
  if (!s.host_search.empty()) v["hostSearch"] = list_json(s.host_search);
  Json::Value added(Json::objectValue);
  if (s.added_library) added["library"] = true;
  if (s.set_policy) added["dnsPolicy"] = s.policy_before;
  if (!s.added_nameservers.empty()) added["nameservers"] = list_json(s.added_nameservers);
  if (!s.added_searches.empty()) added["searches"] = list_json(s.added_searches);
  if (!s.added_options.empty()) added["options"] = list_json(s.added_options);
  if (!added.empty()) v["added"] = added;
  return json_text(v);
}

bool parse_status(const std::string& text, InjectStatus& s) {
  Json::Value v;
  try {
    v = rk8s::JsonDoc(text, kStatusKey).root();
  } catch (const rk8s::LoadError&) {
    return false;
  }
  if (!v.isObject()) return false;
  auto str = [&](const Json::Value& from, const char* key, std::string& out) {
    const Json::Value& x = from[key];
    if (x.isString()) out = x.asString();
    return x.isNull() || x.isString();
  };
  std::string mode;
  const Json::Value& added = v["added"];
  if (!(added.isNull() || added.isObject())) return false;
  bool ok = str(v, "version", s.version) && str(v, "autopath", mode) && str(v, "image", s.image) &&
            str(v, "libc", s.libc) && str(v, "clusterDomain", s.cluster_domain) &&
            read_list(v["nameservers"], s.nameservers) && read_list(v["hostSearch"], s.host_search) &&
            read_list(added["nameservers"], s.added_nameservers) && read_list(added["searches"], s.added_searches) &&
            read_list(added["options"], s.added_options) && str(added, "dnsPolicy", s.policy_before);
  s.set_policy = added.isMember("dnsPolicy");
  const Json::Value& library = added["library"];
  if (!(library.isNull() || library.isBool())) return false;
  s.added_library = library.isBool() && library.asBool();
  s.marker = mode == "marker";
  return ok && (mode == "option" || mode == "marker");
}

std::string settings_changed(const InjectStatus& a, const InjectStatus& b) {
  std::string out;
  auto note = [&](const char* what, const std::string& x, const std::string& y) {
    if (x != y) out += (out.empty() ? "" : "; ") + std::string(what) + " " + x + " -> " + y;
  };
  note("autopath", a.marker ? "marker" : "option", b.marker ? "marker" : "option");
  note("image", a.image.empty() ? "-" : a.image, b.image.empty() ? "-" : b.image);
  note("libc", a.libc.empty() ? "-" : a.libc, b.libc.empty() ? "-" : b.libc);
  note("nameservers", words(a.nameservers), words(b.nameservers));
  note("node search domains", words(a.host_search), words(b.host_search));
  if (!a.nameservers.empty() && !b.nameservers.empty()) note("cluster domain", a.cluster_domain, b.cluster_domain);
  return out;
}

}  // namespace rk8s::tools
