// SPDX-License-Identifier: Apache-2.0
// The cluster file: JSON, then the schema built from it.
#include <cstddef>
#include <cstdint>

#include "common/load_error.h"
#include "server/data/cluster_json.h"
#include "server/data/cluster_records.h"
#include "server/util/dns_text.h"

using namespace rk8s;
using namespace rk8s::server;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    JsonDoc doc(std::string_view(reinterpret_cast<const char*>(data), size), "f");
    Cluster cluster = parse_cluster(doc, "f", [](const std::string&) {});
    Name domain;
    parse_name("cluster.local", domain);
    Store store;
    add_cluster(cluster, domain, "f", store);
  } catch (const LoadError&) {
  }
  return 0;
}
