// SPDX-License-Identifier: Apache-2.0
#include "server/process/runtime.h"

#include <atomic>
#include <stdexcept>

#include "server/answer/closed_world.h"
#include "server/answer/marker.h"
#include "server/data/load.h"
#include "server/util/dns_text.h"
#include "server/util/names.h"

namespace rk8s::server {

Runtime::Runtime(const ServerConfig& config, const ForwardShared& shared, const Warn& warn,
                 const RuntimeWrap& wrap)
    : config_(config), loops_(warn) {
  static std::atomic<uint64_t> made{0};
  generation_ = ++made;
  auto add_forwarder = [&](const ForwardConfig& f, const Name& zone) {
    auto forwarder = std::make_unique<Forwarder>(std::make_shared<Upstreams>(f, shared.metrics, warn), shared);
    loops_.add(zone, *forwarder);
    forwarders_.push_back(forwarder.get());
    sources_.push_back(std::move(forwarder));
    return sources_.back().get();
  };
  for (const ZoneServer& s : config_.servers) {
    Source* source;
    if (s.forward) {
      source = add_forwarder(*s.forward, s.zones.front());
    } else {
      auto store = std::make_shared<Store>();
      load_store(s.cluster_file, s.cluster_domain, s.zone_files, warn, *store);
      auto world = std::make_unique<ClosedWorld>(std::move(store));
      worlds_.push_back(world.get());
      sources_.push_back(wrap.data ? wrap.data(std::move(world)) : std::move(world));
      source = sources_.back().get();
    }
    for (const Name& zone : s.zones)
      if (!router_.add(zone, source, bool(s.forward)))
        throw std::runtime_error("zone " + name_text(zone) + " is served twice");
  }
  if (config_.upstream_resolvers) router_.set_fallback(add_forwarder(*config_.upstream_resolvers, Name{}), true);
  if (config_.marker) {
    Name zone;
    if (!marker_zone(*config_.marker, zone)) throw std::runtime_error("the marker zone is over 255 bytes");
    sources_.push_back(std::make_unique<MarkerSource>(*config_.marker, zone, router_, &shared.held, config_.walk_cuts));
    if (!router_.add(zone, sources_.back().get(), true))
      throw std::runtime_error("zone " + name_text(zone) + " is the marker's and a server's");
  }
  handler_ = HandlerConfig{&router_, config_.autopath, config_.autopath_code, &loops_,
                           config_.limits.max_udp_size, config_.limits.max_upstream_per_query, &shared.held,
                           config_.walk_cuts};
  if (wrap.handle) {
    handle_ = wrap.handle(handler_);
    return;
  }
  handle_ = [this](Bytes query, const QueryFrom& from, ReplyFn reply) {
    handle_query(handler_, query, from, std::move(reply));
  };
}

bool Runtime::ready() const {
  for (const Forwarder* f : forwarders_)
    if (!f->upstreams().any_healthy() || f->looping()) return false;
  return true;
}

std::string Runtime::serving() const {
  size_t names = 0;
  for (const ClosedWorld* w : worlds_) names += w->store().node_count();
  std::string out = std::to_string(names) + " names from files, " + std::to_string(forwarders_.size()) +
                    (forwarders_.size() == 1 ? " forwarder" : " forwarders");
  return config_.marker ? out + ", the marker" : out;
}

}  // namespace rk8s::server
