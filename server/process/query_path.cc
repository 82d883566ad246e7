// SPDX-License-Identifier: Apache-2.0
#include "server/process/query_path.h"

#include <netinet/in.h>

#include <chrono>
#include <utility>

namespace rk8s::server {

namespace {

// CoreDNS's `server` label: the first listen address stands for all.
std::string server_label(const ServerConfig& config) { return "dns://" + config.listen.front().text; }

}  // namespace

QueryPath::QueryPath(const ServerConfig& config, size_t packet_bytes, size_t workers,
                     std::shared_ptr<const Runtime> runtime, const QueryPathWrap& wrap)
    : packets_(wrap.packet_cache ? config.cache.capacity : 0, packet_bytes),
      rate_(config.limits.client_qps),
      metrics_(server_label(config), workers),
      coredns_(server_label(config), workers),
      answered_([this](const Client& client, const QueryInfo& info, const std::vector<uint8_t>& reply,
                       double seconds) { count_and_log(client, info, reply, seconds); }) {
  if (wrap.answered)
    answered_ = [own = std::move(answered_), also = wrap.answered](
                    const Client& client, const QueryInfo& info, const std::vector<uint8_t>& reply, double seconds) {
      own(client, info, reply, seconds);
      also(client, info, reply);
    };
  reload(std::move(runtime));
}

void QueryPath::reload(std::shared_ptr<const Runtime> runtime) {
  const ServerConfig& config = runtime->config();
  query_log_.configure(config.log_level, config.query_log_file);
  std::lock_guard<std::mutex> lock(mutex_);
  generation_ = runtime->generation();
  runtime_.swap(runtime);
}

std::shared_ptr<const Runtime> QueryPath::runtime() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return runtime_;
}

void QueryPath::count_and_log(const Client& client, const QueryInfo& info,
                              const std::vector<uint8_t>& reply, double seconds) {
  metrics_.count(client.worker, info);
  metrics_.duration(client.worker, info.rcode, seconds);
  const sockaddr_in6& from = reinterpret_cast<const sockaddr_in6&>(client.addr);
  // CoreDNS's family: 2 for IPv6, 1 for IPv4, an IPv4 client on a
  // dual-stack socket included.
  bool ipv6 = from.sin6_family == AF_INET6 && !IN6_IS_ADDR_V4MAPPED(&from.sin6_addr);
  coredns_.count(client.worker, info, client.tcp, ipv6, seconds);
  query_log_.write(client.addr, info, reply, seconds);
}

ServeAtOnce QueryPath::at_once() {
  return [this](Bytes query, Client& client, std::vector<uint8_t>& reply) {
    auto now = PacketCache::Clock::now();
    if (!rate_.allow(client.addr, now)) {
      reply.clear();
      return true;
    }
    QueryInfo info;
    if (!packets_.find(query, generation_, now, reply, info)) {
      client.passed = info.repeats;  // for serve(), called next for this query
      return false;
    }
    info.by = QueryInfo::By::cache;  // the packet cache is the cache's to CoreDNS's counters
    answered_(client, info, reply, 0);
    return true;
  };
}

Serve QueryPath::serve() {
  return [this](Bytes query, const Client& client, Answer answer) {
    if (client.tcp && !rate_.allow(client.addr, PacketCache::Clock::now())) {  // UDP's: at_once()
      std::vector<uint8_t> none;
      return answer(none);
    }
    std::shared_ptr<const Runtime> rt = runtime();
    auto started = std::chrono::steady_clock::now();
    answering_++;
    std::string asked;  // the query outlives its buffer only here, for the packet cache
    if (!client.tcp && query.size <= PacketCache::kMaxQuery)
      asked.assign(reinterpret_cast<const char*>(query.data), query.size);
    QueryFrom from{ip_from_sockaddr(reinterpret_cast<const sockaddr*>(&client.addr)), client.tcp,
                   client.passed};
    rt->handle()(query, from,
                 [this, rt, client, answer, started, asked = std::move(asked)](
                     std::vector<uint8_t>& reply, const QueryInfo& answered) {
                   QueryInfo info = answered;  // with its zone's index, for the counters and the packet cache
                   info.zone_index = coredns_.zone_index(info.zone);
                   answered_(client, info, reply,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                                 .count());
                   if (!asked.empty())
                     packets_.insert(Bytes{reinterpret_cast<const uint8_t*>(asked.data()), asked.size()},
                                     rt->generation(), reply, info, PacketCache::Clock::now());
                   answer(reply);
                   answering_--;
                 });
  };
}

}  // namespace rk8s::server
