// SPDX-License-Identifier: Apache-2.0
// The server's query path: bytes in, reply bytes out, no sockets.
#include <cstddef>
#include <cstdint>

#include "fuzz/server_world.h"
#include "server/answer/handler.h"
#include "server/faults/edns_modes.h"

using namespace rk8s::server;
using rk8s::server::fuzz::World;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  static const HandlerConfig config{&world.router, AutopathMode::on, rk8s::autopath::kDefaultCode};
  // The handler, and the test faults' EDNS modes around it.
  static const Handle handles[] = {
      [](rk8s::Bytes query, const QueryFrom& from, ReplyFn reply) {
        handle_query(config, query, from, std::move(reply));
      },
      edns_mode_handle(EdnsMode::echo, config), edns_mode_handle(EdnsMode::formerr, config)};
  for (const Handle& handle : handles) {
    bool replied = false;
    bool tcp = size & 1;
    handle(rk8s::Bytes{data, size}, QueryFrom{rk8s::IpAddr{}, tcp},
           [&](std::vector<uint8_t>& reply, const QueryInfo&) {
             if (reply.size() > (tcp ? 65535 : config.max_udp_size)) __builtin_trap();
             replied = true;
           });
    if (!replied) __builtin_trap();  // the closed world answers at once
  }
  return 0;
}
