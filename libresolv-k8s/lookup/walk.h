// SPDX-License-Identifier: Apache-2.0
// The classic serial walk, one candidate at a time, with the stop rules of
// the replaced libc (glibc's __res_context_search, musl's
// name_from_dns_search). The autopath rounds (lookup.cc) tell it what the
// server learnt, candidate by candidate, and hand it the plain replies of a
// server that did not walk the list itself.
#pragma once

#include "lookup/lookup.h"

namespace rk8s {

// The replies to one candidate's queries (A and AAAA in that order).
struct CandidateReplies {
  size_t nq = 0;
  Reply reply[2];
  Answer answer[2];
  bool answer_ok[2] = {};  // a reply came back (SERVFAIL, say) and read_answer accepted it
  bool autopath = false;   // sent with the autopath option (an EDNS query)
};

class ClassicWalk {
 public:
  ClassicWalk(const LookupRequest& req, LookupResult& out);

  // Sends candidate i's queries the classic way (no option).
  void query(size_t i, CandidateReplies& r);
  // Takes candidate i's replies; true when the walk is over.
  bool take(size_t i, CandidateReplies& r);
  // Walks candidates from `start` to the end of the plan.
  void run(size_t start);
  // Takes candidate i's replies, sent by someone else, and walks on.
  void resume(size_t i, CandidateReplies& r);
  // Fills `out` with the results of candidate i's replies, as the libc does.
  void collect(size_t i, const CandidateReplies& r);
  // glibc: candidate i failed with `herr` (learnt from an autopath reply).
  void fail(size_t i, Status herr, bool servfail);
  // The candidate after i the walk goes on with (the end: plan size).
  size_t next_after(size_t i) const;
  // No candidate left: the walk's final status.
  void finish();
  // glibc's no-aaaa AAAA walk, which autopath cannot stand in for.
  bool aaaa_as_a() const { return aaaa_as_a_; }

 private:
  bool take_glibc(size_t i, const CandidateReplies& r);
  bool take_musl(size_t i, const CandidateReplies& r);
  bool names_as_is(size_t i) const;

  const LookupRequest req_;
  LookupResult& out_;
  bool aaaa_as_a_ = false;
  bool done_ = false;       // glibc: stop the search list, still try as-is
  bool tried_as_is_ = false;
  bool got_nodata_ = false;
  bool got_servfail_ = false;
  Status saved_ = Status::found;  // glibc: the as-is-first error; found = none
  Status last_ = Status::host_not_found;
};

// glibc's success: a reply of the candidate is NOERROR with answers.
bool positive(const CandidateReplies& r);

// Reads every reply of `r` that came back for candidate name `qname`.
// `sent`: the autopath option they were sent with (null: none).
void read_replies(const Config& conf, const dns::Name& qname, const uint16_t* qtypes,
                  const autopath::QueryOption* sent, CandidateReplies& r);

}  // namespace rk8s
