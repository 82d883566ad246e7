// SPDX-License-Identifier: Apache-2.0
#include "lookup/walk.h"

namespace rk8s {
namespace {

constexpr uint16_t kAsA[] = {dns::kTypeA};

bool replied(const CandidateReplies& r, size_t q) {
  return r.reply[q].status == Reply::ok && r.answer_ok[q];
}

}  // namespace

bool positive(const CandidateReplies& r) {
  for (size_t q = 0; q < r.nq; q++)
    if (replied(r, q) && r.answer[q].rcode == dns::kNoError && r.answer[q].ancount > 0) return true;
  return false;
}

void read_replies(const Config& conf, const dns::Name& qname, const uint16_t* qtypes,
                  const autopath::QueryOption* sent, CandidateReplies& r) {
  for (size_t q = 0; q < r.nq; q++) {
    const Reply& rep = r.reply[q];
    bool came_back = rep.status == Reply::ok || rep.status == Reply::servfail ||
                     rep.status == Reply::refused || rep.status == Reply::notimp ||
                     rep.status == Reply::lame;
    r.answer_ok[q] = came_back && rep.msg &&
                     read_answer(conf, {qname, qtypes[q], sent, r.nq == 1}, Bytes{rep.msg, rep.len},
                                 r.answer[q]);
  }
}

ClassicWalk::ClassicWalk(const LookupRequest& req, LookupResult& out) : req_(req), out_(out) {
  // glibc's no-aaaa asks A instead of AAAA and keeps only the rcode, so a
  // name that exists is NODATA and one that does not is NXDOMAIN.
  aaaa_as_a_ = req.conf.dialect == Dialect::glibc && req.conf.opt.no_aaaa && req.nq == 1 &&
               req.qtypes[0] == dns::kTypeAAAA;
}

void ClassicWalk::query(size_t i, CandidateReplies& r) {
  dns::Name qname;
  candidate_name(req_.conf, req_.plan, i, qname);
  uint8_t buf[2][512];
  Bytes queries[2];
  bool edns0 = req_.conf.dialect == Dialect::glibc && req_.conf.opt.edns0;
  uint16_t edns = edns0 ? req_.glibc_edns : 0;
  const uint16_t* qtypes = aaaa_as_a_ ? kAsA : req_.qtypes;
  if (aaaa_as_a_) edns = 0;
  for (size_t q = 0; q < req_.nq; q++) {
    size_t n = dns::build_query({random_query_id(), qname, qtypes[q], edns}, buf[q], sizeof buf[q]);
    queries[q] = Bytes{buf[q], n};
  }
  r.nq = req_.nq;
  r.autopath = false;
  req_.exchange(req_.conf, queries, r.reply, req_.nq);
  out_.queries += uint16_t(req_.nq);
  out_.classic_queries += uint16_t(req_.nq);
  read_replies(req_.conf, qname, qtypes, nullptr, r);
  if (aaaa_as_a_) r.answer[0].ancount = 0, r.answer[0].addrs.clear();
}

void ClassicWalk::resume(size_t i, CandidateReplies& r) {
  if (!take(i, r)) run(next_after(i));
}

bool ClassicWalk::take(size_t i, CandidateReplies& r) {
  for (size_t q = 0; q < r.nq; q++)
    if (r.reply[q].status == Reply::error) {
      out_.status = Status::system;
      return true;
    }
  return req_.conf.dialect == Dialect::glibc ? take_glibc(i, r) : take_musl(i, r);
}

void ClassicWalk::run(size_t start) {
  for (size_t i = start; i < req_.plan.suffix.count; i = next_after(i)) {
    CandidateReplies r;
    query(i, r);
    if (take(i, r)) return;
  }
  finish();
}

// __res_context_query's verdict on a candidate, then __res_context_search's
// decision whether to go on.
bool ClassicWalk::take_glibc(size_t i, const CandidateReplies& r) {
  if (positive(r)) {
    collect(i, r);
    return true;
  }
  Status herr;
  bool servfail = false;
  bool any = replied(r, 0) || (r.nq == 2 && replied(r, 1));
  out_.last_unanswered = !any;
  if (!any) {
    // res_send failed: every server refused, failed or stayed silent. Its
    // answer buffer holds the first reply that came back, if any: search
    // goes on when that one said SERVFAIL.
    bool refused_everywhere = true;
    for (size_t q = 0; q < r.nq; q++) refused_everywhere &= r.reply[q].status == Reply::conn_refused;
    const Reply& first = r.reply[0].msg || r.nq == 1 ? r.reply[0] : r.reply[1];
    servfail = first.status == Reply::servfail;
    if (refused_everywhere) {
      out_.status = Status::try_again;
      return true;
    }
    herr = Status::try_again;
  } else {
    // hp is the first reply that came back, hp2 the second (or hp again).
    const Answer& hp = replied(r, 0) ? r.answer[0] : r.answer[1];
    const Answer& hp2 = r.nq == 2 && replied(r, 1) ? r.answer[1] : hp;
    switch (hp.rcode == dns::kNoError ? hp2.rcode : hp.rcode) {
      case dns::kNxDomain: herr = Status::host_not_found; break;
      case dns::kServFail: herr = Status::try_again, servfail = hp.rcode == dns::kServFail; break;
      case dns::kNoError: herr = Status::no_data; break;
      default: herr = Status::no_recovery; break;
    }
  }
  fail(i, herr, servfail);
  return false;
}

// __res_context_search after candidate i failed with `herr`: remember it,
// and stop searching on anything but NXDOMAIN, NODATA and SERVFAIL.
void ClassicWalk::fail(size_t i, Status herr, bool servfail) {
  last_ = herr;
  if (names_as_is(i)) tried_as_is_ = true;
  bool as_is = req_.plan.suffix[i] == kAsIs;
  if (as_is && i == 0 && req_.plan.suffix.count > 1) {
    saved_ = herr;
  } else if (!as_is) {
    if (herr == Status::no_data) got_nodata_ = true;
    else if (herr == Status::try_again && servfail) got_servfail_ = true;
    else if (herr != Status::host_not_found) done_ = true;
  }
}

void ClassicWalk::finish() {
  if (req_.conf.dialect == Dialect::musl) return;
  if (saved_ != Status::found) out_.status = saved_;
  else if (got_nodata_) out_.status = Status::no_data;
  else if (got_servfail_) out_.status = Status::try_again;
  else out_.status = last_;
}

// musl's name_from_dns: res_msend accepts only NOERROR and NXDOMAIN, so any
// other rcode is a missing reply, which ends the walk with EAI_AGAIN;
// NXDOMAIN goes on, and a NOERROR reply ends it, addresses or not.
bool ClassicWalk::take_musl(size_t i, const CandidateReplies& r) {
  for (size_t q = 0; q < r.nq; q++) {
    uint8_t rcode = replied(r, q) ? r.answer[q].rcode : uint8_t(dns::kServFail);
    if (rcode != dns::kNoError && rcode != dns::kNxDomain) {
      out_.status = Status::try_again;
      return true;
    }
    if (rcode == dns::kNxDomain) {
      out_.status = Status::host_not_found;
      return false;
    }
  }
  collect(i, r);
  return true;
}

// Whether candidate i is the name as typed: as-is, or a "." search domain.
bool ClassicWalk::names_as_is(size_t i) const {
  return req_.plan.suffix[i] == kAsIs || req_.conf.search(req_.plan.suffix[i]) == Str{".", 1};
}

// After a glibc "done" the rest of the search list is skipped, but the name
// as typed is still tried unless it already was (tried_as_is, root_on_list);
// with no-tld-query a dotless name never is.
size_t ClassicWalk::next_after(size_t i) const {
  size_t end = req_.plan.suffix.count;
  if (!done_) return i + 1;
  if (tried_as_is_ || (req_.conf.opt.no_tld_query && name_label_count(req_.plan.base) <= 1))
    return end;
  for (size_t j = i + 1; j < end; j++)
    if (names_as_is(j)) return j;
  return end;
}

void ClassicWalk::collect(size_t i, const CandidateReplies& r) {
  out_.addrs.clear();
  bool have_canon = false;
  bool musl = req_.conf.dialect == Dialect::musl;
  // musl reads the replies A first, AAAA first from 1.2.4 on (8c408937).
  bool aaaa_first = musl && req_.conf.release >= release(1, 2, 4);
  for (size_t k = 0; k < r.nq; k++) {
    size_t q = aaaa_first ? r.nq - 1 - k : k;
    if (!replied(r, q)) continue;
    const Answer& a = r.answer[q];
    // glibc's gaih_getanswer reads no further than a first reply whose
    // answer section breaks off; of a second one it keeps the addresses
    // read before the break, once the first gave some.
    if (a.bad_answers && out_.addrs.count == 0 && req_.conf.dialect == Dialect::glibc) break;
    if (a.overflow) {
      out_.status = Status::pass_through;
      return;
    }
    size_t cap = musl ? kMuslMaxAddresses : kMaxAddresses;
    for (const IpAddr& addr : a.addrs)
      if (out_.addrs.count < cap) out_.addrs.push(addr);
    // glibc keeps the name of the first reply with addresses; musl lets
    // every CNAME it reads overwrite the name: the last reply's wins.
    bool take_canon = musl ? a.has_canon : a.has_canon && a.addrs.count > 0 && !have_canon;
    if (!take_canon) continue;
    out_.canon = a.canon, have_canon = true;
    dns::Name candidate;
    bool synthesized = a.has_option && a.option.status == autopath::kMatched && a.option.index > 0;
    out_.canon_from_cname =
        musl && !(synthesized && candidate_name(req_.conf, req_.plan, i, candidate) &&
                  dns::name_equal(candidate, a.canon));
  }
  if (!have_canon) candidate_name(req_.conf, req_.plan, i, out_.canon);
  // musl: NOERROR without addresses is NODATA, EAI_NONAME before 1.2.4.
  out_.status = out_.addrs.count ? Status::found
                : musl            ? Status::no_data
                                  : Status::host_not_found;
  out_.empty_answer = out_.addrs.count == 0;
  if (replied(r, 0)) {
    out_.aliases = r.answer[0].aliases;
    const autopath::ReplyOption& o = r.answer[0].option;
    bool synthesized = r.answer[0].has_option && o.status == autopath::kMatched && o.index > 0;
    if (synthesized) out_.aliases.drop_first();
    if (req_.nq == 1) {
      out_.reply = Bytes{r.reply[0].msg, r.reply[0].len};
      out_.reply_candidate = uint8_t(i);
      out_.reply_option = r.autopath;
      out_.reply_cname = synthesized;
      out_.before = last_;
    }
  }
}

}  // namespace rk8s
