// SPDX-License-Identifier: Apache-2.0
// One name, one or two query types: the autopath query first, then the
// classic serial walk of the replaced libc wherever autopath cannot answer.
#pragma once

#include "lookup/answer.h"
#include "plan/plan.h"
#include "transport/exchange.h"

namespace rk8s {

// How a lookup ended, in glibc's h_errno vocabulary; musl's EAI codes map
// onto it (EAI_NONAME = host_not_found, EAI_FAIL = no_recovery).
enum class Status : uint8_t {
  found,
  host_not_found,
  no_data,
  try_again,
  no_recovery,
  system,       // the transport could not run (descriptors exhausted, ...)
  pass_through, // beyond what we hold: let libc answer the whole call
};

struct LookupResult {
  Status status = Status::host_not_found;
  AddressList addrs;  // the libc's order before sorting
  dns::Name canon;
  // musl: a CNAME named `canon` (not autopath's own, to the candidate):
  // then written as dn_expand writes it, else as the candidate was typed.
  bool canon_from_cname = false;
  // glibc's gethostbyname3_r reads more of the walk: the reply's names, a
  // reply that ended the walk with answers but no address (NO_RECOVERY),
  // and whether the last query went unanswered (errno then ETIMEDOUT).
  AliasNames aliases;
  bool empty_answer = false;
  bool last_unanswered = false;
  // A walk of one query type that ended on a reply with answers (glibc's
  // success): that reply, valid until the next exchange on this thread, and
  // its candidate. The reply to an autopath query (`reply_option`) still
  // has the OPT record and the option in it, and begins with the
  // synthesized CNAME (`reply_cname`) when it matched a later candidate than
  // its QNAME. `before`: what the last
  // candidate that failed before it said (res_search leaves it in h_errno).
  Bytes reply;
  uint8_t reply_candidate = 0;
  bool reply_option = false;
  bool reply_cname = false;
  Status before = Status::host_not_found;
  // What it cost, against what the classic walk would have cost.
  uint16_t queries = 0;
  uint16_t classic_queries = 0;
  bool autopath_answered = false;
  bool fell_back = false;  // the server showed no support, or failed us
};

// The transport, as a parameter so tests can stand in a fake server.
using ExchangeFn = void (*)(const Config& conf, const Bytes* queries, Reply* replies, size_t n);

// What glibc's classic queries advertise with `edns0`: nss_dns's
// RESOLV_EDNS_BUFFER_SIZE; res_search advertises its answer buffer's size.
constexpr uint16_t kGlibcEdnsSize = 1200;

// What one lookup asks, and of whom.
struct LookupRequest {
  const Config& conf;
  const Plan& plan;
  // {A}, {AAAA} or {A, AAAA} (AF_UNSPEC: sent together, a candidate
  // matches on either), or any one type (glibc's res_search).
  const uint16_t* qtypes;
  size_t nq;
  ExchangeFn exchange;
  uint16_t glibc_edns = kGlibcEdnsSize;
};

void lookup(const LookupRequest& req, LookupResult& out);

}  // namespace rk8s
