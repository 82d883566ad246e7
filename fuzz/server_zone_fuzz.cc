// SPDX-License-Identifier: Apache-2.0
// RFC 1035 master files, then a lookup in what they loaded.
#include <cstddef>
#include <cstdint>

#include "common/load_error.h"
#include "server/data/store_lookup.h"
#include "server/data/zone_file.h"
#include "server/model/resolution.h"
#include "server/util/dns_text.h"

using namespace rk8s;
using namespace rk8s::server;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Store store;
  try {
    load_zone(std::string_view(reinterpret_cast<const char*>(data), size), "f", store);
  } catch (const LoadError&) {
    return 0;
  }
  Name name;
  parse_name("www.example.com", name);
  store_lookup(store, name, rk8s::dns::kTypeA);
  return 0;
}
