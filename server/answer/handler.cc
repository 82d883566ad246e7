// SPDX-License-Identifier: Apache-2.0
#include "server/answer/handler.h"

#include "server/answer/client_query.h"
#include "server/forward/loop_guard.h"
#include "server/util/dns_text.h"

#include <memory>

namespace rk8s::server {
namespace {

constexpr uint16_t kTypeAxfr = 252, kTypeIxfr = 251;
constexpr uint16_t kClassAny = 255;
constexpr uint8_t kNotAuth = 9;
constexpr uint16_t kBadKey = 17;
constexpr uint16_t kEdnsDo = 0x8000;

// An EDNS option owned by the response (the query's bytes are gone by then).
struct Option {
  uint16_t code;
  std::vector<uint8_t> value;
};

// What a reply is made of; written by encode().
struct Response {
  uint8_t rcode = dns::kNoError;
  bool authoritative = false;
  bool recursive = false;
  std::optional<Rr> alias;  // written first, owned by the query name
  Resolution answer;        // its three sections and TTLs
  Resolution both;          // BOTH: the AAAA records go in the additional section
  bool opt = false;
  std::vector<Option> options;
  Reuse reuse;  // that of what it was made of
  QueryInfo::By by = QueryInfo::By::server;  // who wrote the answer
};

// One query being answered.
struct Pending {
  Query query;
  Response response;
  size_t limit;  // bytes the reply may take
  QueryInfo info;
  ReplyFn reply;
};

// One record of a reply, in the order it is written.
struct Out {
  dns::Section section;
  const Name* owner;
  const Rr* rr;
  uint32_t ttl;
};

void add_section(std::vector<Out>& out, dns::Section section, const std::vector<RrRef>& records,
                 const Resolution& from, uint16_t only_type = 0) {
  for (const RrRef& x : records)
    if (!only_type || x.rr->type == only_type) out.push_back({section, &x.owner, x.rr, from.ttl_of(*x.rr)});
}

std::vector<Out> records_of(const Query& q, const Response& r) {
  std::vector<Out> out;
  if (r.alias) out.push_back({dns::kAnswer, &q.question.name, &*r.alias, r.alias->ttl});
  add_section(out, dns::kAnswer, r.answer.records, r.answer);
  add_section(out, dns::kAuthority, r.answer.authority, r.answer);
  add_section(out, dns::kAdditional, r.answer.additional, r.answer);
  add_section(out, dns::kAdditional, r.both.records, r.both, dns::kTypeAAAA);
  return out;
}

bool same_rrset(const Out& a, const Out& b) {
  return a.section == b.section && a.rr->type == b.rr->type && dns::name_equal(*a.owner, *b.owner);
}

// The TSIG of a reply to a query signed with a key we do not hold: BADKEY,
// unsigned (RFC 8945 5.2.1, 5.3.2).
bool write_badkey(dns::Writer& w, const Tsig& t) {
  uint8_t mac_size[2] = {0, 0}, tail[6];
  store16(tail, t.original_id);
  store16(tail + 2, kBadKey);
  store16(tail + 4, 0);
  return w.begin_record(dns::kAdditional, t.key, kTypeTsig, 0, kClassAny) && w.rdata_name(t.algorithm) &&
         w.rdata_bytes(Bytes{t.time_fudge, 8}) && w.rdata_bytes(Bytes{mac_size, 2}) &&
         w.rdata_bytes(Bytes{tail, 6}) && w.end_record();
}

// The first `count` of `records`, and then the OPT and the TSIG the
// reply must carry. `count` becomes the records written before the RRset
// of the first one that did not fit.
std::vector<uint8_t> write_reply(const Query& q, const Response& r, const std::vector<Out>& records,
                                 size_t& count, size_t limit, uint16_t flags) {
  std::vector<uint8_t> out(limit);
  dns::Writer w(out.data(), out.size());
  w.header(q.header.id, uint16_t(flags | (r.rcode & dns::kRcodeMask)));
  if (q.has_question) w.question(q.question.name, q.question.type, q.question.klass);
  std::vector<dns::EdnsOption> options;
  size_t opt_size = 11;
  for (const Option& o : r.options) {
    options.push_back({o.code, Bytes{o.value.data(), o.value.size()}});
    opt_size += 4 + o.value.size();
  }
  if (r.opt) w.reserve(opt_size);
  for (size_t i = 0; i < count; i++) {
    const Out& x = records[i];
    if (write_rr(w, x.section, *x.owner, *x.rr, x.ttl)) continue;
    while (i > 0 && same_rrset(records[i - 1], x)) i--;
    count = i;
    break;
  }
  if (r.opt) {
    w.release(opt_size);
    w.opt(dns::kEdnsUdpSize, uint8_t(r.rcode >> 4), q.edns.flags & kEdnsDo, options.data(), options.size());
  }
  if (r.rcode == kNotAuth) write_badkey(w, q.tsig);
  out.resize(w.size());
  return out;
}

// A reply cut short keeps whole RRsets only (RFC 2181 section 9 lets a
// partial one stay; a client that ignores TC would take it for the whole).
std::vector<uint8_t> encode(const Query& q, const Response& r, size_t limit) {
  uint16_t flags = dns::kFlagQR | (q.header.flags & (dns::kOpcodeMask | dns::kFlagRD | dns::kFlagCD));
  if (r.authoritative) flags |= dns::kFlagAA;
  if (r.recursive) flags |= dns::kFlagRA;
  std::vector<Out> records = records_of(q, r);
  size_t whole = records.size(), all = whole;
  std::vector<uint8_t> out = write_reply(q, r, records, whole, limit, flags);
  if (whole == all) return out;
  return write_reply(q, r, records, whole, limit, flags | dns::kFlagTC);
}

void finish(Pending& p) {
  const Response& r = p.response;
  p.info.rcode = r.rcode;
  p.info.by = r.by;
  p.info.denial = r.rcode == dns::kNxDomain || (r.rcode == dns::kNoError && r.answer.records.empty());
  if (r.rcode == dns::kNoError || r.rcode == dns::kNxDomain) {
    p.info.reusable = r.reuse.kept;
    p.info.refresh_in_ms = r.reuse.refresh_in_ms;
  }
  p.info.ttls_count_down = r.recursive;
  std::vector<uint8_t> bytes = encode(p.query, r, p.limit);
  p.reply(bytes, p.info);
}

void drop(Pending& p) {
  p.info.dropped = true;
  std::vector<uint8_t> none;
  p.reply(none, p.info);
}

void take(Response& r, const Resolution& res) {
  r.rcode = res.rcode;
  r.authoritative = res.authoritative;
  r.recursive = res.recursive;
  r.answer = res;
  r.reuse = res.reuse;
  r.by = res.from_cache  ? QueryInfo::By::cache
         : res.recursive ? QueryInfo::By::upstream
         : res.authoritative ? QueryInfo::By::data
                             : QueryInfo::By::server;
}

// The reply option of an autopath walk; none when it was not asked for.
void add_reply_option(Pending& p, uint16_t code) {
  if (!p.info.autopath) return;
  std::vector<uint8_t> bytes(5);
  bytes.resize(autopath::encode_reply(*p.info.autopath, bytes.data(), bytes.size()));
  p.response.options.push_back(Option{code, std::move(bytes)});
}

// QNAME answered plainly (no walk, or a walk that REJECTED the option).
void answer_plainly(const HandlerConfig& config, std::shared_ptr<Pending> p, const Ask& ask) {
  resolve_routed(*config.router, ask, [p, code = config.option_code](const Resolution* res) {
    if (!res) return drop(*p);
    take(p->response, *res);
    p->info.marker_status = res->marker_status;
    p->info.marker_walked = res->marker_walked;
    p->info.cut = res->marker_cut;
    add_reply_option(*p, code);
    finish(*p);
  });
}

void answer_walk(const HandlerConfig& config, std::shared_ptr<Pending> p, const Ask& ask,
                 const autopath::QueryOption& option) {
  auto answer = [config, p, ask](AutopathWalk& w) {
    p->info.autopath = w.option;
    p->info.walked = w.walked;
    p->info.cut = w.cut;
    if (w.option.status == autopath::kRejected) return answer_plainly(config, p, ask);
    take(p->response, w.resolution);
    p->response.reuse = w.reuse;
    p->response.alias = w.alias;
    p->response.both = w.both;
    add_reply_option(*p, config.option_code);
    finish(*p);
  };
  walk_candidates(*config.router, ask, option, std::move(answer), config.held, config.cuts);
}

}  // namespace

void handle_query(const HandlerConfig& config, Bytes query, const QueryFrom& from, ReplyFn reply) {
  dns::Reader reader(query.data, query.size);
  auto p = std::make_shared<Pending>();
  p->reply = std::move(reply);
  Query& q = p->query;
  if (!reader.header(q.header) || q.header.qr()) {
    std::vector<uint8_t> none;
    return p->reply(none, p->info);
  }
  Response& r = p->response;
  uint8_t rcode = read_query(reader, q);
  QueryInfo& info = p->info;
  info.has_question = q.has_question;
  info.qname = q.question.name;
  info.qtype = q.question.type;
  if (q.has_question) info.zone = name_text(config.router->zone(q.question.name));
  r.opt = q.has_edns;
  p->limit = reply_limit(q, from.tcp, config.max_udp_size);

  Bytes value;
  info.has_option = q.has_edns && dns::edns_option(q.edns.options, config.option_code, value);
  bool recursion_desired = q.header.flags & dns::kFlagRD;
  if (rcode != dns::kNoError) {
    r.rcode = rcode;
  } else if (q.has_tsig) {
    r.rcode = kNotAuth;  // we hold no key (RFC 8945 5.2.1)
  } else if (q.has_edns && q.edns.version != 0) {
    r.rcode = dns::kBadVers;
  } else if (q.question.klass != dns::kClassIN || q.question.type == kTypeAxfr ||
             q.question.type == kTypeIxfr) {
    r.rcode = dns::kRefused;
  } else if (!recursion_desired && config.router->recursive(q.question.name)) {
    r.rcode = dns::kRefused;  // as unbound's `access-control: allow`: no cache snooping
  } else {
    if (config.loops) config.loops->arrived(q.question.name);
    Ask ask{q.question.name, q.question.type, q.has_edns && (q.edns.flags & 0x8000),
            bool(q.header.flags & dns::kFlagCD),
            std::make_shared<QueryScope>(QueryScope{from.client, config.max_upstream, from.repeats})};
    // A walk is recursion, which RD=0 does not ask for.
    if (!info.has_option || config.mode != AutopathMode::on || !recursion_desired)
      return answer_plainly(config, p, ask);
    autopath::QueryOption option;
    if (autopath::decode_query(value, option) == autopath::QueryDecode::ok)
      return answer_walk(config, p, ask, option);
    info.autopath = autopath::ReplyOption{};  // REJECTED
    return answer_plainly(config, p, ask);
  }
  finish(*p);
}

}  // namespace rk8s::server
