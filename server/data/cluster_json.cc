#include "server/data/cluster.h"

#include "server/data/load_error.h"
#include "server/util/text.h"

namespace rk8s::server {

namespace {

// Field access that names the object and field in every error.
class Fields {
 public:
  Fields(const std::string& file, const std::string& what) : file_(file), what_(what) {}

  [[noreturn]] void fail(const Json& at, const std::string& why) const {
    throw LoadError(file_, at.line, what_ + ": " + why);
  }

  const Json* get(const Json& obj, const char* key, Json::Kind kind) const {
    const Json* v = obj.get(key);
    if (!v || v->kind == Json::kNull) return nullptr;
    if (v->kind != kind)
      fail(*v, std::string(key) + " is " + json_kind_name(v->kind) + ", not " +
                   json_kind_name(kind));
    return v;
  }
  std::string text(const Json& obj, const char* key) const {
    const Json* v = get(obj, key, Json::kString);
    return v ? v->string : "";
  }
  bool boolean(const Json& obj, const char* key, bool otherwise) const {
    const Json* v = get(obj, key, Json::kBool);
    return v ? v->boolean : otherwise;
  }
  const std::vector<Json>& array(const Json& obj, const char* key) const {
    static const std::vector<Json> none;
    const Json* v = get(obj, key, Json::kArray);
    return v ? v->items : none;
  }
  const Json& object(const Json& obj, const char* key) const {
    static const Json none{Json::kObject};
    const Json* v = get(obj, key, Json::kObject);
    return v ? *v : none;
  }
  IpAddr ip(const Json& v) const {
    IpAddr out;
    for (int family : {AF_INET, AF_INET6})
      if (v.kind == Json::kString && parse_inet_pton(family, str(v.string), out.addr)) {
        out.family = uint8_t(family);
        return out;
      }
    fail(v, "'" + v.string + "' is not an IP address");
  }
  std::vector<ServicePort> ports(const Json& obj) const {
    std::vector<ServicePort> out;
    for (const Json& p : array(obj, "ports")) {
      const Json* port = get(p, "port", Json::kNumber);
      if (!port || port->number < 1 || port->number > 65535 || port->number != int(port->number))
        fail(p, "a port needs a port number from 1 to 65535");
      std::string protocol = ascii_lower(text(p, "protocol"));
      out.push_back(ServicePort{text(p, "name"), protocol.empty() ? "tcp" : protocol,
                                uint16_t(port->number)});
    }
    return out;
  }

 private:
  const std::string& file_;
  std::string what_;
};

Service service(const Json& item, const Fields& f, const std::string& ns, const std::string& name) {
  Service s{item.line, ns, name};
  const Json& spec = f.object(item, "spec");
  s.ports = f.ports(spec);
  s.publish_not_ready = f.boolean(spec, "publishNotReadyAddresses", false);
  if (f.text(spec, "type") == "ExternalName") {
    s.kind = Service::kExternalName;
    const Json* target = f.get(spec, "externalName", Json::kString);
    if (!target || !parse_name(target->string, s.external_name))
      f.fail(target ? *target : item, "externalName is not a domain name");
    return s;
  }
  if (f.text(spec, "clusterIP") == "None") {
    s.kind = Service::kHeadless;
    return s;
  }
  const std::vector<Json>& ips = f.array(spec, "clusterIPs");
  for (const Json& ip : ips) s.ips.push_back(f.ip(ip));
  if (ips.empty() && f.get(spec, "clusterIP", Json::kString))
    s.ips.push_back(f.ip(*spec.get("clusterIP")));
  return s;
}

EndpointSlice slice(const Json& item, const Fields& f, const std::string& ns) {
  EndpointSlice s{item.line, ns};
  s.service = f.text(f.object(f.object(item, "metadata"), "labels"), "kubernetes.io/service-name");
  s.ports = f.ports(item);
  if (f.text(item, "addressType") == "FQDN") return s;
  for (const Json& e : f.array(item, "endpoints")) {
    SliceEndpoint ep;
    for (const Json& a : f.array(e, "addresses")) ep.addresses.push_back(f.ip(a));
    ep.ready = f.boolean(f.object(e, "conditions"), "ready", true);
    ep.hostname = f.text(e, "hostname");
    s.endpoints.push_back(std::move(ep));
  }
  return s;
}

Pod pod(const Json& item, const Fields& f, const std::string& ns, const std::string& name) {
  Pod p{item.line, ns, name};
  const Json& spec = f.object(item, "spec");
  const Json& status = f.object(item, "status");
  p.hostname = f.text(spec, "hostname");
  p.subdomain = f.text(spec, "subdomain");
  for (const Json& entry : f.array(status, "podIPs")) {
    const Json* ip = f.get(entry, "ip", Json::kString);
    if (!ip) f.fail(entry, "a podIPs entry without an ip");
    p.ips.push_back(f.ip(*ip));
  }
  if (p.ips.empty() && f.get(status, "podIP", Json::kString))
    p.ips.push_back(f.ip(*status.get("podIP")));
  for (const Json& c : f.array(status, "conditions"))
    if (f.text(c, "type") == "Ready") p.ready = f.text(c, "status") == "True";
  return p;
}

}  // namespace

Cluster parse_cluster(const Json& list, const std::string& file, const Warn& warn) {
  Fields top(file, "the List");
  if (list.kind != Json::kObject) top.fail(list, "expected an object with \"items\"");
  const Json* items = top.get(list, "items", Json::kArray);
  if (!items) top.fail(list, "no \"items\" array");
  Cluster c;
  for (const Json& item : items->items) {
    if (item.kind != Json::kObject) top.fail(item, "an item is not an object");
    std::string kind = top.text(item, "kind");
    const Json& meta = top.object(item, "metadata");
    std::string ns = top.text(meta, "namespace"), name = top.text(meta, "name");
    Fields f(file, kind + " " + (ns.empty() ? "" : ns + "/") + name);
    if (name.empty()) f.fail(item, "no metadata.name");
    if (kind != "Namespace" && ns.empty()) f.fail(item, "no metadata.namespace");
    if (kind == "Namespace") c.namespaces.push_back(name);
    else if (kind == "Service") c.services.push_back(service(item, f, ns, name));
    else if (kind == "EndpointSlice") c.slices.push_back(slice(item, f, ns));
    else if (kind == "Pod") c.pods.push_back(pod(item, f, ns, name));
    else warn(file + ":" + std::to_string(item.line) + ": skipping an item of kind '" + kind + "'");
  }
  return c;
}

}  // namespace rk8s::server
