// SPDX-License-Identifier: Apache-2.0
#include "server/data/cluster_json.h"

#include <cstring>

#include "common/load_error.h"
#include "server/util/dns_text.h"
#include "server/util/strings.h"

namespace rk8s::server {

namespace {

enum class Kind { boolean, number, string, array, object };

bool is(const Json::Value& v, Kind kind) {
  switch (kind) {
    case Kind::boolean: return v.isBool();
    case Kind::number: return v.isNumeric() && !v.isBool();
    case Kind::string: return v.isString();
    case Kind::array: return v.isArray();
    case Kind::object: return v.isObject();
  }
  return false;
}

const char* kind_name(Kind kind) {
  static const char* const names[] = {"boolean", "number", "string", "array", "object"};
  return names[int(kind)];
}

// Field access that names the object, the field and the line in every error.
class Fields {
 public:
  Fields(const JsonDoc& doc, const std::string& file, const std::string& what)
      : doc_(doc), file_(file), what_(what) {}

  [[noreturn]] void fail(const Json::Value& at, const std::string& why) const {
    throw LoadError(file_, doc_.line(at), what_ + ": " + why);
  }

  const Json::Value* get(const Json::Value& obj, const char* key, Kind kind) const {
    const Json::Value* v = obj.isObject() ? obj.find(key, key + strlen(key)) : nullptr;
    if (!v || v->isNull()) return nullptr;
    if (!is(*v, kind))
      fail(*v, std::string(key) + " is " + json_kind_name(*v) + ", not " + kind_name(kind));
    return v;
  }
  std::string text(const Json::Value& obj, const char* key) const {
    const Json::Value* v = get(obj, key, Kind::string);
    return v ? v->asString() : "";
  }
  bool boolean(const Json::Value& obj, const char* key, bool otherwise) const {
    const Json::Value* v = get(obj, key, Kind::boolean);
    return v ? v->asBool() : otherwise;
  }
  const Json::Value& array(const Json::Value& obj, const char* key) const {
    static const Json::Value none(Json::arrayValue);
    const Json::Value* v = get(obj, key, Kind::array);
    return v ? *v : none;
  }
  const Json::Value& object(const Json::Value& obj, const char* key) const {
    static const Json::Value none(Json::objectValue);
    const Json::Value* v = get(obj, key, Kind::object);
    return v ? *v : none;
  }
  IpAddr ip(const Json::Value& v) const {
    IpAddr out;
    std::string text = v.isString() ? v.asString() : "";
    for (int family : {AF_INET, AF_INET6})
      if (v.isString() && parse_inet_pton(family, str(text), out.addr)) {
        out.family = uint8_t(family);
        return out;
      }
    fail(v, "'" + text + "' is not an IP address");
  }
  std::vector<ServicePort> ports(const Json::Value& obj) const {
    std::vector<ServicePort> out;
    for (const Json::Value& p : array(obj, "ports")) {
      const Json::Value* port = get(p, "port", Kind::number);
      double n = port ? port->asDouble() : 0;
      if (n < 1 || n > 65535 || n != int(n)) fail(p, "a port needs a port number from 1 to 65535");
      std::string protocol = ascii_lower(text(p, "protocol"));
      out.push_back(ServicePort{text(p, "name"), protocol.empty() ? "tcp" : protocol, uint16_t(n)});
    }
    return out;
  }
  int line(const Json::Value& v) const { return doc_.line(v); }

 private:
  const JsonDoc& doc_;
  const std::string& file_;
  std::string what_;
};

Service service(const Json::Value& item, const Fields& f, const std::string& ns,
                const std::string& name) {
  Service s{f.line(item), ns, name};
  const Json::Value& spec = f.object(item, "spec");
  s.ports = f.ports(spec);
  if (f.text(spec, "type") == "ExternalName") {
    s.kind = Service::kExternalName;
    const Json::Value* target = f.get(spec, "externalName", Kind::string);
    if (!target || !parse_name(target->asString(), s.external_name))
      f.fail(target ? *target : item, "externalName is not a domain name");
    return s;
  }
  if (f.text(spec, "clusterIP") == "None") {
    s.kind = Service::kHeadless;
    return s;
  }
  const Json::Value& ips = f.array(spec, "clusterIPs");
  for (const Json::Value& ip : ips) s.ips.push_back(f.ip(ip));
  if (ips.empty())
    if (const Json::Value* ip = f.get(spec, "clusterIP", Kind::string)) s.ips.push_back(f.ip(*ip));
  return s;
}

EndpointSlice slice(const Json::Value& item, const Fields& f, const std::string& ns) {
  EndpointSlice s{f.line(item), ns};
  s.service = f.text(f.object(f.object(item, "metadata"), "labels"), "kubernetes.io/service-name");
  s.ports = f.ports(item);
  if (f.text(item, "addressType") == "FQDN") return s;
  for (const Json::Value& e : f.array(item, "endpoints")) {
    SliceEndpoint ep;
    for (const Json::Value& a : f.array(e, "addresses")) ep.addresses.push_back(f.ip(a));
    ep.ready = f.boolean(f.object(e, "conditions"), "ready", true);
    ep.hostname = f.text(e, "hostname");
    s.endpoints.push_back(std::move(ep));
  }
  return s;
}

Pod pod(const Json::Value& item, const Fields& f, const std::string& ns, const std::string& name) {
  Pod p{f.line(item), ns, name};
  const Json::Value& status = f.object(item, "status");
  for (const Json::Value& entry : f.array(status, "podIPs")) {
    const Json::Value* ip = f.get(entry, "ip", Kind::string);
    if (!ip) f.fail(entry, "a podIPs entry without an ip");
    p.ips.push_back(f.ip(*ip));
  }
  if (p.ips.empty())
    if (const Json::Value* ip = f.get(status, "podIP", Kind::string)) p.ips.push_back(f.ip(*ip));
  return p;
}

}  // namespace

Cluster parse_cluster(const JsonDoc& doc, const std::string& file, const Warn& warn) {
  Fields top(doc, file, "the List");
  const Json::Value& list = doc.root();
  if (!list.isObject()) top.fail(list, "expected an object with \"items\"");
  const Json::Value* items = top.get(list, "items", Kind::array);
  if (!items) top.fail(list, "no \"items\" array");
  Cluster c;
  for (const Json::Value& item : *items) {
    if (!item.isObject()) top.fail(item, "an item is not an object");
    std::string kind = top.text(item, "kind");
    const Json::Value& meta = top.object(item, "metadata");
    std::string ns = top.text(meta, "namespace"), name = top.text(meta, "name");
    Fields f(doc, file, kind + " " + (ns.empty() ? "" : ns + "/") + name);
    if (name.empty()) f.fail(item, "no metadata.name");
    if (kind != "Namespace" && ns.empty()) f.fail(item, "no metadata.namespace");
    if (kind == "Namespace") c.namespaces.push_back(name);
    else if (kind == "Service") c.services.push_back(service(item, f, ns, name));
    else if (kind == "EndpointSlice") c.slices.push_back(slice(item, f, ns));
    else if (kind == "Pod") c.pods.push_back(pod(item, f, ns, name));
    else warn(file + ":" + std::to_string(doc.line(item)) + ": skipping an item of kind '" + kind + "'");
  }
  return c;
}

}  // namespace rk8s::server
