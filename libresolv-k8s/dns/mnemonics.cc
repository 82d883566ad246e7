// SPDX-License-Identifier: Apache-2.0
// Mnemonics of the type and rcode codes we print and read.
#include "dns/wire.h"
#include "util/text.h"

namespace rk8s::dns {
namespace {

struct Mnemonic {
  uint16_t code;
  const char* name;
};

constexpr Mnemonic kTypes[] = {
    {kTypeA, "A"},     {kTypeNS, "NS"},   {kTypeCNAME, "CNAME"}, {kTypeSOA, "SOA"},
    {kTypePTR, "PTR"}, {kTypeMX, "MX"},   {kTypeTXT, "TXT"},     {kTypeAAAA, "AAAA"},
    {kTypeSRV, "SRV"}, {kTypeANY, "ANY"},
    // Types we only print (the query log) and read (tests, tools), as dig names them.
    {13, "HINFO"}, {35, "NAPTR"}, {39, "DNAME"}, {41, "OPT"},   {43, "DS"},   {46, "RRSIG"},
    {47, "NSEC"},  {48, "DNSKEY"}, {50, "NSEC3"}, {52, "TLSA"}, {64, "SVCB"}, {65, "HTTPS"},
    {99, "SPF"},   {251, "IXFR"},  {252, "AXFR"}, {257, "CAA"},
};
constexpr Mnemonic kRcodes[] = {
    {kNoError, "NOERROR"}, {kFormErr, "FORMERR"}, {kServFail, "SERVFAIL"}, {kNxDomain, "NXDOMAIN"},
    {kNotImp, "NOTIMP"},   {kRefused, "REFUSED"}, {kBadVers, "BADVERS"},
};

template <size_t N>
const char* name_of(const Mnemonic (&table)[N], uint16_t code) {
  for (const Mnemonic& m : table)
    if (m.code == code) return m.name;
  return nullptr;
}

template <size_t N>
int code_of(const Mnemonic (&table)[N], Str name) {
  for (const Mnemonic& m : table)
    if (equal_nocase(name, str(m.name))) return m.code;
  return -1;
}

}  // namespace

const char* type_name(uint16_t type) { return name_of(kTypes, type); }
uint16_t type_from_name(Str name) {
  int code = code_of(kTypes, name);
  return code < 0 ? 0 : uint16_t(code);
}
const char* rcode_name(uint8_t rcode) { return name_of(kRcodes, rcode); }
int rcode_from_name(Str name) { return code_of(kRcodes, name); }

}  // namespace rk8s::dns
