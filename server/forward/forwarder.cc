// SPDX-License-Identifier: Apache-2.0
#include "server/forward/forwarder.h"

#include <event2/event.h>
#include <event2/event_struct.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "server/cache/ttl.h"
#include "server/forward/exchange.h"
#include "server/forward/query.h"
#include "server/forward/metrics.h"
#include "server/util/coredns_names.h"
#include "server/util/dns_text.h"

namespace rk8s::server {
namespace {

using Clock = Cache::Clock;

std::string flight_key(const CacheKey& k) {
  return k.name + char(k.type >> 8) + char(k.type) + char(k.dnssec_ok) + char(k.checking_disabled);
}

// NXDOMAIN for the name asked itself (no CNAME before it): the name has no
// records of any type (RFC 2308 section 5).
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

// Whether an NXDOMAIN for `name` answers every type of it and every name
// below it (ForwardShared::below_nxdomain).
bool holds_for_all(const ForwardShared& shared, const Name& name) {
  return shared.below_nxdomain && nxdomain_holds_below(name, *shared.below_nxdomain);
}

Resolution with_rcode(uint8_t rcode) {
  Resolution res;
  res.rcode = rcode;
  res.recursive = true;
  res.reuse.kept = 0;
  return res;
}

// One question's way through the upstreams, on the loop that asked it,
// for the client that started its flight (`owner`).
class Attempt : public std::enable_shared_from_this<Attempt> {
 public:
  Attempt(std::shared_ptr<Upstreams> upstreams, const ForwardShared& shared, const Ask& ask, Loop& loop,
          QueryOwner owner)
      : upstreams_(std::move(upstreams)), shared_(shared), ask_{ask.name, ask.type, ask.dnssec_ok,
        ask.checking_disabled}, key_(cache_key(ask)), flight_(flight_key(key_)), loop_(loop), owner_(owner) {}

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
    exchange(loop_, upstreams_->at(i), tcp, upstream_query(ask_), Forwarder::kReadTimeoutMs, owner_, done);
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
    if (names_nothing(*answer) && holds_for_all(shared_, ask_.name))
      shared_.cache.insert(any_type(key_), answer, ttl, Clock::now());
    uint32_t refresh_in = caps.prefetch.enabled ? refresh_point_ms(ttl, caps.prefetch.percentage) : UINT32_MAX;
    land(resolution_of(CacheHit{answer, ttl, 0, false, false, refresh_in}, ask_.type, caps.stale.stale_ttl));
  }

  // No upstream answered: what the cache still has (RFC 8767), its
  // upstreams not asked again for failureRecheck; else SERVFAIL.
  void give_up() {
    Clock::time_point now = Clock::now();
    shared_.cache.failed(key_, now);
    std::optional<CacheHit> hit = shared_.cache.find(key_, now, CacheFind{true});
    land(hit ? resolution_of(*hit, ask_.type, shared_.caps.stale.stale_ttl) : with_rcode(dns::kServFail));
  }

  void land(const Resolution& res) { shared_.flights.land(flight_, res); }

  std::shared_ptr<Upstreams> upstreams_;
  ForwardShared shared_;
  Ask ask_;
  CacheKey key_;
  std::string flight_;
  Loop& loop_;
  QueryOwner owner_;
  std::vector<size_t> order_;
  size_t at_ = 0;
};

}  // namespace

CacheKey cache_key(const Ask& ask) {
  return CacheKey{name_key(ask.name), ask.type, dns::kClassIN, ask.dnssec_ok, ask.checking_disabled};
}

Resolution resolution_of(const CacheHit& hit, uint16_t type, uint32_t stale_ttl) {
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
  res.stale_ttl = stale_ttl;
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
// the flight outlasts clientTimeout. Until then it holds the stale entry
// (the cache's own answer, not a copy), the timer, and the bytes charged
// for the query; all let go as the answer is given, so that a query
// answered stale holds nothing while its question goes on.
class Forwarder::Asker {
 public:
  Asker(Resolved done, ForwardMetrics& metrics, uint16_t type, uint32_t stale_ttl, std::optional<CacheHit> stale)
      : done_(std::move(done)), metrics_(metrics), stale_(std::move(stale)), type_(type), stale_ttl_(stale_ttl) {}
  ~Asker() { stop_timer(); }
  Asker(const Asker&) = delete;
  Asker& operator=(const Asker&) = delete;

  void give(const Resolution* res, const char* stale_reason) {
    if (!done_) return;
    stop_timer();
    Resolved done = std::move(done_);
    done_ = nullptr;
    stale_.reset();
    charge_.release();
    if (res && res->stale) metrics_.stale(stale_reason);
    done(res);
  }
  // The stale entry's answer; false when there is none.
  bool give_stale(const char* reason) {
    if (!stale_) return false;
    Resolution res = resolution_of(*stale_, type_, stale_ttl_);
    res.from_cache = true;
    give(&res, reason);
    return true;
  }
  // The stale answer after `ms` on `loop`, unless an answer comes first.
  void expire_after(Loop& loop, unsigned ms) {
    timer_ = evtimer_new(loop.base(), expire, this);
    timeval tv{time_t(ms / 1000), suseconds_t(ms % 1000 * 1000)};
    evtimer_add(timer_, &tv);
  }
  void hold(HeldBytes::Charge charge) { charge_ = std::move(charge); }

 private:
  static void expire(evutil_socket_t, short, void* self) { static_cast<Asker*>(self)->give_stale("timeout"); }
  void stop_timer() {
    if (timer_) event_free(std::exchange(timer_, nullptr));
  }

  Resolved done_;
  ForwardMetrics& metrics_;
  std::optional<CacheHit> stale_;
  uint16_t type_;
  uint32_t stale_ttl_;
  event* timer_ = nullptr;
  HeldBytes::Charge charge_;
};

// Its asker (made shared), its timer, its place among its flight's askers,
// and what is held above this layer for it: the handler's query and the
// reply in the making, the query path's and the listener's closures
// (kQueryBytes, the heap's growth over queries waiting, measured).
constexpr size_t kQueryBytes = 2048;
const size_t Forwarder::kWaitingBytes =
    heap_bytes(sizeof(Forwarder::Asker) + 16) + heap_bytes(sizeof(event)) + Flights::kAskerBytes + kQueryBytes;

// RFC 8020: a fresh NXDOMAIN cached for a name above `name` that holds
// below it (ForwardShared::below_nxdomain) answers it.
std::optional<CacheHit> Forwarder::nxdomain_above(const CacheKey& key, const Name& name, Clock::time_point now) {
  const std::optional<Name>& domain = shared_.below_nxdomain;
  if (!domain || !dns::name_ends_with(name, *domain)) return std::nullopt;
  CacheKey above = any_type(key);
  for (Name n = name_parent(name); n.len > domain->len; n = name_parent(n)) {
    if (!holds_for_all(shared_, n)) continue;
    above.name = name_key(n);
    if (std::optional<CacheHit> hit = shared_.cache.find(above, now, CacheFind{.count_miss = false})) {
      shared_.metrics.below_nxdomain();
      return hit;
    }
  }
  return std::nullopt;
}

// A fresh cached answer at once; an expired one at once too when so
// configured (Immediate) or while its upstreams are not to be asked again
// (failureRecheck); else the question goes upstream, with the expired
// answer ready for clientTimeout.
void Forwarder::resolve(const Ask& ask, Resolved done) {
  const CacheConfig& caps = shared_.caps;
  uint32_t stale_ttl = caps.stale.stale_ttl;
  CacheKey key = cache_key(ask);
  Clock::time_point now = Clock::now();
  CacheFind how{caps.stale.max_stale > 0, &caps.prefetch, 1 + (ask.scope ? ask.scope->repeats : 0)};
  std::optional<CacheHit> hit = shared_.cache.find(key, now, how);
  if (!hit || hit->stale)
    if (std::optional<CacheHit> nothing = shared_.cache.find(any_type(key), now, how); nothing && (!hit || !nothing->stale))
      hit = nothing;
  if (!hit) hit = nxdomain_above(key, ask.name, now);
  if (hit && !hit->stale) {
    Resolution res = resolution_of(*hit, ask.type, stale_ttl);
    res.from_cache = true;
    // Past the refresh point the packet cache lets queries through to here.
    if (hit->refresh) refresh(ask);  // before done(), which may end `ask`
    return done(&res);
  }
  if (hit && (caps.stale.mode == StaleMode::immediate || hit->since_failure < caps.stale.failure_recheck)) {
    bool immediate = caps.stale.mode == StaleMode::immediate;
    shared_.metrics.stale(immediate ? "immediate" : "recheck");
    if (immediate && hit->since_failure >= caps.stale.failure_recheck) refresh(ask);
    Resolution stale = resolution_of(*hit, ask.type, stale_ttl);
    stale.from_cache = true;
    return done(&stale);
  }
  if (looping_) {
    Resolution res = with_rcode(dns::kServFail);
    return done(&res);
  }
  Loop* loop = Loop::current();
  bool has_stale = hit.has_value();
  auto asker = std::make_shared<Asker>(std::move(done), shared_.metrics, ask.type, stale_ttl, std::move(hit));
  QueryScope* scope = ask.scope.get();
  if (scope) {
    HeldBytes::Charge charge = shared_.held.charge(ClientKey::of(scope->client), kWaitingBytes);
    if (!charge) return refuse(Refusal::memory, *asker);
    asker->hold(std::move(charge));
  }
  auto attempt = std::make_shared<Attempt>(upstreams_, shared_, ask, *loop,
                                           QueryOwner{scope ? ClientKey::of(scope->client) : ClientKey{}});
  bool start;
  Refusal why = shared_.flights.join(attempt->flight(), scope ? &scope->client : nullptr,
                                     !scope || scope->upstream_left > 0, loop,
                                     [asker](const Resolution* res) { asker->give(res, "failed"); }, start);
  if (why != Refusal::none) return refuse(why, *asker);
  if (has_stale && caps.stale.client_timeout_ms) asker->expire_after(*loop, caps.stale.client_timeout_ms);
  if (!start) return;
  if (scope) scope->upstream_left--;
  attempt->start();
}

// RFC 8767 section 5 lets a resolver short of resources answer stale, and
// unbound answers SERVFAIL when it has no room for a query: so stale when
// the cache has it, else SERVFAIL; REFUSED beyond maxConcurrent alone, as
// CoreDNS's forward.
void Forwarder::refuse(Refusal why, Asker& asker) {
  shared_.metrics.limited(refusal_name(why));
  if (why != Refusal::questions && why != Refusal::budget && asker.give_stale("refused")) return;
  Resolution res = with_rcode(why == Refusal::questions ? dns::kRefused : dns::kServFail);
  res.over_budget = why == Refusal::budget;
  asker.give(&res, "refused");
}

// In the background, asked by no one: joins nothing in flight, and gives
// way when the server's own questions in flight are at their bound
// (refresh_limit), which takes no client's.
void Forwarder::refresh(const Ask& ask) {
  if (looping_) return;
  Loop* loop = Loop::current();
  auto attempt = std::make_shared<Attempt>(upstreams_, shared_, ask, *loop, QueryOwner{});
  bool start;
  if (shared_.flights.join(attempt->flight(), nullptr, true, loop, [](const Resolution*) {}, start) ==
      Refusal::none)
    attempt->start();
}

}  // namespace rk8s::server
