// SPDX-License-Identifier: Apache-2.0
#include "server/data/cluster_records.h"

#include <map>

#include "common/load_error.h"
#include "server/data/address_names.h"
#include "server/util/dns_text.h"

namespace rk8s::server {

namespace {

constexpr uint32_t kTtl = 5;  // CoreDNS's kubernetes plugin default

class Builder {
 public:
  Builder(const Name& domain, const std::string& file, Store& store)
      : domain_(domain), file_(file), store_(store) {}

  void run(const Cluster& c) {
    zones();
    store_.add_empty(under({"svc"}, domain_, 0));
    store_.add_empty(under({"pod"}, domain_, 0));
    for (const std::string& ns : c.namespaces) {
      store_.add_empty(under({ns, "svc"}, domain_, 0));
      store_.add_empty(under({ns, "pod"}, domain_, 0));
    }
    std::map<std::pair<std::string, std::string>, const Service*> by_name;
    for (const Service& s : c.services) {
      by_name[{s.ns, s.name}] = &s;
      service(s);
    }
    for (const EndpointSlice& slice : c.slices) {
      auto it = by_name.find({slice.ns, slice.service});
      if (it != by_name.end() && it->second->kind == Service::kHeadless) endpoints(*it->second, slice);
    }
    for (const Pod& p : c.pods) {
      auto it = by_name.find({p.ns, p.subdomain});
      pod(p, it != by_name.end() && it->second->kind == Service::kHeadless ? it->second : nullptr);
    }
    auto dns = by_name.find({"kube-system", "kube-dns"});
    if (dns != by_name.end())
      for (const IpAddr& ip : dns->second->ips) address(nameserver(), ip);
  }

 private:
  // `labels` (left to right) in front of `base`.
  Name under(std::initializer_list<std::string_view> labels, const Name& base, int line) {
    Name out = base;
    for (auto it = std::rbegin(labels); it != std::rend(labels); ++it) {
      Name next;
      if (!name_prepend(*it, out, next))
        throw LoadError(file_, line, "'" + std::string(*it) + "." + name_text(out) +
                                         "' is not a valid domain name");
      out = next;
    }
    return out;
  }

  Name nameserver() { return under({"ns", "dns"}, domain_, 0); }

  Rr soa() {
    Rr rr{dns::kTypeSOA, kTtl, {}};
    put_name(rr.rdata, nameserver());
    put_name(rr.rdata, under({"hostmaster"}, domain_, 0));
    for (uint32_t v : {1u, 7200u, 1800u, 86400u, kTtl}) put32(rr.rdata, v);
    return rr;
  }

  void zones() {
    for (const char* apex : {"", "in-addr.arpa", "ip6.arpa"}) {
      Name name = domain_;
      if (*apex) parse_name(apex, name);
      store_.add_zone(name, soa());
    }
    Rr ns{dns::kTypeNS, kTtl, {}};
    put_name(ns.rdata, nameserver());
    store_.add(domain_, ns);
  }

  void address(const Name& owner, const IpAddr& ip) {
    Rr rr{ip.family == AF_INET ? dns::kTypeA : dns::kTypeAAAA, kTtl, {}};
    rr.rdata.assign(ip.addr, ip.addr + ip_size(ip));
    store_.add(owner, rr);
  }

  void name_rr(const Name& owner, uint16_t type, const Name& target) {
    Rr rr{type, kTtl, {}};
    put_name(rr.rdata, target);
    store_.add(owner, rr);
  }

  // The first name given an address keeps its PTR: services before
  // endpoints before pods.
  void ptr(const IpAddr& ip, const Name& target) {
    Name rev = reverse_name(ip);
    if (!store_.has(rev, dns::kTypePTR)) name_rr(rev, dns::kTypePTR, target);
  }

  void srv(const ServicePort& port, const Name& service, const Name& target, int line) {
    if (port.name.empty()) return;
    Rr rr{dns::kTypeSRV, kTtl, {}};
    for (uint16_t v : {uint16_t(0), uint16_t(100), port.port}) put16(rr.rdata, v);
    put_name(rr.rdata, target);
    store_.add(under({"_" + port.name, "_" + port.protocol}, service, line), rr);
  }

  Name service_name(const std::string& ns, const std::string& name, int line) {
    return under({name, ns, "svc"}, domain_, line);
  }

  void service(const Service& s) {
    Name owner = service_name(s.ns, s.name, s.line);
    store_.add_empty(owner);
    if (s.kind == Service::kExternalName) return name_rr(owner, dns::kTypeCNAME, s.external_name);
    if (s.kind == Service::kHeadless) return;
    for (const IpAddr& ip : s.ips) {
      address(owner, ip);
      ptr(ip, owner);
    }
    for (const ServicePort& port : s.ports) srv(port, owner, owner, s.line);
  }

  // Headless: the service name lists every ready endpoint, and each
  // endpoint has its own name (its hostname, else its dashed address).
  void endpoints(const Service& s, const EndpointSlice& slice) {
    Name owner = service_name(s.ns, s.name, s.line);
    for (const SliceEndpoint& ep : slice.endpoints) {
      if (!ep.ready && !s.publish_not_ready) continue;
      for (const IpAddr& ip : ep.addresses) {
        Name host = under({ep.hostname.empty() ? dashed_label(ip) : ep.hostname}, owner, slice.line);
        address(owner, ip);
        address(host, ip);
        ptr(ip, host);
        for (const ServicePort& port : slice.ports) srv(port, owner, host, slice.line);
      }
    }
  }

  void pod(const Pod& p, const Service* headless_subdomain) {
    bool fqdn = headless_subdomain && !p.hostname.empty() &&
                (p.ready || headless_subdomain->publish_not_ready);
    for (const IpAddr& ip : p.ips) {
      Name owner = under({dashed_label(ip), p.ns, "pod"}, domain_, p.line);
      address(owner, ip);
      if (fqdn) address(under({p.hostname, p.subdomain, p.ns, "svc"}, domain_, p.line), ip);
      ptr(ip, owner);
    }
  }

  Name domain_;
  const std::string& file_;
  Store& store_;
};

}  // namespace

void add_cluster(const Cluster& cluster, const Name& domain, const std::string& file,
                 Store& store) {
  Builder(domain, file, store).run(cluster);
}

}  // namespace rk8s::server
