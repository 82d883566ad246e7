// SPDX-License-Identifier: Apache-2.0
// res_search and res_nsearch as glibc 2.36 answers them: one type, the
// search plan of getaddrinfo (both are __res_context_search), the reply of
// the candidate that had answers into the caller's buffer.
#include "resolve/res_search_pipeline.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>

#include "dns/candidate_reply.h"
#include "resolve/counters.h"

namespace rk8s {
namespace {

int h_errno_of(Status s) {
  switch (s) {
    case Status::no_data: return NO_DATA;
    case Status::try_again: return TRY_AGAIN;
    case Status::no_recovery: return NO_RECOVERY;
    default: return HOST_NOT_FOUND;
  }
}

// The reply glibc would have left in `answer`: the candidate's own, made
// from an autopath reply where the server walked for us. 0 when it does not
// fit, or is not what glibc takes as success.
size_t put_reply(const SearchRequest& req, const Plan& plan, const LookupResult& r) {
  const Config& conf = req.conf;
  uint8_t* answer = req.answer;
  size_t len = r.reply.size;
  if (!r.reply_option) {
    if (len > size_t(req.anslen)) return 0;
    memcpy(answer, r.reply.data, len);
  } else {
    dns::Name candidate;
    if (!candidate_name(conf, plan, r.reply_candidate, candidate)) return 0;
    // The app's own query carried an OPT record only with edns0.
    len = autopath::candidate_reply({r.reply, candidate, r.reply_cname, conf.opt.autopath_code},
                                    conf.opt.edns0, answer, size_t(req.anslen));
    if (len == 0 || (answer[3] & dns::kRcodeMask) != dns::kNoError || load16(answer + 6) == 0)
      return 0;
  }
  answer[3] &= uint8_t(~dns::kFlagAD);  // glibc's mask_ad_bit, without trust-ad
  return len;
}

}  // namespace

int resolve_search(const SearchRequest& req) {
  const Config& conf = req.conf;
  int type = req.type, anslen = req.anslen;
  // Left to libc: another class than IN (the option is IN only), glibc's
  // own AAAA suppression, trust-ad (AD set in its queries), a buffer
  // shorter than a header (res_send's EINVAL).
  if (kLibc != Dialect::glibc || !req.name || req.klass != dns::kClassIN || type < 0 ||
      type > 0xffff || (type == dns::kTypeAAAA && conf.opt.no_aaaa) || conf.opt.trust_ad ||
      anslen < int(dns::kHeaderSize))
    return kLetLibcAnswer;
  errno = 0;
  Plan plan;
  // A plan's own error is nss_dns's host name check, which res_search lacks.
  if (dns_plan_for(req.name, conf, plan, req.trace) != 0) return kLetLibcAnswer;
  uint16_t qtype = uint16_t(type);
  // res_nquery advertises the answer buffer's size, within 512..1200.
  uint16_t edns = anslen < 512 ? 512 : anslen > kGlibcEdnsSize ? kGlibcEdnsSize : uint16_t(anslen);
  LookupResult r;
  dns_lookup({conf, plan, &qtype, 1, req.exchange, edns}, r, req.trace);
  if (r.status == Status::system || r.status == Status::pass_through) return kLetLibcAnswer;
  if (r.reply.size) {
    size_t len = put_reply(req, plan, r);
    if (len == 0) return kLetLibcAnswer;
    count_lookup();
    *req.herr = h_errno_of(r.before);
    return int(len);
  }
  count_lookup();
  *req.herr = h_errno_of(r.status);
  if (r.last_unanswered) errno = ETIMEDOUT;
  return -1;
}

}  // namespace rk8s
