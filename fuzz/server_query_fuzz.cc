// The server's query path: bytes in, reply bytes out, no sockets.
#include <cstddef>
#include <cstdint>

#include "server/data/cluster.h"
#include "server/answer/closed_world.h"
#include "server/answer/handler.h"
#include "server/data/zone_file.h"

using namespace rk8s::server;

namespace {

const char kZone[] =
    "$ORIGIN example.com.\n$TTL 60\n@ SOA ns h 1 2 3 4 30\n@ NS ns\nns A 192.0.2.1\n"
    "www A 192.0.2.2\nwww AAAA 2001:db8::2\nalias CNAME www\nloop CNAME loop\n*.wild A 192.0.2.3\n"
    "_s._tcp SRV 0 1 80 www\nmail MX 10 www\ntxt TXT \"a\" b\n";
const char kCluster[] =
    R"({"items": [{"kind": "Namespace", "metadata": {"name": "ns"}},
    {"kind": "Service", "metadata": {"name": "web", "namespace": "ns"},
     "spec": {"clusterIPs": ["10.0.0.1", "fd00::1"], "ports": [{"name": "http", "port": 80}]}},
    {"kind": "Service", "metadata": {"name": "ext", "namespace": "ns"},
     "spec": {"type": "ExternalName", "externalName": "alias.example.com"}},
    {"kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
     "status": {"podIPs": [{"ip": "10.1.0.1"}]}}]})";

std::shared_ptr<const Store> world_store() {
  auto store = std::make_shared<Store>();
  Name domain;
  parse_name("cluster.local", domain);
  add_cluster(parse_cluster(parse_json(kCluster, "c"), "c", [](const std::string&) {}), domain,
              "c", *store);
  load_zone(kZone, "z", *store);
  return store;
}

Faults world_faults() {
  Faults faults;
  faults.add_rcode("fail.example.com=SERVFAIL");
  return faults;
}

struct World {
  Faults faults = world_faults();
  ClosedWorld data{world_store(), faults};
  Router router;
  World() { router.add(Name{}, &data); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  for (AutopathMode mode : {AutopathMode::on, AutopathMode::echo}) {
    HandlerConfig config{&world.router, mode, rk8s::autopath::kDefaultCode};
    bool replied = false;
    handle_query(config, rk8s::Bytes{data, size}, size & 1,
                 [&](std::vector<uint8_t>& reply, const QueryInfo&) {
                   if (reply.size() > 65535) __builtin_trap();
                   replied = true;
                 });
    if (!replied) __builtin_trap();  // the closed world answers at once
  }
  return 0;
}
