// SPDX-License-Identifier: Apache-2.0
// read_answer on hand-made replies: what each libc's reader takes from an
// answer section. AliasNames' copies.
#include <gtest/gtest.h>

#include <string>

#include "lookup/answer.h"
#include "lookup/answer_musl.h"

namespace rk8s {
namespace {

// A reply to "web A" whose answer section is `records`, each given as
// (type, rdata) with `owner` (by default a pointer to the question's name).
std::string reply(std::initializer_list<std::pair<uint16_t, std::string>> records,
                  const std::string& owner = {char(0xc0), 12}) {
  std::string m = {0, 1, char(0x81), char(0x80), 0, 1, 0, char(records.size()), 0, 0, 0, 0};
  m += std::string("\3web\0\0\1\0\1", 9);
  for (const auto& [type, rdata] : records) {
    m += owner;
    m += {char(type >> 8), char(type), 0, 1, 0, 0, 0, 60, 0, char(rdata.size())};
    m += rdata;
  }
  return m;
}

// `release`: the libc's (0: the dialect's reference).
Answer read(Dialect dialect, const std::string& msg, uint32_t release = 0) {
  dns::Name web;
  EXPECT_TRUE(dns::name_from_text(Str{"web", 3}, web));
  Config conf;
  conf.dialect = dialect;
  conf.release = release ? release : reference_release(dialect);
  Answer a;
  EXPECT_TRUE(read_answer(conf, {web, dns::kTypeA, nullptr, false},
                          Bytes{(const uint8_t*)msg.data(), msg.size()}, a));
  return a;
}

const std::string kTen = {10, 0, 0, 1};
const std::string kEleven = {11, 0, 0, 1};

// glibc follows the chain from the question: after a CNAME, addresses count
// only at its target; musl takes every address of the question's type.
TEST(Answer, GlibcReadsAddressesAtTheChainsEndOnly) {
  std::string api("\3api\0", 5);
  Answer glibc = read(Dialect::glibc, reply({{dns::kTypeCNAME, api}, {dns::kTypeA, kTen}}));
  EXPECT_EQ(glibc.addrs.count, 0u);
  ASSERT_TRUE(glibc.has_canon);  // where the chain ended
  EXPECT_EQ(std::string((const char*)glibc.canon.wire, glibc.canon.len), api);
  EXPECT_EQ(read(Dialect::musl, reply({{dns::kTypeCNAME, api}, {dns::kTypeA, kTen}})).addrs.count, 1u);
}

TEST(Answer, MuslReadsATypeByItsLowByte) {
  std::string msg = reply({{0xff01, kTen}});
  EXPECT_EQ(read(Dialect::musl, msg).addrs.count, 1u);
  EXPECT_EQ(read(Dialect::glibc, msg).addrs.count, 0u);
}

TEST(Answer, MuslStopsAtAnAddressOfTheWrongSize) {
  std::string msg = reply({{dns::kTypeA, kTen}, {dns::kTypeA, kTen + "x"}, {dns::kTypeA, kEleven}});
  EXPECT_EQ(read(Dialect::musl, msg).addrs.count, 1u);
  EXPECT_EQ(read(Dialect::glibc, msg).addrs.count, 2u);
}

// musl skips an owner name without reading it: bytes 1-127, then a
// terminator or any pointer up to 0xc1fe.
TEST(Answer, MuslSkipsAnOwnerItCannotRead) {
  for (const std::string& owner : {std::string{char(0xc0), char(0xff)},  // beyond the reply
                                   std::string{char(0xc1), 0},           // beyond, too
                                   std::string{char(0xc0), 21}}) {       // itself
    std::string msg = reply({{dns::kTypeA, kTen}}, owner);
    EXPECT_EQ(read(Dialect::musl, msg).addrs.count, 1u);
    Answer glibc = read(Dialect::glibc, msg);
    EXPECT_EQ(glibc.addrs.count, 0u);
    EXPECT_TRUE(glibc.bad_answers);
  }
  std::string msg = reply({{dns::kTypeA, kTen}}, {char(0xc2), 12});
  EXPECT_EQ(read(Dialect::musl, msg).addrs.count, 0u);
  EXPECT_EQ(read(Dialect::musl, msg, release(1, 2, 4)).addrs.count, 0u);
  EXPECT_EQ(read(Dialect::musl, msg, release(1, 2, 5)).addrs.count, 1u);  // 83b858f8
}

const uint32_t kMusl124 = release(1, 2, 4);
const std::string kV6(16, '\x20');

// From 1.2.4 on only records of the question's type count (41603c77).
TEST(Answer, Musl124CountsTheQuestionsTypeOnly) {
  std::string msg = reply({{dns::kTypeAAAA, kV6}, {dns::kTypeA, kTen}});
  EXPECT_EQ(read(Dialect::musl, msg).addrs.count, 2u);
  EXPECT_EQ(read(Dialect::musl, msg, kMusl124).addrs.count, 1u);
}

// Before 1.2.4 a record's data may run 10 bytes past the reply, and musl
// reads on into its buffer (we stop); from 1.2.4 on the bounds are exact.
TEST(Answer, Musl124BoundsAreExact) {
  std::string msg = reply({{dns::kTypeA, kTen}, {dns::kTypeA, kEleven}});
  msg.resize(msg.size() - 2);
  dns::Name web;
  EXPECT_TRUE(dns::name_from_text(Str{"web", 3}, web));
  Answer a;
  EXPECT_FALSE(read_musl_answers(Bytes{(const uint8_t*)msg.data(), msg.size()}, dns::kTypeA,
                                 reference_release(Dialect::musl), a));
  a = Answer{};
  EXPECT_TRUE(read_musl_answers(Bytes{(const uint8_t*)msg.data(), msg.size()}, dns::kTypeA, kMusl124, a));
  EXPECT_EQ(a.addrs.count, 1u);
}

// musl's name is dn_expand's C string: a NUL byte in a label ends it; a
// label that begins with one leaves the dot before it (fuzz/finds).
TEST(Answer, MuslCutsACnameTargetAtANulByte) {
  auto canon_text = [](const std::string& target) {
    Answer a = read(Dialect::musl, reply({{dns::kTypeCNAME, target}, {dns::kTypeA, kTen}}));
    std::string text;
    for (size_t p = 0; a.has_canon && a.canon.wire[p]; p += a.canon.wire[p] + 1)
      text += (text.empty() ? "" : ".") + std::string((const char*)a.canon.wire + p + 1, a.canon.wire[p]);
    return text;
  };
  EXPECT_EQ(canon_text(std::string("\3api\4ex\0m\0", 10)), "api.ex");
  EXPECT_EQ(canon_text(std::string("\3api\4\0exa\0", 10)), "api.");
  EXPECT_EQ(canon_text(std::string("\3api\2ab\4\0exa\0", 13)), "api.ab.");
  EXPECT_EQ(canon_text(std::string("\4\0api\0", 6)), "");  // an empty name: none
}

// More than 64 records: refused up to 1.2.4, read from 1.2.5 on (8c086e76);
// 1.2.4 reads the first 768 bytes alone.
TEST(Answer, MuslRecordLimitsByRelease) {
  std::string msg = {0, 1, char(0x81), char(0x80), 0, 1, 0, 70, 0, 0, 0, 0};
  msg += std::string("\3web\0\0\1\0\1", 9);
  for (int i = 0; i < 70; i++) msg += std::string{char(0xc0), 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4} + kTen;
  EXPECT_EQ(read(Dialect::musl, msg).addrs.count, 0u);
  EXPECT_EQ(read(Dialect::musl, msg, kMusl124).addrs.count, 0u);
  EXPECT_EQ(read(Dialect::musl, msg, release(1, 2, 5)).addrs.count, size_t(kMuslMaxAddresses));
}

// A copy holds the names in use, and its own: the original keeps them all.
TEST(AliasNames, CopiesTheNamesInUse) {
  AliasNames a;
  for (const char* text : {"web.shop.svc.cluster.local", "web"}) {
    dns::Name n;
    ASSERT_TRUE(dns::name_from_text(str(text), n));
    a.add(n, true);
  }
  AliasNames b;
  dns::Name other;
  ASSERT_TRUE(dns::name_from_text(str("a.much.longer.name.than.any.above.example"), other));
  b.add(other, false);
  b = a;
  ASSERT_EQ(b.at.count, 2u);
  EXPECT_STREQ(b[0], "web.shop.svc.cluster.local");
  EXPECT_STREQ(b[1], "web");
  EXPECT_EQ(b.host_name, 3u);
  AliasNames c(b);
  c.drop_first();
  ASSERT_EQ(c.at.count, 1u);
  EXPECT_STREQ(c[0], "web");
  EXPECT_EQ(b.at.count, 2u);
  EXPECT_STREQ(b[0], "web.shop.svc.cluster.local");
}

}  // namespace
}  // namespace rk8s
