// SPDX-License-Identifier: Apache-2.0
// Differential, end to end, musl side: musl's getaddrinfo (the libc of this
// static driver: the machine's 1.2.3, or trixie's 1.2.5 where mk/libcs.mk
// defines RK8S_MUSL_RELEASE) against our resolve_addrinfo built for musl, with
// the real transport, on the dns_glibc_diff corpus and mutations of it
// (fdiff::replay_main). musl's transport is answered in process
// (__res_msend_rc below); ours goes over the network namespace's loopback
// to the same responder. The server is always the raw one: the companion
// server is C++ on glibc's libstdc++ and cannot be linked here, so inputs
// naming an autopath mode meet a server without autopath.
#include "fuzz/diff/harness.h"
#include "lookup/answer_musl.h"
#include "resolve/addrinfo.h"
#include "util/release.h"

using namespace rk8s;

#ifndef RK8S_MUSL_RELEASE
#define RK8S_MUSL_RELEASE reference_release(Dialect::musl)
#endif

namespace {

constexpr uint32_t kMusl = RK8S_MUSL_RELEASE;
// 1.2.4 asks again over TCP, reads records exactly and walks past a
// candidate res_mkquery refuses: three of the README's differences are gone.
constexpr bool kFrom124 = kMusl >= release(1, 2, 4);

// A candidate written with two final dots (a search domain "." or "x..").
bool searches_two_dots(const fdiff::DnsInput& in) {
  for (size_t i = 0; i < in.conf.search_count(); i++) {
    Str d = in.conf.search(i);
    if (d == str(".") || (d.size >= 2 && d.data[d.size - 2] == '.' && d.data[d.size - 1] == '.'))
      return true;
  }
  return false;
}

const fdiff::DnsInput* input;
// A UDP reply to this input ran past musl's 512-byte buffer (padded_answer).
bool past_end;
// musl read a CNAME target past the end of a reply (musl_reads_past).
bool cname_past_end;

// README "What differs from musl, and why", and "Calls the library hands
// to libc whole": the only differences tolerated, each by its words.
const struct {
  const char* readme;
  bool (*applies)();
} kExceptions[] = {
    {"a resolv.conf line over 255 bytes is read; musl skips it",
     [] { return bool(input->conf.warnings & kWarnLongLine); }},
    {"answers over 512 bytes are retried over TCP; musl has no TCP fallback",
     [] { return !kFrom124 && fdiff::udp_over_512(); }},
    {"a record running past the end of a reply ends the answers; musl reads on into stale bytes "
     "of its buffer",
     [] { return past_end; }},
    {"a search domain `.` (or one ending in two dots): musl sends a malformed query; we answer "
     "EAI_NONAME",
     [] { return !kFrom124 && fdiff::our_gai_rc == EAI_NONAME && searches_two_dots(*input); }},
    {"a CNAME target is expanded within musl's 512-byte buffer, so it may point past the reply "
     "into stale bytes",
     [] { return cname_past_end; }},
    {"a call the library hands to libc whole",
     [] { return fdiff::our_gai_rc == kLetLibcAnswer; }},
    {"a search domain of the marker's shape is not asked", [] { return fdiff::has_marker_domain(input->conf); }},
};

// The query IDs our side used, by question (the last for each): musl's
// replies are given the same (musl_reply_id), so that a name read out of a
// reply's header (a pointer to offset 0) is the same bytes on both sides,
// not two random IDs. musl looks at the ID only to match the reply, which
// the stand-in for its transport below does with musl's own.
struct AskedId {
  uint8_t question[dns::kMaxName + 4];
  size_t len;
  uint8_t id[2];
};
FixedVec<AskedId, 64> our_ids;
SpinLock our_ids_lock;  // the responder's thread adds, the main thread reads

// The question of a query: its name's wire bytes, type and class.
Bytes question_of(Bytes query) {
  size_t p = dns::kHeaderSize;
  while (p < query.size && query.data[p] && query.data[p] < 64) p += query.data[p] + 1u;
  if (p + 5 > query.size || p - dns::kHeaderSize + 5 > dns::kMaxName + 4) return Bytes{};
  return Bytes{query.data + dns::kHeaderSize, p + 5 - dns::kHeaderSize};
}

void note_our_id(Bytes query) {
  Bytes q = question_of(query);
  if (!q.size) return;
  our_ids_lock.lock();
  AskedId* slot = nullptr;
  for (AskedId& a : our_ids)
    if (a.len == q.size && memcmp(a.question, q.data, q.size) == 0) slot = &a;
  if (!slot && our_ids.push(AskedId{})) slot = &our_ids[our_ids.count - 1];
  if (slot) {
    memcpy(slot->question, q.data, q.size);
    slot->len = q.size;
    memcpy(slot->id, query.data, 2);
  }
  our_ids_lock.unlock();
}

// Our ID for the question of musl's `query` into `reply`, if we asked it.
void musl_reply_id(Bytes query, uint8_t* reply) {
  Bytes q = question_of(query);
  our_ids_lock.lock();
  for (const AskedId& a : our_ids)
    if (q.size && a.len == q.size && memcmp(a.question, q.data, q.size) == 0) memcpy(reply, a.id, 2);
  our_ids_lock.unlock();
}

void run_one(const uint8_t* data, size_t size) {
  static fdiff::DnsInput in;
  if (!fdiff::load_dns_input(Bytes{data, size}, in)) return;
  input = &in;
  past_end = cname_past_end = false;
  our_ids_lock.lock();
  our_ids.clear();
  our_ids_lock.unlock();
  // Ours first: musl's replies then carry our IDs.
  char* ours = fdiff::text_of(
      [](FILE* f) { print_case(f, &in.call, fdiff::our_getaddrinfo, fdiff::our_freeaddrinfo); });
  char* libc = fdiff::text_of([](FILE* f) { print_case(f, &in.call, getaddrinfo, freeaddrinfo); });
  bool same = strcmp(libc, ours) == 0;
  for (const auto& e : kExceptions)
    if (!same && e.applies()) {
      fdiff::tolerate(e.readme);
      same = true;
    }
  if (!same) fdiff::diverged("getaddrinfo (musl)", libc, ours);
  free(libc);
  free(ours);
}

// The raw answer; before 1.2.4 one with a record running past its end
// (which musl reads on into stale bytes of its buffer) padded with zero
// bytes to the size of that buffer, so that both sides read the same bytes.
// What still runs past is tolerated.
size_t padded_answer(Bytes query, bool tcp, uint8_t* out, size_t cap) {
  size_t n = fdiff::raw_answer(query, tcp, out, cap);
  if (kFrom124) return n;
  Answer musl;
  uint16_t qtype = load16(query.data + query.size - 4);  // musl's queries end with the question
  if (n == 0 || n > 512 || cap < 512 || read_musl_answers(Bytes{out, n}, qtype, kMusl, musl)) return n;
  memset(out + n, 0, 512 - n);
  if (!tcp) past_end |= !read_musl_answers(Bytes{out, 512}, qtype, kMusl, musl);
  return 512;
}

// The responder's answer to our side's queries.
size_t answer_ours(Bytes query, bool tcp, uint8_t* out, size_t cap) {
  note_our_id(query);
  return padded_answer(query, tcp, out, cap);
}

}  // namespace

// Before 1.2.4, musl expands a CNAME's target within its whole 512-byte
// buffer (dns_parse_callback passes packet + 512 as the end): a target that
// runs past the reply's `n` bytes is made of bytes no reply wrote there, in
// a buffer on musl's stack (the finding dns_musl_diff-59a9ad2a: an empty
// CNAME whose one byte, the reply's last, is a pointer, its second byte the
// first past the end; through it, a name read from the header's random ID).
// True when what musl reads of `buf` depends on the bytes past `n`, which
// the caller zeroed so that musl reads the same on every run.
bool musl_reads_past(const uint8_t* buf, size_t n, uint16_t qtype) {
  Answer within, whole;
  read_musl_answers(Bytes{buf, n}, qtype, kMusl, within);
  read_musl_answers(Bytes{buf, 512}, qtype, kMusl, whole);
  if (within.has_canon != whole.has_canon || within.addrs.count != whole.addrs.count) return true;
  if (within.has_canon && (within.canon.len != whole.canon.len ||
                           memcmp(within.canon.wire, whole.canon.wire, within.canon.len) != 0))
    return true;
  for (size_t i = 0; i < within.addrs.count; i++)
    if (!same_ip(within.addrs[i], whole.addrs[i])) return true;
  return false;
}

// musl 1.2.3's __res_msend_rc (res_msend.c), in place of libc.a's where
// musl's lookups call it (mk/fuzz-diff.mk links with --wrap):
// the same choice of replies, from this process's responder, with neither
// sockets nor the wait for a reply that never comes, which musl spends its
// whole timeout on (the driver ran at about 5 inputs a second). musl takes
// a reply of 4 bytes or more with the query's ID, cut to its buffer, whose
// rcode is NOERROR or NXDOMAIN; SERVFAIL is asked again, and answered the
// same, until musl gives up on it; any other rcode is ignored. Every
// question without such a reply is unanswered (alens 0), as when musl's
// timeout ends. From 1.2.4 on a reply with TC, or larger than the buffer,
// is asked again over TCP, and a TCP reply musl cannot take ends the whole
// exchange unanswered (51d4669f); one it takes counts at its full length.
// musl's buffer past the reply holds whatever its stack held before; here
// zeros, the same on every run (musl_reads_past).
extern "C" int __wrap___res_msend_rc(int nqueries, const unsigned char* const* queries, const int* qlens,
                              unsigned char* const* answers, int* alens, int asize, const void*) {
  static uint8_t reply[65536];
  auto taken = [&](size_t n, size_t min, int i) {
    uint8_t rcode = n >= 4 ? reply[3] & 15 : 0xff;
    return n >= min && memcmp(reply, queries[i], 2) == 0 && (rcode == 0 || rcode == 3);
  };
  for (int i = 0; i < nqueries; i++) alens[i] = 0;
  for (int i = 0; i < nqueries; i++) {
    Bytes query{queries[i], size_t(qlens[i])};
    size_t n = padded_answer(query, false, reply, sizeof reply);
    if (!taken(n, 4, i)) continue;
    size_t len = n;
    if (kFrom124 && ((reply[2] & 0x02) || n > size_t(asize))) {
      len = n = fdiff::raw_answer(query, true, reply, sizeof reply);
      if (!taken(n, 13, i)) {
        for (int j = 0; j < nqueries; j++) alens[j] = 0;
        return 0;
      }
    }
    if (n > size_t(asize)) n = size_t(asize);
    musl_reply_id(query, reply);
    memcpy(answers[i], reply, n);
    memset(answers[i] + n, 0, size_t(asize) - n);
    if (!kFrom124 && size_t(asize) >= 512)
      cname_past_end |= musl_reads_past(answers[i], n, load16(query.data + query.size - 4));
    alens[i] = int(kFrom124 ? len : n);
  }
  return 0;
}

int main(int argc, char** argv) {
  set_libc_release(kMusl);
  fdiff::enter_sandbox(fdiff::kNet);
  fdiff::serve(answer_ours);
  return fdiff::replay_main(argc, argv, run_one);
}
