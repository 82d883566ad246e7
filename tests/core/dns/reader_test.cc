// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <vector>

#include "dns_test_util.h"

namespace rk8s::dns {
namespace {

using test::bytes;
using test::name;
using test::text;

// The header of a reply with the given counts, as hex.
std::string header(int qd, int an, int ns, int ar) {
  char h[64];
  snprintf(h, sizeof h, "12 34 81 80 %04x %04x %04x %04x", qd, an, ns, ar);
  return h;
}

std::string x63() { return "3f'" + std::string(63, 'x') + "'"; }

// Decompression of the first question name.
TEST(ReaderNames, DecompressionRules) {
  const std::string q = "00 01 00 01";  // type A, class IN
  const struct {
    const char* rule;
    std::string msg;
    bool ok;
    const char* qname;
  } cases[] = {
      {"plain_name", header(1, 0, 0, 0) + "03'www' 00" + q, true, "www"},
      {"pointer_back_into_header", header(1, 0, 0, 0) + "01'a' c0 0b" + q, true, "a"},
      {"self_pointer", header(1, 0, 0, 0) + "c0 0c" + q, false, nullptr},
      {"pointer_to_own_start_loops", header(1, 0, 0, 0) + "01'a' c0 0c" + q, false, nullptr},
      {"forward_pointer_as_the_libcs_follow_it", header(1, 0, 0, 0) + "c0 0e 00" + q, true, "."},
      {"forward_pointer_to_a_label", header(1, 0, 0, 0) + "c0 0e 01'b' 00" + q, true, "b"},
      {"two_pointers_looping", header(1, 0, 0, 0) + "c0 0e c0 0c" + q, false, nullptr},
      {"pointer_past_end", header(1, 0, 0, 0) + "c0 ff" + q, false, nullptr},
      {"pointer_cut_in_half", header(1, 0, 0, 0) + "01'a' c0", false, nullptr},
      {"label_past_end", header(1, 0, 0, 0) + "05'ab'", false, nullptr},
      {"no_root_label", header(1, 0, 0, 0) + "02'ab'", false, nullptr},
      {"label_type_0x40", header(1, 0, 0, 0) + "41 00" + q, false, nullptr},
      {"label_type_0x80", header(1, 0, 0, 0) + "81 00" + q, false, nullptr},
      {"question_cut_after_name", header(1, 0, 0, 0) + "00 00 01 00", false, nullptr},
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> m = bytes(c.msg);
    Reader r(m.data(), m.size());
    Header h;
    Question qn;
    ASSERT_TRUE(r.header(h)) << c.rule;
    ASSERT_EQ(r.question(qn), c.ok) << c.rule;
    EXPECT_EQ(r.ok(), c.ok) << c.rule;
    if (c.ok) {
      EXPECT_EQ(text(qn.name), c.qname) << c.rule;
    }
  }
}

// A question name of 194 + `tail_label` wire bytes, then an answer owner:
// one label of `extra` bytes and a pointer to the question name.
std::vector<uint8_t> name_through_pointer(size_t tail_label, size_t extra) {
  std::string msg = header(1, 1, 0, 0) + x63() + x63() + x63();
  char l[8];
  snprintf(l, sizeof l, "%02zx'", tail_label);
  msg += l + std::string(tail_label, 'y') + "' 00 00 01 00 01";
  snprintf(l, sizeof l, "%02zx'", extra);
  msg += l + std::string(extra, 'z') + "' c0 0c 00 01 00 01 00 00 00 3c 00 00";
  return bytes(msg);
}

TEST(ReaderNames, LengthLimitHoldsThroughPointers) {
  const struct {
    const char* rule;
    size_t tail_label, extra;
    bool ok;
  } cases[] = {
      {"255_bytes_through_pointer", 59, 1, true},   // 253 + 2
      {"256_bytes_through_pointer", 59, 2, false},  // 253 + 3
      {"257_bytes_through_pointer", 61, 1, false},  // 255 + 2
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> m = name_through_pointer(c.tail_label, c.extra);
    Reader r(m.data(), m.size());
    Header h;
    Question q;
    Record rr;
    ASSERT_TRUE(r.header(h) && r.question(q)) << c.rule;
    EXPECT_EQ(r.record(rr), c.ok) << c.rule;
    EXPECT_EQ(r.ok(), c.ok) << c.rule;
    if (c.ok) {
      EXPECT_EQ(rr.name.len, 255) << c.rule;
    }
  }
}

// Pointers to pointers, each before the last: legal however many, as for
// glibc (each byte read once).
TEST(ReaderNames, PointerChainsAreLegal) {
  for (size_t jumps : {127u, 128u, 1000u}) {
    std::vector<uint8_t> m(kHeaderSize, 0);
    m.push_back(0);  // the root, at 12
    for (size_t i = 0; i < jumps; i++) {
      size_t target = i == 0 ? 12 : m.size() - 2;
      m.push_back(uint8_t(0xc0 | target >> 8));
      m.push_back(uint8_t(target));
    }
    Reader r(m.data(), m.size());
    size_t off = m.size() - 2;
    Name n;
    EXPECT_TRUE(r.name_at(off, n)) << jumps << " jumps";
    EXPECT_EQ(off, m.size()) << "resumes past the first pointer";
  }
}

TEST(Reader, ReadsEverySection) {
  std::vector<uint8_t> m = bytes(test::kReply);
  Reader r(m.data(), m.size());
  Header h;
  Question q;
  ASSERT_TRUE(r.header(h));
  EXPECT_EQ(h.id, 0x1234);
  EXPECT_TRUE(h.qr());
  EXPECT_EQ(h.rcode(), kNoError);
  ASSERT_TRUE(r.question(q));
  EXPECT_EQ(text(q.name), "web.s1.svc.cluster.local");
  EXPECT_FALSE(r.question(q)) << "qdcount is 1";
  const struct {
    Section section;
    uint16_t type;
    const char* owner;
    const char* rdata_name;
  } want[] = {
      {kAnswer, kTypeCNAME, "web.s1.svc.cluster.local", "web.s2.svc.cluster.local"},
      {kAnswer, kTypeA, "web.s2.svc.cluster.local", nullptr},
      {kAuthority, kTypeSOA, "cluster.local", "ns.cluster.local"},
      {kAdditional, kTypeAAAA, "web.s2.svc.cluster.local", nullptr},
      {kAdditional, kTypeOPT, ".", nullptr},
  };
  Record rr;
  for (const auto& w : want) {
    ASSERT_TRUE(r.record(rr)) << w.owner;
    EXPECT_EQ(rr.section, w.section) << w.owner;
    EXPECT_EQ(rr.type, w.type) << w.owner;
    EXPECT_EQ(text(rr.name), w.owner);
    if (w.rdata_name) {
      size_t off = rr.rdata_off;
      Name n;
      ASSERT_TRUE(r.name_at(off, n));
      EXPECT_EQ(text(n), w.rdata_name);
    }
  }
  EXPECT_FALSE(r.record(rr));
  EXPECT_TRUE(r.ok()) << "the end is not an error";
}

TEST(Reader, RecordSkipsUnreadQuestions) {
  std::vector<uint8_t> m = bytes(test::kReply);
  Reader r(m.data(), m.size());
  Header h;
  Record rr;
  ASSERT_TRUE(r.header(h) && r.record(rr));
  EXPECT_EQ(rr.type, kTypeCNAME);
}

// Every prefix of a valid reply is malformed, and what it yields before
// that is exactly what the whole reply yields.
TEST(Reader, EveryTruncationIsMalformedWithACleanPrefix) {
  std::vector<uint8_t> full = bytes(test::kReply);
  std::vector<Record> all;
  {
    Reader r(full.data(), full.size());
    Header h;
    Record rr;
    ASSERT_TRUE(r.header(h));
    while (r.record(rr)) all.push_back(rr);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(all.size(), 5u);
  }
  for (size_t len = 0; len < full.size(); len++) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + len);  // exact size: ASan sees overreads
    Reader r(cut.data(), cut.size());
    Header h;
    Record rr;
    size_t n = 0;
    if (r.header(h)) {
      while (r.record(rr)) {
        ASSERT_LT(n, all.size());
        EXPECT_TRUE(name_equal(rr.name, all[n].name) && rr.type == all[n].type &&
                    rr.rdata_off == all[n].rdata_off && rr.rdlength == all[n].rdlength)
            << "length " << len << " record " << n;
        n++;
      }
    }
    EXPECT_FALSE(r.ok()) << "length " << len;
  }
}

TEST(Reader, MalformedMessages) {
  const struct {
    const char* rule;
    std::string msg;
  } cases[] = {
      {"short_header", "12 34 81 80 0000 0000 0000"},
      {"counts_larger_than_bytes", header(0, 65535, 65535, 65535)},
      {"rdata_past_end", header(0, 1, 0, 0) + "00 0001 0001 0000003c 0005 0a 00 00 01"},
      {"record_cut_in_fixed_fields", header(0, 1, 0, 0) + "00 0001 0001 0000"},
      {"questions_larger_than_bytes", header(3, 0, 0, 0) + "00 0001 0001"},
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> m = bytes(c.msg);
    Reader r(m.data(), m.size());
    Header h;
    Record rr;
    if (r.header(h))
      while (r.record(rr)) {
      }
    EXPECT_FALSE(r.ok()) << c.rule;
  }
}

TEST(Edns, FromRecordRules) {
  const struct {
    const char* rule;
    std::string record;
    Section section;
    bool ok;
  } cases[] = {
      {"no_options", "00 0029 1000 00000000 0000", kAdditional, true},
      {"one_option_exact", "00 0029 1000 00000000 0006 ff97 0002 0100", kAdditional, true},
      {"two_options_exact", "00 0029 1000 00000000 0008 000a 0000 ff97 0000", kAdditional, true},
      {"option_length_past_rdata", "00 0029 1000 00000000 0006 ff97 0003 0100", kAdditional, false},
      {"junk_after_last_option", "00 0029 1000 00000000 0006 000a 0000 ffff", kAdditional, false},
      {"option_header_cut", "00 0029 1000 00000000 0002 000a", kAdditional, false},
      {"owner_not_root", "01'a' 00 0029 1000 00000000 0000", kAdditional, false},
      {"not_in_additional", "00 0029 1000 00000000 0000", kAnswer, false},
      {"not_opt", "00 0001 0001 00000000 0004 7f000001", kAdditional, false},
  };
  for (const auto& c : cases) {
    int an = c.section == kAnswer, ar = c.section == kAdditional;
    std::vector<uint8_t> m = bytes(header(0, an, 0, ar) + c.record);
    Reader r(m.data(), m.size());
    Header h;
    Record rr;
    ASSERT_TRUE(r.header(h) && r.record(rr)) << c.rule;
    Edns e;
    EXPECT_EQ(edns_from_record(r, rr, e), c.ok) << c.rule;
  }
}

TEST(Edns, TtlFieldSplits) {
  std::vector<uint8_t> m = bytes(header(0, 0, 0, 1) + "00 0029 04d0 01 00 8000 0000");
  Reader r(m.data(), m.size());
  Header h;
  Record rr;
  Edns e;
  ASSERT_TRUE(r.header(h) && r.record(rr) && edns_from_record(r, rr, e));
  EXPECT_EQ(e.udp_size, 1232);
  EXPECT_EQ(e.ext_rcode, 1);
  EXPECT_EQ(e.version, 0);
  EXPECT_EQ(e.flags, 0x8000);
  EXPECT_EQ(e.options.size, 0u);
}

TEST(Edns, OptionLookup) {
  std::vector<uint8_t> opts = bytes("000a 0002 aaaa ff97 0001 01 ff97 0001 02");
  Bytes all{opts.data(), opts.size()}, v;
  ASSERT_TRUE(edns_option(all, 0xff97, v)) << "present";
  EXPECT_EQ(v.size, 1u);
  EXPECT_EQ(v.data[0], 1) << "the first of two";
  EXPECT_FALSE(edns_option(all, 0x000f, v)) << "absent";
  std::vector<uint8_t> bad = bytes("000a 0009 aaaa");
  EXPECT_FALSE(edns_option(Bytes{bad.data(), bad.size()}, 0x000a, v)) << "past the end";
}

}  // namespace
}  // namespace rk8s::dns
