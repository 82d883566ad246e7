#include "server/answer/handler.h"

#include <algorithm>

namespace rk8s::server {

namespace {

struct Query {
  dns::Header header;
  dns::Question question;
  bool has_question = false;
  bool has_edns = false;
  dns::Edns edns;
};

struct Response {
  uint8_t rcode = dns::kNoError;
  bool authoritative = false;
  std::optional<Rr> alias;  // written first, owned by the query name
  std::vector<RrRef> answer, authority, additional;
  bool opt = false;
  std::vector<dns::EdnsOption> options;
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

std::vector<dns::EdnsOption> all_options(Bytes options) {
  std::vector<dns::EdnsOption> out;
  size_t pos = 0;
  dns::EdnsOption o;
  while (dns::edns_next_option(options, pos, o)) out.push_back(o);
  return out;
}

void fill_response(Response& r, const Resolution& res) {
  r.rcode = res.rcode;
  r.authoritative = res.authoritative;
  r.answer.insert(r.answer.end(), res.records.begin(), res.records.end());
  if (res.soa) r.authority.push_back(*res.soa);
}

size_t encode(const Query& q, const Response& r, size_t limit, uint8_t* out, size_t cap) {
  dns::Writer w(out, std::min(cap, limit));
  uint16_t flags = dns::kFlagQR | (q.header.flags & (dns::kOpcodeMask | dns::kFlagRD | dns::kFlagCD));
  if (r.authoritative) flags |= dns::kFlagAA;
  w.header(q.header.id, uint16_t(flags | (r.rcode & dns::kRcodeMask)));
  if (q.has_question) w.question(q.question.name, q.question.type, q.question.klass);
  size_t opt_size = 11;
  for (const dns::EdnsOption& o : r.options) opt_size += 4 + o.value.size;
  if (r.opt) w.reserve(opt_size);
  if (r.alias) write_rr(w, dns::kAnswer, q.question.name, *r.alias);
  for (const RrRef& x : r.answer) write_rr(w, dns::kAnswer, x.owner, *x.rr);
  for (const RrRef& x : r.authority) write_rr(w, dns::kAuthority, x.owner, *x.rr);
  for (const RrRef& x : r.additional) write_rr(w, dns::kAdditional, x.owner, *x.rr);
  if (r.opt) {
    w.release(opt_size);
    w.opt(dns::kEdnsUdpSize, uint8_t(r.rcode >> 4), 0, r.options.data(), r.options.size());
  }
  return w.size();
}

}  // namespace

size_t handle_query(const HandlerConfig& config, Bytes query, bool tcp, uint8_t* out,
                    size_t cap, QueryInfo& info) {
  dns::Reader reader(query.data, query.size);
  Query q;
  if (!reader.header(q.header) || q.header.qr()) return 0;

  Response r;
  uint8_t rcode;
  bool good = read_query(reader, q, rcode);
  info.has_question = q.has_question;
  info.qname = q.question.name;
  info.qtype = q.question.type;
  r.opt = q.has_edns;
  size_t limit = tcp ? 65535 : q.has_edns ? std::max<size_t>(512, q.edns.udp_size) : 512;

  Bytes value;
  bool has_option = q.has_edns && dns::edns_option(q.edns.options, config.option_code, value);
  info.has_option = has_option;
  autopath::ReplyOption reply_option;
  uint8_t option_bytes[4];

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
    AutopathWalk w;
    autopath::QueryOption option;
    bool use_walk = false;
    if (has_option && config.mode == AutopathMode::on) {
      if (autopath::decode_query(value, option) == autopath::QueryDecode::ok) {
        w = walk_candidates(*config.store, *config.faults, q.question.name, q.question.type,
                            option);
        use_walk = w.option.status != autopath::kRejected;
      }
      reply_option = w.option;
      info.autopath = w.option;
      info.walked = w.walked;
    }
    if (use_walk) {
      if (w.drop) {
        info.dropped = true;
        return 0;
      }
      r.alias = w.alias;
      fill_response(r, w.resolution);
      r.additional = w.additional;
    } else {
      std::optional<Resolution> res =
          resolve(*config.store, *config.faults, q.question.name, q.question.type);
      if (!res) {
        info.dropped = true;
        return 0;
      }
      fill_response(r, *res);
    }
    if (info.autopath) {
      size_t n = autopath::encode_reply(reply_option, option_bytes, sizeof option_bytes);
      r.options.push_back({config.option_code, Bytes{option_bytes, n}});
    } else if (config.mode == AutopathMode::echo && q.has_edns) {
      r.options = all_options(q.edns.options);
    }
  }
  info.rcode = r.rcode;
  return encode(q, r, limit, out, cap);
}

}  // namespace rk8s::server
