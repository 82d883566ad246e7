// SPDX-License-Identifier: Apache-2.0
#include "server/faults/edns_modes.h"

#include "server/answer/client_query.h"
#include "server/util/dns_text.h"

namespace rk8s::server {
namespace {

// `query` read into `q`, when it carries EDNS options and the handler
// would have read past its own checks of the header, the OPT and the TSIG.
bool carries_options(Bytes query, Query& q) {
  dns::Reader reader(query.data, query.size);
  if (!reader.header(q.header) || q.header.qr()) return false;
  return read_query(reader, q) == dns::kNoError && !q.has_tsig && q.has_edns && q.edns.version == 0 &&
         q.edns.options.size > 0;
}

// FORMERR, without OPT: the header and the question.
void formerr(const HandlerConfig& config, const Query& q, const ReplyFn& reply) {
  std::vector<uint8_t> out(512);
  dns::Writer w(out.data(), out.size());
  w.header(q.header.id, uint16_t(dns::kFlagQR | (q.header.flags & (dns::kOpcodeMask | dns::kFlagRD | dns::kFlagCD)) |
                                 dns::kFormErr));
  w.question(q.question.name, q.question.type, q.question.klass);
  out.resize(w.size());
  QueryInfo info;
  info.has_question = true;
  info.qname = q.question.name;
  info.qtype = q.question.type;
  info.zone = name_text(config.router->zone(q.question.name));
  Bytes value;
  info.has_option = dns::edns_option(q.edns.options, config.option_code, value);
  info.rcode = dns::kFormErr;
  reply(out, info);
}

// The whole options of an OPT's rdata, as the reply's OPT carries them.
std::vector<uint8_t> whole_options(Bytes options) {
  std::vector<uint8_t> out;
  size_t pos = 0;
  dns::EdnsOption o;
  while (dns::edns_next_option(options, pos, o)) {
    uint8_t head[4];
    store16(head, o.code);
    store16(head + 2, uint16_t(o.value.size));
    out.insert(out.end(), head, head + 4);
    out.insert(out.end(), o.value.data, o.value.data + o.value.size);
  }
  return out;
}

// `options` in the reply's OPT, its last record, empty (the handler's with
// autopath off adds none), when the reply stays within `limit`.
void echo(std::vector<uint8_t>& reply, const std::vector<uint8_t>& options, size_t limit) {
  size_t n = reply.size();
  if (n < 12 + 11 || n + options.size() > limit) return;
  uint8_t* opt = reply.data() + n - 11;
  if (opt[0] != 0 || load16(opt + 1) != dns::kTypeOPT || load16(opt + 9) != 0) return;
  store16(opt + 9, uint16_t(options.size()));
  reply.insert(reply.end(), options.begin(), options.end());
}

}  // namespace

Handle edns_mode_handle(EdnsMode mode, const HandlerConfig& config) {
  HandlerConfig off = config;
  off.mode = AutopathMode::off;
  if (mode == EdnsMode::formerr)
    return [off](Bytes query, const QueryFrom& from, ReplyFn reply) {
      Query q;
      if (carries_options(query, q)) return formerr(off, q, reply);
      handle_query(off, query, from, std::move(reply));
    };
  return [off](Bytes query, const QueryFrom& from, ReplyFn reply) {
    Query q;
    if (!carries_options(query, q)) return handle_query(off, query, from, std::move(reply));
    size_t limit = reply_limit(q, from.tcp, off.max_udp_size);
    handle_query(off, query, from,
                 [reply = std::move(reply), options = whole_options(q.edns.options), limit](
                     std::vector<uint8_t>& bytes, const QueryInfo& info) {
                   echo(bytes, options, limit);
                   reply(bytes, info);
                 });
  };
}

}  // namespace rk8s::server
