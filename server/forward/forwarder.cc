// SPDX-License-Identifier: Apache-2.0
#include "server/forward/forwarder.h"

#include <cerrno>
#include <cstring>

#include "server/cache/ttl.h"
#include "server/forward/exchange.h"
#include "server/forward/query.h"
#include "server/forward/metrics.h"
#include "server/util/dns_text.h"

namespace rk8s::server {
namespace {

using Clock = Cache::Clock;

std::string flight_key(const CacheKey& k) {
  return k.name + char(k.type >> 8) + char(k.type) + char(k.dnssec_ok) + char(k.checking_disabled);
}

// NXDOMAIN for the name asked itself (no CNAME before it): the name has no
// records of any type (RFC 2308 section 5), so it answers every type.
bool names_nothing(const CachedAnswer& a) {
  if (a.rcode != dns::kNxDomain) return false;
  for (const CachedRecord& r : a.records)
    if (r.section == dns::kAnswer) return false;
  return true;
}

CacheKey any_type(CacheKey key) {
  key.type = 0;  // no query asks for type 0
  return key;
}

Resolution with_rcode(uint8_t rcode) {
  Resolution res;
  res.rcode = rcode;
  res.recursive = true;
  res.reuse.kept = 0;
  return res;
}

// One question's way through the upstreams, on the loop that asked it.
class Attempt : public std::enable_shared_from_this<Attempt> {
 public:
  Attempt(std::shared_ptr<Upstreams> upstreams, const ForwardShared& shared, const Ask& ask, Loop& loop)
      : upstreams_(std::move(upstreams)), shared_(shared), ask_{ask.name, ask.type, ask.dnssec_ok,
        ask.checking_disabled}, key_(cache_key(ask)), flight_(flight_key(key_)), loop_(loop) {}

  const std::string& flight() const { return flight_; }

  void start() {
    order_ = upstreams_->order();
    next();
  }

 private:
  void next() {
    if (at_ == order_.size()) return give_up();
    send(order_[at_], upstreams_->tcp_only());
  }

  void send(size_t i, bool tcp) {
    auto self = shared_from_this();
    Clock::time_point t0 = Clock::now();
    auto done = [self, i, tcp, t0](ExchangeResult& r) { self->on_reply(i, tcp, r, t0); };
    exchange(loop_, upstreams_->at(i), tcp, upstream_query(ask_), Forwarder::kReadTimeoutMs, done);
  }

  void on_reply(size_t i, bool tcp, ExchangeResult& r, Clock::time_point t0) {
    if (r.status == ExchangeResult::no_socket) {
      shared_.warn(std::string("cannot open a socket to ") + upstreams_->at(i).text + ": " + strerror(errno) +
                   "; questions answered SERVFAIL meanwhile");
      return give_up();
    }
    auto answer = std::make_shared<CachedAnswer>();
    bool read = r.status == ExchangeResult::ok &&
                read_upstream_reply(Bytes{r.reply.data(), r.reply.size()}, *answer);
    std::string rcode = read ? rcode_to_text(uint8_t(answer->rcode))
                        : r.status == ExchangeResult::timeout ? "timeout"
                                                              : "error";
    shared_.metrics.request(upstreams_->at(i).text, rcode,
                            std::chrono::duration<double>(Clock::now() - t0).count());
    if (!read) {
      upstreams_->failed(i, loop_);
      ++at_;
      return next();
    }
    if (answer->truncated && !tcp) return send(i, true);
    upstreams_->succeeded(i);
    const CacheConfig& caps = shared_.caps;
    uint32_t ttl = cache_ttl(*answer, caps);
    shared_.cache.insert(key_, answer, ttl, Clock::now());
    if (names_nothing(*answer)) shared_.cache.insert(any_type(key_), answer, ttl, Clock::now());
    uint32_t refresh_in = caps.prefetch.enabled ? refresh_point_ms(ttl, caps.prefetch.percentage) : UINT32_MAX;
    land(resolution_of(CacheHit{answer, ttl, 0, false, false, refresh_in}, ask_.type, caps));
  }

  // No upstream answered: what the cache still has (RFC 8767), its
  // upstreams not asked again for failureRecheck; else SERVFAIL.
  void give_up() {
    Clock::time_point now = Clock::now();
    shared_.cache.failed(key_, now);
    std::optional<CacheHit> hit = shared_.cache.find(key_, now, CacheFind{true});
    land(hit ? resolution_of(*hit, ask_.type, shared_.caps) : with_rcode(dns::kServFail));
  }

  void land(const Resolution& res) { shared_.flights.land(flight_, res); }

  std::shared_ptr<Upstreams> upstreams_;
  ForwardShared shared_;
  Ask ask_;
  CacheKey key_;
  std::string flight_;
  Loop& loop_;
  std::vector<size_t> order_;
  size_t at_ = 0;
};

}  // namespace

CacheKey cache_key(const Ask& ask) {
  return CacheKey{name_key(ask.name), ask.type, dns::kClassIN, ask.dnssec_ok, ask.checking_disabled};
}

Resolution resolution_of(const CacheHit& hit, uint16_t type, const CacheConfig& caps) {
  Resolution res;
  const CachedAnswer& answer = *hit.answer;
  // An extended rcode we cannot pass on (BADCOOKIE, ...) is a failure.
  res.rcode = answer.rcode > 15 ? uint8_t(dns::kServFail) : uint8_t(answer.rcode);
  res.recursive = true;
  res.entry_ttl = hit.ttl ? hit.ttl : UINT32_MAX;
  res.reuse.kept = hit.stale || hit.age >= hit.ttl ? 0 : hit.ttl - hit.age;
  res.reuse.refresh_in_ms = hit.refresh_in_ms;
  res.age = hit.age;
  res.stale = hit.stale;
  res.stale_ttl = caps.stale.stale_ttl;
  // ANY: the first RRset of the answer, and nothing additional (RFC 8482 4.1).
  const CachedRecord* any = nullptr;
  for (const CachedRecord& r : answer.records) {
    RrRef ref{answer.owner(r), &r.rr};
    if (r.section == dns::kAnswer && type == dns::kTypeANY) {
      if (!any) any = &r;
      if (r.owner != any->owner || r.rr.type != any->rr.type) continue;
    } else if (r.section == dns::kAdditional && type == dns::kTypeANY) {
      continue;
    }
    if (r.section == dns::kAnswer) {
      res.records.push_back(ref);
      res.has_data |= r.rr.type == type || type == dns::kTypeANY;
    } else {
      (r.section == dns::kAuthority ? res.authority : res.additional).push_back(ref);
    }
  }
  res.keep = hit.answer;
  return res;
}

// One query's answer, given once: by its question's flight, or stale when
// the flight outlasts clientTimeout; a stale answer counted by why.
class Forwarder::Asker {
 public:
  Asker(Resolved done, ForwardMetrics& metrics) : done_(std::move(done)), metrics_(metrics) {}
  void give(const Resolution* res, const char* stale_reason) {
    if (given_) return;
    given_ = true;
    if (res && res->stale) metrics_.stale(stale_reason);
    done_(res);
  }

 private:
  Resolved done_;
  ForwardMetrics& metrics_;
  bool given_ = false;
};

// A fresh cached answer at once; an expired one at once too when so
// configured (Immediate) or while its upstreams are not to be asked again
// (failureRecheck); else the question goes upstream, with the expired
// answer ready for clientTimeout.
void Forwarder::resolve(const Ask& ask, Resolved done) {
  const CacheConfig& caps = shared_.caps;
  CacheKey key = cache_key(ask);
  Clock::time_point now = Clock::now();
  CacheFind how{caps.stale.max_stale > 0, &caps.prefetch, 1 + (ask.scope ? ask.scope->repeats : 0)};
  std::optional<CacheHit> hit = shared_.cache.find(key, now, how);
  if (!hit || hit->stale)
    if (std::optional<CacheHit> nothing = shared_.cache.find(any_type(key), now, how); nothing && (!hit || !nothing->stale))
      hit = nothing;
  if (hit && !hit->stale) {
    Resolution res = resolution_of(*hit, ask.type, caps);
    // Past the refresh point the packet cache lets queries through to here.
    if (hit->refresh) refresh(ask);  // before done(), which may end `ask`
    return done(&res);
  }
  std::optional<Resolution> stale;
  if (hit) stale = resolution_of(*hit, ask.type, caps);
  if (stale && (caps.stale.mode == StaleMode::immediate || hit->since_failure < caps.stale.failure_recheck)) {
    bool immediate = caps.stale.mode == StaleMode::immediate;
    shared_.metrics.stale(immediate ? "immediate" : "recheck");
    if (immediate && hit->since_failure >= caps.stale.failure_recheck) refresh(ask);
    return done(&*stale);
  }
  if (looping_) {
    Resolution res = with_rcode(dns::kServFail);
    return done(&res);
  }
  Loop* loop = Loop::current();
  auto attempt = std::make_shared<Attempt>(upstreams_, shared_, ask, *loop);
  QueryScope* scope = ask.scope.get();
  auto asker = std::make_shared<Asker>(std::move(done), shared_.metrics);
  bool start;
  Refusal why = shared_.flights.join(attempt->flight(), scope ? &scope->client : nullptr,
                                     !scope || scope->upstream_left > 0, loop,
                                     [asker](const Resolution* res) { asker->give(res, "failed"); }, start);
  if (why != Refusal::none) return refuse(why, stale ? &*stale : nullptr, *asker);
  if (stale && caps.stale.client_timeout_ms)
    loop->after(caps.stale.client_timeout_ms, [asker, res = *stale] { asker->give(&res, "timeout"); });
  if (!start) return;
  if (scope) scope->upstream_left--;
  attempt->start();
}

void Forwarder::refuse(Refusal why, const Resolution* stale, Asker& asker) {
  shared_.metrics.limited(refusal_name(why));
  Resolution res = with_rcode(why == Refusal::questions ? dns::kRefused : dns::kServFail);
  res.over_budget = why == Refusal::budget;
  asker.give(stale && why != Refusal::questions && why != Refusal::budget ? stale : &res, "refused");
}

// In the background, asked by no one: joins nothing in flight, and gives
// way when the server's own questions in flight are at their bound
// (refresh_limit), which takes no client's.
void Forwarder::refresh(const Ask& ask) {
  if (looping_) return;
  Loop* loop = Loop::current();
  auto attempt = std::make_shared<Attempt>(upstreams_, shared_, ask, *loop);
  bool start;
  if (shared_.flights.join(attempt->flight(), nullptr, true, loop, [](const Resolution*) {}, start) ==
      Refusal::none)
    attempt->start();
}

}  // namespace rk8s::server
