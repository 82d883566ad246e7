// The server's query path: bytes in, reply bytes out, no sockets.
#include <cstddef>
#include <cstdint>

#include "server/data/cluster.h"
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

struct World {
  Store store;
  Faults faults;
  World() {
    Name domain;
    parse_name("cluster.local", domain);
    add_cluster(parse_cluster(parse_json(kCluster, "c"), "c", [](const std::string&) {}), domain,
                "c", store);
    load_zone(kZone, "z", store);
    faults.add_rcode("fail.example.com=SERVFAIL");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  static uint8_t out[65535];
  for (AutopathMode mode : {AutopathMode::on, AutopathMode::echo}) {
    HandlerConfig config{&world.store, &world.faults, mode, rk8s::autopath::kDefaultCode};
    QueryInfo info;
    size_t n = handle_query(config, rk8s::Bytes{data, size}, size & 1, out, sizeof out, info);
    if (n > sizeof out) __builtin_trap();
  }
  return 0;
}
