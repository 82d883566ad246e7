// SPDX-License-Identifier: Apache-2.0
#include <vector>

#include "dns_test_util.h"

namespace rk8s::dns {
namespace {

using test::bytes;
using test::name;
using test::text;

std::vector<uint8_t> out(const Writer& w, const uint8_t* buf) { return {buf, buf + w.size()}; }
uint16_t count(const uint8_t* buf, Section s) { return load16(buf + 6 + 2 * s); }

// test::kReply, written through the Writer.
size_t write_reply(Writer& w) {
  const Name cname = name("web.s2.svc.cluster.local"), zone = name("cluster.local");
  const uint8_t a[] = {10, 0, 0, 1};
  const uint8_t aaaa[] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  const uint8_t soa_numbers[] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 30};
  const uint8_t reply[] = {1, 0, 0, 0};
  const EdnsOption autopath{0xff97, Bytes{reply, 4}};
  w.header(0x1234, kFlagQR | kFlagRD | kFlagRA);
  EXPECT_TRUE(w.question(name("web.s1.svc.cluster.local"), kTypeA));
  EXPECT_TRUE(w.begin_record(kAnswer, name("web.s1.svc.cluster.local"), kTypeCNAME, 60));
  EXPECT_TRUE(w.rdata_name(cname) && w.end_record());
  EXPECT_TRUE(w.record(kAnswer, cname, kTypeA, 60, Bytes{a, 4}));
  EXPECT_TRUE(w.begin_record(kAuthority, zone, kTypeSOA, 60));
  EXPECT_TRUE(w.rdata_name(name("ns.cluster.local")) && w.rdata_name(name("hm.cluster.local")));
  EXPECT_TRUE(w.rdata_bytes(Bytes{soa_numbers, 20}) && w.end_record());
  EXPECT_TRUE(w.record(kAdditional, cname, kTypeAAAA, 60, Bytes{aaaa, 16}));
  EXPECT_TRUE(w.opt(1232, 0, 0, &autopath, 1));
  return w.size();
}

TEST(Writer, WritesEverySectionWithCompression) {
  uint8_t buf[512];
  Writer w(buf, sizeof buf);
  write_reply(w);
  EXPECT_FALSE(w.full());
  EXPECT_EQ(out(w, buf), bytes(test::kReply));
}

TEST(Writer, CompressionIgnoresCaseAndKeepsTheFirstSpelling) {
  uint8_t buf[512];
  Writer w(buf, sizeof buf);
  ASSERT_TRUE(w.question(name("WWW.Example.COM"), kTypeA));
  ASSERT_TRUE(w.record(kAnswer, name("mail.example.com"), kTypeA, 1, Bytes{buf, 4}));
  EXPECT_EQ(std::vector<uint8_t>(buf + 33, buf + 40), bytes("04'mail' c0 10"));
  Reader r(buf, w.size());
  Header h;
  Record rr;
  ASSERT_TRUE(r.header(h) && r.record(rr));
  EXPECT_EQ(text(rr.name), "mail.Example.COM");
}

TEST(Writer, RdataNamesCompressOnlyForRfc1035Types) {
  const struct {
    const char* rule;
    uint16_t type;
    const char* rdata;  // after the owner's pointer and fixed fields
  } cases[] = {
      {"mx_exchange_compressed", kTypeMX, "0006 000a 01'm' c0 0c"},
      {"ptr_compressed", kTypePTR, "0004 01'm' c0 0c"},
      {"srv_target_not_compressed", kTypeSRV, "000f 0000 000a 0035 01'm' 01'x' 03'org' 00"},
  };
  for (const auto& c : cases) {
    uint8_t buf[512];
    Writer w(buf, sizeof buf);
    ASSERT_TRUE(w.question(name("x.org"), c.type));
    ASSERT_TRUE(w.begin_record(kAnswer, name("x.org"), c.type, 0));
    const uint8_t srv_or_mx[] = {0, 0, 0, 10, 0, 53};
    if (c.type == kTypeMX) {
      ASSERT_TRUE(w.rdata_bytes(Bytes{srv_or_mx + 2, 2}));
    }
    if (c.type == kTypeSRV) {
      ASSERT_TRUE(w.rdata_bytes(Bytes{srv_or_mx, 6}));
    }
    ASSERT_TRUE(w.rdata_name(name("m.x.org")) && w.end_record());
    std::vector<uint8_t> rdata(buf + 23 + 2 + 8, buf + w.size());
    EXPECT_EQ(rdata, bytes(c.rdata)) << c.rule;
  }
}

// Pointers hold 14 bits: names written past 0x3fff are never targets.
TEST(Writer, PointersOnlyToOffsetsBelow0x4000) {
  std::vector<uint8_t> buf(65535), big(0x4000);
  Writer w(buf.data(), buf.size());
  ASSERT_TRUE(w.question(name("example"), kTypeTXT));
  ASSERT_TRUE(w.record(kAnswer, name("example"), kTypeTXT, 0, Bytes{big.data(), big.size()}));
  size_t late = w.size();
  ASSERT_GT(late, 0x3fffu);
  ASSERT_TRUE(w.record(kAnswer, name("x.org"), kTypeA, 0, Bytes{big.data(), 4}));
  size_t again = w.size();
  ASSERT_TRUE(w.record(kAnswer, name("y.x.org"), kTypeA, 0, Bytes{big.data(), 4}));
  ASSERT_TRUE(w.record(kAnswer, name("z.example"), kTypeA, 0, Bytes{big.data(), 4}));
  EXPECT_EQ(std::vector<uint8_t>(&buf[again], &buf[again + 9]), bytes("01'y' 01'x' 03'org' 00"));
  EXPECT_EQ(std::vector<uint8_t>(&buf[again + 23], &buf[again + 27]), bytes("01'z' c0 0c"));
  Reader r(buf.data(), w.size());
  Header h;
  Record rr;
  ASSERT_TRUE(r.header(h));
  for (const char* owner : {"example", "x.org", "y.x.org", "z.example"}) {
    ASSERT_TRUE(r.record(rr));
    EXPECT_EQ(text(rr.name), owner);
  }
}

TEST(Writer, RecordThatDoesNotFitIsRolledBackAndSetsTc) {
  uint8_t buf[512];
  Writer w(buf, sizeof buf);
  const uint8_t a[] = {10, 0, 0, 1};
  w.header(7, kFlagQR);
  ASSERT_TRUE(w.question(name("web.default.svc.cluster.local"), kTypeA));
  size_t written = 0;
  while (w.record(kAnswer, name("web.default.svc.cluster.local"), kTypeA, 5, Bytes{a, 4}))
    written++;
  EXPECT_TRUE(w.full());
  EXPECT_EQ(w.size(), 12 + 35 + 16 * written);
  EXPECT_GT(w.size() + 16, sizeof buf);
  EXPECT_TRUE(load16(buf + 2) & kFlagTC);
  EXPECT_EQ(count(buf, kAnswer), written);
  EXPECT_FALSE(w.record(kAdditional, Name{}, kTypeA, 0, Bytes{a, 4})) << "refused after full";
  EXPECT_FALSE(w.begin_record(kAdditional, Name{}, kTypeTXT, 0));
  Reader r(buf, w.size());
  Header h;
  Record rr;
  ASSERT_TRUE(r.header(h));
  size_t read = 0;
  while (r.record(rr)) read++;
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(read, written);
}

TEST(Writer, FailingRdataRollsBackTheWholeRecord) {
  uint8_t buf[100];
  Writer w(buf, sizeof buf);
  ASSERT_TRUE(w.question(name("a.example"), kTypeCNAME));
  size_t before = w.size();
  ASSERT_TRUE(w.begin_record(kAnswer, name("a.example"), kTypeCNAME, 0));
  ASSERT_TRUE(w.rdata_name(name("b.example")));
  EXPECT_FALSE(w.rdata_bytes(Bytes{buf, 80}));
  EXPECT_FALSE(w.end_record());
  EXPECT_EQ(w.size(), before);
  EXPECT_EQ(count(buf, kAnswer), 0);
  EXPECT_TRUE(load16(buf + 2) & kFlagTC);
}

TEST(Writer, ReservedRoomStillTakesTheOpt) {
  uint8_t buf[512];
  Writer w(buf, sizeof buf);
  const uint8_t txt[100] = {};
  const uint8_t value[] = {1, 0, 0, 0xff};
  const EdnsOption option{0xff97, Bytes{value, 4}};
  const size_t opt_size = 11 + 4 + 4;
  w.reserve(opt_size);
  ASSERT_TRUE(w.question(name("big"), kTypeTXT));
  while (w.record(kAnswer, name("big"), kTypeTXT, 0, Bytes{txt, sizeof txt})) {
  }
  ASSERT_TRUE(w.full());
  EXPECT_LE(w.size(), sizeof buf - opt_size) << "answers left the reserved room alone";
  w.release(opt_size);
  ASSERT_TRUE(w.opt(1232, 0, 0x8000, &option, 1));
  EXPECT_LE(w.size(), sizeof buf);
  Reader r(buf, w.size());
  Header h;
  Record rr;
  Edns e;
  ASSERT_TRUE(r.header(h));
  EXPECT_TRUE(h.tc());
  EXPECT_EQ(h.arcount, 1);
  while (r.record(rr) && rr.section != kAdditional) {
  }
  ASSERT_TRUE(edns_from_record(r, rr, e));
  EXPECT_EQ(e.flags, 0x8000);
  Bytes v;
  EXPECT_TRUE(edns_option(e.options, 0xff97, v) && v.size == 4 && v.data[3] == 0xff);
}

TEST(Writer, SectionsGoInOrder) {
  uint8_t buf[512];
  Writer w(buf, sizeof buf);
  ASSERT_TRUE(w.record(kAuthority, name("zone"), kTypeNS, 0, Bytes{buf, 0}));
  EXPECT_FALSE(w.record(kAnswer, name("zone"), kTypeA, 0, Bytes{buf, 0})) << "answer after NS";
  EXPECT_FALSE(w.question(name("zone"), kTypeA)) << "question after a record";
  EXPECT_FALSE(w.full()) << "a caller's mistake is not truncation";
  EXPECT_TRUE(w.record(kAdditional, name("zone"), kTypeA, 0, Bytes{buf, 0}));
}

TEST(Writer, FlagsAndRcode) {
  uint8_t buf[14];
  Writer w(buf, sizeof buf);
  w.header(0xbeef, kFlagQR | kFlagAA);
  w.set_rcode(kNxDomain);
  EXPECT_EQ(load16(buf), 0xbeef);
  EXPECT_EQ(load16(buf + 2), kFlagQR | kFlagAA | kNxDomain);
  EXPECT_FALSE(w.question(name("a"), kTypeA));
  w.set_flags(kFlagQR);
  EXPECT_EQ(load16(buf + 2), kFlagQR | kFlagTC) << "TC stays once truncated";
}

TEST(Writer, BufferSmallerThanAHeaderTakesNothing) {
  uint8_t buf[11];
  Writer w(buf, sizeof buf);
  w.header(1, 0);
  EXPECT_TRUE(w.full());
  EXPECT_EQ(w.size(), 0u);
  EXPECT_FALSE(w.opt(512, 0, 0, nullptr, 0));
}

}  // namespace
}  // namespace rk8s::dns
