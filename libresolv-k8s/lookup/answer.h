// SPDX-License-Identifier: Apache-2.0
// What one DNS reply says about one candidate name, read the way the
// replaced libc reads it (glibc's nss_dns, musl's name_from_dns).
#pragma once

#include "dns/autopath.h"
#include "conf/resolv_conf.h"
#include "dns/wire.h"

namespace rk8s {

constexpr size_t kMaxAddresses = 128;  // glibc has no limit: beyond this we pass through
constexpr size_t kMuslMaxAddresses = 48;

using AddressList = FixedVec<IpAddr, kMaxAddresses>;

// glibc's h_aliases material (getanswer_r): the question name, then every
// CNAME target in answer order, as text; glibc keeps the host names only.
struct AliasNames {
  char text[1024];  // the names at `at`, each NUL-terminated; the rest unused
  FixedVec<uint16_t, 17> at;
  uint32_t host_name = 0;  // bit i: name i is a host name
  bool overflow = false;   // more than we hold

  AliasNames() {}
  // Copies the names in use, not the whole of `text`.
  AliasNames(const AliasNames& o) { *this = o; }
  AliasNames& operator=(const AliasNames& o);
  size_t used() const;

  void add(const dns::Name& n, bool is_host_name);
  void drop_first();  // an autopath reply's question name, before its CNAME
  const char* operator[](size_t i) const { return text + at[i]; }
};

struct Answer {
  uint8_t rcode = 0;
  uint16_t ancount = 0;
  bool has_canon = false;        // `canon` was found in this reply
  dns::Name canon;               // glibc: final CNAME target; musl: last CNAME target
  AddressList addrs;             // records of the question's type, in answer order
  bool overflow = false;         // more addresses than we hold
  bool has_option = false;       // a valid autopath reply option (decode_reply)
  autopath::ReplyOption option;
  AddressList both_aaaa;         // BOTH: AAAA records of the matched name (additional)
  AliasNames aliases;            // glibc only
  bool bad_answers = false;      // glibc: the answer section broke off after
                                 // `addrs` from it
  bool has_qname_cname = false;  // the first answer is a CNAME at the question name
  dns::Name qname_cname;         // its target (autopath: the matched candidate)
};

// The query a reply is read against: the name and type asked, the autopath
// option it carried under conf's code (null: none), and whether its type
// was asked alone or beside the other address type.
struct SentQuery {
  const dns::Name& qname;
  uint16_t qtype;
  const autopath::QueryOption* option;
  bool alone;
};

// Reads `msg`, the reply to `asked`. False when its header or question is
// malformed or not ours (glibc and musl drop those replies too); records
// that break off are noted, as the libcs read them. glibc skips answers of
// another class than IN to a type asked alone (getanswer_r); its
// gaih_getanswer (A and AAAA) and musl read them.
bool read_answer(const Config& conf, const SentQuery& asked, Bytes msg, Answer& out);

}  // namespace rk8s
