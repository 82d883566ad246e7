// SPDX-License-Identifier: Apache-2.0
#include "lookup/lookup.h"

#include "lookup/support.h"
#include "lookup/walk.h"

namespace rk8s {
namespace {

constexpr size_t kQueryBytes = 4608;

// One autopath query: the round's first candidate as QNAME, the rest of the
// plan's suffixes in the option.
struct AutopathQuery {
  dns::Name qname;
  autopath::QueryOption option;
  uint8_t payload[4096];
  size_t payload_len = 0;
  uint8_t bytes[2][kQueryBytes];
};

// The same request for its type q alone.
LookupRequest one_type(const LookupRequest& req, size_t q) {
  LookupRequest one = req;
  one.qtypes += q;
  one.nq = 1;
  return one;
}

void send_autopath(const LookupRequest& req, AutopathQuery& aq, uint8_t flags, CandidateReplies& r,
                   LookupResult& out) {
  aq.option.flags = flags;
  aq.payload_len = autopath::encode_query(aq.option, aq.payload, sizeof aq.payload);
  dns::EdnsOption opt{req.conf.opt.autopath_code, Bytes{aq.payload, aq.payload_len}};
  Bytes queries[2];
  for (size_t q = 0; q < req.nq; q++) {
    size_t n = dns::build_query(
        {random_query_id(), aq.qname, req.qtypes[q], dns::kEdnsUdpSize, &opt, 1}, aq.bytes[q],
        kQueryBytes);
    queries[q] = Bytes{aq.bytes[q], n};
  }
  r.nq = req.nq;
  r.autopath = true;
  req.exchange(req.conf, queries, r.reply, req.nq);
  out.queries += uint16_t(req.nq);
  read_replies(req.conf, aq.qname, req.qtypes, &aq.option, r);
}

// Joins the AAAA reply, sent on its own, to the A reply before it.
void add_second(CandidateReplies& r, const CandidateReplies& aaaa) {
  r.nq = 2;
  r.reply[1] = aaaa.reply[0];
  r.answer[1] = aaaa.answer[0];
  r.answer_ok[1] = aaaa.answer_ok[0];
}

bool has_option(const CandidateReplies& r, size_t q) {
  return r.answer_ok[q] && r.answer[q].has_option;
}

// The AAAA half of a BOTH reply, as if it had come back on its own.
void split_both(CandidateReplies& r) {
  r.nq = 2;
  r.reply[1] = r.reply[0];
  r.answer_ok[1] = true;
  Answer& aaaa = r.answer[1];
  const Answer& a = r.answer[0];
  aaaa = Answer{};
  aaaa.rcode = dns::kNoError;
  // Counted as a reply of its own would count: the synthesized CNAME too.
  aaaa.ancount = uint16_t(a.both_aaaa.count + (a.option.index > 0));
  aaaa.addrs = a.both_aaaa;
  aaaa.canon = a.canon;
  aaaa.has_canon = a.has_canon;
  aaaa.has_option = true;
  aaaa.option = a.option;
}

void remember_from(const Config& conf, const CandidateReplies& r, Support s) {
  for (size_t q = 0; q < r.nq; q++)
    if (r.answer_ok[q] && r.reply[q].server < conf.ns.count) {
      remember_support(conf.ns[r.reply[q].server], s);
      return;
    }
}

// A MATCHED reply for a later candidate must begin with QNAME CNAME that
// candidate: anything else is not a reply option to trust.
bool matches_named(const LookupRequest& req, size_t start, const CandidateReplies& r) {
  for (size_t q = 0; q < r.nq; q++) {
    const Answer& a = r.answer[q];
    if (a.option.status != autopath::kMatched || a.option.index == 0) continue;
    dns::Name candidate;
    if (!candidate_name(req.conf, req.plan, start + a.option.index, candidate) ||
        !a.has_qname_cname || !dns::name_equal(a.qname_cname, candidate))
      return false;
  }
  return true;
}

// Where the lookup goes after one autopath query.
struct Next {
  bool done;      // the lookup is over
  size_t at;      // else the candidate to go on with
  bool classic;   // and whether only the classic walk can
};
constexpr Next kDone{true, 0, false};

// The server walked candidates start.. itself: every reply carries a valid
// reply option. Candidates it skipped were NXDOMAIN to it, but for the
// first NODATA one it reports (PAST_NODATA); without PAST_NODATA only
// candidate `start` can be NODATA, in an EXHAUSTED reply.
Next take_verdict(const LookupRequest& req, size_t start, CandidateReplies& r, ClassicWalk& walk,
                  LookupResult& out) {
  const autopath::ReplyOption& first = r.answer[0].option;
  uint8_t status = first.status, index = first.index, nodata = first.nodata;
  bool agree = true;
  for (size_t q = 1; q < r.nq; q++) {
    const autopath::ReplyOption& o = r.answer[q].option;
    if (o.status != status) status = autopath::kRejected;
    if (o.index != index) agree = false;
    index = o.index < index ? o.index : index;
    nodata = o.nodata < nodata ? o.nodata : nodata;
  }
  if (!(first.flags & autopath::kFlagPastNodata) && status == autopath::kExhausted &&
      r.answer[0].rcode == dns::kNoError)
    nodata = 0;
  auto skipped = [&](size_t j) {
    return j - start == nodata ? Status::no_data : Status::host_not_found;
  };
  size_t n = req.plan.suffix.count;
  bool musl = req.conf.dialect == Dialect::musl;
  switch (status) {
    case autopath::kMatched: {
      out.autopath_answered = true;
      out.classic_queries += uint16_t((index + 1) * req.nq);
      size_t at = start + index;
      for (size_t j = start; j < at; j++) walk.fail(j, skipped(j), false);
      if (!agree) {
        // Two replicas saw different data: the lower candidate, asked
        // plainly, so results come from one candidate only.
        CandidateReplies again;
        walk.query(at, again);
        walk.resume(at, again);
        return kDone;
      }
      if (index > 0)  // the synthesized CNAME is not the candidate's answer
        for (size_t q = 0; q < r.nq; q++) r.answer[q].ancount -= r.answer[q].ancount > 0;
      // A server that honoured PAST_NODATA matched a candidate with answers,
      // even where none reached us (a BOTH reply carries AAAA records only).
      if (musl || (first.flags & autopath::kFlagPastNodata) || positive(r)) {
        walk.collect(at, r);
        return kDone;
      }
      // NODATA (a server that ignored PAST_NODATA): glibc remembers it and
      // walks on.
      walk.fail(at, Status::no_data, false);
      return Next{false, walk.next_after(at), false};
    }
    case autopath::kExhausted:
      out.autopath_answered = true;
      out.classic_queries += uint16_t((n - start) * req.nq);
      if (musl) {
        out.status = Status::host_not_found;
        return kDone;
      }
      for (size_t j = start; j < n; j++) walk.fail(j, skipped(j), false);
      walk.finish();
      return kDone;
    case autopath::kServfailSeen:
      if (musl) {
        out.autopath_answered = true;
        out.classic_queries += uint16_t((n - start) * req.nq);
        out.status = Status::try_again;
        return kDone;
      }
      // glibc's verdict depends on where the failure was and on what came
      // after it: only the classic walk can tell.
      out.fell_back = true;
      return Next{false, start, true};
    default:
      out.fell_back = true;
      return Next{false, start, true};
  }
}

// One autopath query for candidates start..: QNAME is candidate `start`.
Next autopath_round(const LookupRequest& req, size_t start, ClassicWalk& walk, LookupResult& out) {
  Support support = server_support(req.conf.ns[0]);
  if (support == Support::no || support == Support::formerr) return Next{false, start, true};
  // Once the server has shown support, A and AAAA go as one query (BOTH),
  // a single candidate too.
  bool both = req.nq == 2 && support == Support::yes;
  uint8_t flags = autopath_flags(req.conf.dialect, req.nq) | (both ? autopath::kFlagBoth : 0);
  Plan rest = req.plan;
  rest.suffix.clear();
  for (size_t j = start; j < req.plan.suffix.count; j++) rest.suffix.push(req.plan.suffix[j]);
  AutopathQuery aq;
  if (!autopath_query(req.conf, rest, flags, aq.qname, aq.option) ||
      autopath::encode_query(aq.option, aq.payload, sizeof aq.payload) == 0)
    return Next{false, start, true};

  CandidateReplies r;
  send_autopath(both ? one_type(req, 0) : req, aq, flags, r, out);
  for (size_t q = 0; q < r.nq; q++)
    if (r.answer_ok[q] && r.answer[q].rcode == dns::kFormErr && !r.answer[q].has_option) {
      remember_from(req.conf, r, Support::formerr);
      out.fell_back = true;
      return Next{false, start, true};
    }
  size_t with_option = 0, rejected = 0;
  for (size_t q = 0; q < r.nq; q++) {
    with_option += has_option(r, q);
    rejected += has_option(r, q) && r.answer[q].option.status == autopath::kRejected;
  }
  if (with_option == r.nq && !matches_named(req, start, r)) {
    out.fell_back = true;  // not what a real implementation sends
    return Next{false, start, true};
  }
  if (with_option == r.nq && rejected == 0) {
    remember_from(req.conf, r, Support::yes);
    bool matched = r.answer[0].option.status == autopath::kMatched;
    if (both && matched && (r.answer[0].option.flags & autopath::kFlagBoth)) {
      split_both(r);
    } else if (both && matched) {
      // BOTH not honoured: the AAAA question is still open. (A PAIRED walk
      // that ended without a match speaks for both families.)
      CandidateReplies aaaa;
      send_autopath(one_type(req, 1), aq, flags & ~autopath::kFlagBoth, aaaa, out);
      if (!has_option(aaaa, 0)) {
        out.fell_back = true;
        return Next{false, start, true};
      }
      add_second(r, aaaa);
    }
    return take_verdict(req, start, r, walk, out);
  }
  out.fell_back = true;
  if (with_option > rejected) return Next{false, start, true};  // replicas disagree
  // A plain answer for candidate `start` (from a server without support, or
  // one that rejected the option): final when positive, else the walk goes
  // on after it.
  if (rejected == 0) remember_from(req.conf, r, Support::no);
  // A plain answer to BOTH is the A half alone, but glibc judges a candidate
  // by its pair (a failed or truncated half decides with the other): the
  // pair afresh. Once for a server that lost support (now remembered);
  // a rejecting server's A half stands unless it failed.
  if (both && r.answer_ok[0] && (rejected == 0 || r.reply[0].status != Reply::ok)) {
    walk.query(start, r);
  } else {
    out.classic_queries += uint16_t(r.nq);
    if (both) {
      ClassicWalk aaaa_walk(one_type(req, 1), out);
      CandidateReplies aaaa;
      aaaa_walk.query(start, aaaa);
      add_second(r, aaaa);
    }
  }
  walk.resume(start, r);
  return kDone;
}

}  // namespace

// The protocol's client side: one query per family (one in all once the
// server has shown support), again after each NODATA glibc walks past, and
// the classic walk wherever the server did not walk the plan itself.
void lookup(const LookupRequest& req, LookupResult& out) {
  out = LookupResult{};
  ClassicWalk walk(req, out);
  size_t at = 0;
  if (req.conf.opt.autopath && !walk.aaaa_as_a()) {
    while (at < req.plan.suffix.count) {
      Next next = autopath_round(req, at, walk, out);
      if (next.done) return;
      at = next.at;
      if (next.classic) break;
    }
  }
  walk.run(at);
}

}  // namespace rk8s
