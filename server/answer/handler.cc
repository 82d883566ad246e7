// SPDX-License-Identifier: Apache-2.0
#include "server/answer/handler.h"

#include "server/forward/loop_guard.h"

#include <algorithm>
#include <memory>

namespace rk8s::server {
namespace {

struct Query {
  dns::Header header;
  dns::Question question;
  bool has_question = false;
  bool has_edns = false;
  dns::Edns edns;
};

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
};

// One query being answered.
struct Pending {
  Query query;
  Response response;
  size_t limit;  // bytes the reply may take
  QueryInfo info;
  ReplyFn reply;
};

// FORMERR for anything after the header that does not parse, or a second OPT.
// After the header.
bool read_query(dns::Reader& reader, Query& q, uint8_t& rcode) {
  rcode = dns::kFormErr;
  if (q.header.qdcount != 1 || !reader.question(q.question)) return false;
  q.has_question = true;
  dns::Record r;
  while (reader.record(r)) {
    if (r.type != dns::kTypeOPT) continue;
    if (q.has_edns || r.section != dns::kAdditional || !dns::edns_from_record(reader, r, q.edns))
      return false;
    q.has_edns = true;
  }
  if (!reader.ok()) return false;
  if (q.header.flags & dns::kOpcodeMask) {
    rcode = dns::kNotImp;
    return false;
  }
  rcode = dns::kNoError;
  return true;
}

std::vector<Option> all_options(Bytes options) {
  std::vector<Option> out;
  size_t pos = 0;
  dns::EdnsOption o;
  while (dns::edns_next_option(options, pos, o))
    out.push_back(Option{o.code, {o.value.data, o.value.data + o.value.size}});
  return out;
}

void write_section(dns::Writer& w, dns::Section section, const std::vector<RrRef>& records,
                   const Resolution& from, uint16_t only_type = 0) {
  for (const RrRef& x : records)
    if (!only_type || x.rr->type == only_type) write_rr(w, section, x.owner, *x.rr, from.ttl_of(*x.rr));
}

std::vector<uint8_t> encode(const Query& q, const Response& r, size_t limit) {
  std::vector<uint8_t> out(limit);
  dns::Writer w(out.data(), out.size());
  uint16_t flags = dns::kFlagQR | (q.header.flags & (dns::kOpcodeMask | dns::kFlagRD | dns::kFlagCD));
  if (r.authoritative) flags |= dns::kFlagAA;
  if (r.recursive) flags |= dns::kFlagRA;
  w.header(q.header.id, uint16_t(flags | (r.rcode & dns::kRcodeMask)));
  if (q.has_question) w.question(q.question.name, q.question.type, q.question.klass);
  std::vector<dns::EdnsOption> options;
  size_t opt_size = 11;
  for (const Option& o : r.options) {
    options.push_back({o.code, Bytes{o.value.data(), o.value.size()}});
    opt_size += 4 + o.value.size();
  }
  if (r.opt) w.reserve(opt_size);
  if (r.alias) write_rr(w, dns::kAnswer, q.question.name, *r.alias, r.alias->ttl);
  write_section(w, dns::kAnswer, r.answer.records, r.answer);
  write_section(w, dns::kAuthority, r.answer.authority, r.answer);
  write_section(w, dns::kAdditional, r.answer.additional, r.answer);
  write_section(w, dns::kAdditional, r.both.records, r.both, dns::kTypeAAAA);
  if (r.opt) {
    w.release(opt_size);
    w.opt(dns::kEdnsUdpSize, uint8_t(r.rcode >> 4), 0, options.data(), options.size());
  }
  out.resize(w.size());
  return out;
}

void finish(Pending& p) {
  const Response& r = p.response;
  p.info.rcode = r.rcode;
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
    add_reply_option(*p, code);
    finish(*p);
  });
}

void answer_walk(const HandlerConfig& config, std::shared_ptr<Pending> p, const Ask& ask,
                 const autopath::QueryOption& option) {
  walk_candidates(*config.router, ask, option, [config, p, ask](AutopathWalk& w) {
    p->info.autopath = w.option;
    p->info.walked = w.walked;
    if (w.option.status == autopath::kRejected) return answer_plainly(config, p, ask);
    take(p->response, w.resolution);
    p->response.reuse = w.reuse;
    p->response.alias = w.alias;
    p->response.both = w.both;
    add_reply_option(*p, config.option_code);
    finish(*p);
  });
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
  uint8_t rcode;
  bool good = read_query(reader, q, rcode);
  QueryInfo& info = p->info;
  info.has_question = q.has_question;
  info.qname = q.question.name;
  info.qtype = q.question.type;
  r.opt = q.has_edns;
  p->limit = from.tcp       ? 65535
             : q.has_edns ? std::clamp<size_t>(q.edns.udp_size, 512, std::max<size_t>(512, config.max_udp_size))
                          : 512;

  Bytes value;
  info.has_option = q.has_edns && dns::edns_option(q.edns.options, config.option_code, value);
  if (!good) {
    r.rcode = rcode;
  } else if (q.has_edns && q.edns.version != 0) {
    r.rcode = dns::kBadVers;
  } else if (config.mode == AutopathMode::formerr && q.has_edns && q.edns.options.size > 0) {
    r.rcode = dns::kFormErr;
    r.opt = false;
  } else if (q.question.klass != dns::kClassIN) {
    r.rcode = dns::kRefused;
  } else {
    if (config.mode == AutopathMode::echo && q.has_edns) r.options = all_options(q.edns.options);
    if (config.loops) config.loops->arrived(q.question.name);
    Ask ask{q.question.name, q.question.type, q.has_edns && (q.edns.flags & 0x8000),
            bool(q.header.flags & dns::kFlagCD),
            std::make_shared<QueryScope>(QueryScope{from.client, config.max_upstream, from.repeats})};
    if (!info.has_option || config.mode != AutopathMode::on) return answer_plainly(config, p, ask);
    autopath::QueryOption option;
    if (autopath::decode_query(value, option) == autopath::QueryDecode::ok)
      return answer_walk(config, p, ask, option);
    info.autopath = autopath::ReplyOption{};  // REJECTED
    return answer_plainly(config, p, ask);
  }
  finish(*p);
}

}  // namespace rk8s::server
