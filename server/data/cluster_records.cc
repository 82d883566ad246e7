// SPDX-License-Identifier: Apache-2.0
#include "server/data/cluster_records.h"

#include <map>

#include "common/load_error.h"
#include "server/data/address_names.h"
#include "server/util/dns_text.h"

namespace rk8s::server {

namespace {

constexpr uint32_t kTtl = 5;  // CoreDNS's kubernetes plugin default
// CoreDNS's DNSSchemaVersion, at dns-version.D (plugin/kubernetes Services).
constexpr char kSchemaVersion[] = "1.1.0";
constexpr uint32_t kSchemaVersionTtl = 28800;

// A name an SRV record points to, and the address it has.
struct Target {
  Name name;
  IpAddr ip;
};

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
      if (it != by_name.end() && it->second->kind != Service::kExternalName) endpoints(*it->second, slice);
    }
    for (const Pod& p : c.pods) pod(p);
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

  // Each zone's own names, as CoreDNS's plugin.SOA writes them.
  Rr soa(const Name& apex) {
    Rr rr{dns::kTypeSOA, kTtl, {}};
    put_name(rr.rdata, under({"ns", "dns"}, apex, 0));
    put_name(rr.rdata, under({"hostmaster"}, apex, 0));
    for (uint32_t v : {1u, 7200u, 1800u, 86400u, kTtl}) put32(rr.rdata, v);
    return rr;
  }

  void zones() {
    for (const char* apex : {"", "in-addr.arpa", "ip6.arpa"}) {
      Name name = domain_;
      if (*apex) parse_name(apex, name);
      store_.add_zone(name, soa(name), true);
    }
    Rr ns{dns::kTypeNS, kTtl, {}};
    put_name(ns.rdata, nameserver());
    store_.add(domain_, ns);
    std::string text = char(sizeof kSchemaVersion - 1) + std::string(kSchemaVersion);
    Rr version{dns::kTypeTXT, kSchemaVersionTtl, std::vector<uint8_t>(text.begin(), text.end())};
    store_.add(under({"dns-version"}, domain_, 0), version);
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

  // CoreDNS's weight: 100 over the records the name has at that priority
  // (plugin.SRV), counted before duplicates go.
  void srv(const Name& owner, const ServicePort& port, const Name& target, size_t count) {
    Rr rr{dns::kTypeSRV, kTtl, {}};
    for (uint16_t v : {uint16_t(0), uint16_t(100 / count), port.port}) put16(rr.rdata, v);
    put_name(rr.rdata, target);
    store_.add(owner, rr);
  }

  // A Service's SRV, as CoreDNS's findServices lists it: one per port and
  // target at the Service's name, unnamed ports too; one per target at each
  // named port's `_port._proto` name, which also has the targets' addresses.
  void srvs(const Name& owner, const std::vector<ServicePort>& ports, const std::vector<Target>& targets,
            int line) {
    for (const ServicePort& port : ports) {
      for (const Target& t : targets) srv(owner, port, t.name, ports.size() * targets.size());
      if (port.name.empty()) continue;
      Name named = under({"_" + port.name, "_" + port.protocol}, owner, line);
      for (const Target& t : targets) {
        srv(named, port, t.name, targets.size());
        address(named, t.ip);
      }
    }
  }

  Name service_name(const std::string& ns, const std::string& name, int line) {
    return under({name, ns, "svc"}, domain_, line);
  }

  // A headless Service's names are its endpoints' alone: none ready, the
  // name does not exist.
  void service(const Service& s) {
    Name owner = service_name(s.ns, s.name, s.line);
    if (s.kind == Service::kExternalName) return name_rr(owner, dns::kTypeCNAME, s.external_name);
    if (s.kind == Service::kHeadless) return;
    std::vector<Target> targets;
    for (const IpAddr& ip : s.ips) {
      address(owner, ip);
      ptr(ip, owner);
      targets.push_back({owner, ip});
    }
    srvs(owner, s.ports, targets, s.line);
  }

  // Every ready endpoint has its own name (its hostname, else its dashed
  // address), under any Service; a headless Service's name lists them.
  void endpoints(const Service& s, const EndpointSlice& slice) {
    Name owner = service_name(s.ns, s.name, s.line);
    std::vector<Target> targets;
    for (const SliceEndpoint& ep : slice.endpoints) {
      if (!ep.ready) continue;
      for (const IpAddr& ip : ep.addresses) {
        Name host = under({ep.hostname.empty() ? dashed_label(ip) : ep.hostname}, owner, slice.line);
        address(host, ip);
        ptr(ip, host);
        for (const ServicePort& port : slice.ports) srv(host, port, host, slice.ports.size());
        targets.push_back({host, ip});
      }
    }
    if (s.kind != Service::kHeadless) return;
    for (const Target& t : targets) address(owner, t.ip);
    srvs(owner, slice.ports, targets, slice.line);
  }

  // No PTR: CoreDNS answers none for a pod (`pods insecure` or not).
  void pod(const Pod& p) {
    for (const IpAddr& ip : p.ips) address(under({dashed_label(ip), p.ns, "pod"}, domain_, p.line), ip);
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
