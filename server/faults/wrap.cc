// SPDX-License-Identifier: Apache-2.0
#include "server/faults/wrap.h"

#include <memory>

#include "server/faults/faulty_source.h"
#include "server/faults/test_log.h"
#include "server/net/loop.h"

namespace rk8s::server {
namespace {

// Every reply `ms` later, on the loop its query came to.
Handle delayed(Handle handle, unsigned ms) {
  return [handle = std::move(handle), ms](Bytes query, const QueryFrom& from, ReplyFn reply) {
    Loop* loop = Loop::current();
    handle(query, from, [loop, ms, reply = std::move(reply)](std::vector<uint8_t>& bytes, const QueryInfo& info) {
      loop->after(ms, [reply, bytes = std::move(bytes), info]() mutable { reply(bytes, info); });
    });
  };
}

RuntimeWrap wrap_runtime(const TestFaults& faults) {
  RuntimeWrap wrap;
  if (!faults.names.empty()) {
    auto names = std::make_shared<const NameFaults>(faults.names);
    wrap.data = [names](std::unique_ptr<Source> source) -> std::unique_ptr<Source> {
      return std::make_unique<FaultySource>(std::move(source), names);
    };
  }
  if (!faults.edns && !faults.delay_ms) return wrap;
  wrap.handle = [edns = faults.edns, ms = faults.delay_ms](const HandlerConfig& config) {
    Handle handle = edns ? edns_mode_handle(*edns, config) : [&config](Bytes query, const QueryFrom& from,
                                                                       ReplyFn reply) {
      handle_query(config, query, from, std::move(reply));
    };
    return ms ? delayed(std::move(handle), ms) : handle;
  };
  return wrap;
}

}  // namespace

QueryPathWrap wrap_query_path(const TestFaults& faults) {
  QueryPathWrap wrap;
  wrap.runtime = wrap_runtime(faults);
  // A delayed reply must not come at once from the packet cache.
  wrap.packet_cache = faults.delay_ms == 0;
  if (!faults.query_log.empty()) {
    auto log = std::make_shared<TestLog>(faults.query_log);
    wrap.answered = [log](const Client& client, const QueryInfo& info, const std::vector<uint8_t>&) {
      log->write(client, info);
    };
  }
  return wrap;
}

}  // namespace rk8s::server
