#include "dns/autopath.h"

#include <vector>

#include "dns_test_util.h"

namespace rk8s::autopath {
namespace {

using dns::Name;
using dns::test::bytes;
using dns::test::name;
using dns::test::text;

QueryOption query(uint8_t flags, std::vector<const char*> suffixes) {
  QueryOption q;
  q.flags = flags;
  for (const char* s : suffixes) q.suffix[q.count++] = name(s);
  return q;
}

std::vector<uint8_t> encode(const QueryOption& q) {
  uint8_t buf[512];
  size_t n = encode_query(q, buf, sizeof buf);
  return {buf, buf + n};
}

QueryDecode decode(const std::vector<uint8_t>& payload, QueryOption& out) {
  return decode_query(Bytes{payload.data(), payload.size()}, out);
}

// The protocol document's examples, search list "s1 s2".
TEST(AutopathQuery, ProtocolExamplesByteForByte) {
  const struct {
    const char* rule;
    const char* qname;
    QueryOption q;
    const char* payload;
    std::vector<const char*> candidates;
  } cases[] = {
      {"few_dots_searches_first_then_as_is",
       "web.s1",
       query(kFlagQ, {"s1", "s2", "."}),
       "01 01 02's1' 00 02's2' 00 00",
       {"web.s1", "web.s2", "web"}},
      {"many_dots_as_is_first",
       "a.b.c.d.e.f",
       query(kFlagQ, {".", "s1", "s2"}),
       "01 01 00 02's1' 00 02's2' 00",
       {"a.b.c.d.e.f", "a.b.c.d.e.f.s1", "a.b.c.d.e.f.s2"}},
      {"paired_flag_on_the_wire",
       "web.s1",
       query(kFlagQ | kFlagPaired, {"s1", "."}),
       "01 03 02's1' 00 00",
       {"web.s1", "web"}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(encode(c.q), bytes(c.payload)) << c.rule;
    QueryOption back;
    ASSERT_EQ(decode(bytes(c.payload), back), QueryDecode::ok) << c.rule;
    EXPECT_EQ(back.flags, c.q.flags) << c.rule;
    Name base;
    ASSERT_TRUE(dns::name_strip_suffix(name(c.qname), back.suffix[0], base)) << c.rule;
    ASSERT_EQ(back.count, c.candidates.size()) << c.rule;
    for (size_t i = 0; i < back.count; i++) {
      Name candidate;
      ASSERT_TRUE(dns::name_concat(base, back.suffix[i], candidate)) << c.rule;
      EXPECT_EQ(text(candidate), c.candidates[i]) << c.rule << " candidate " << i;
    }
  }
}

TEST(AutopathQuery, DecodeRules) {
  const struct {
    const char* rule;
    std::vector<uint8_t> payload;
    QueryDecode result;
  } cases[] = {
      {"one_root_suffix", bytes("01 01 00"), QueryDecode::ok},
      {"unknown_flags_kept", bytes("01 f1 00"), QueryDecode::ok},
      {"unknown_version_before_anything", bytes("02"), QueryDecode::bad_version},
      {"version_zero", bytes("00 01 00"), QueryDecode::bad_version},
      {"unknown_version_even_with_junk", bytes("07 00 c0"), QueryDecode::bad_version},
      {"empty_payload", bytes(""), QueryDecode::malformed},
      {"no_flags", bytes("01"), QueryDecode::malformed},
      {"no_suffix", bytes("01 01"), QueryDecode::malformed},
      {"q_clear", bytes("01 00 00"), QueryDecode::malformed},
      {"junk_after_last_name", bytes("01 01 00 05'ab'"), QueryDecode::malformed},
      {"name_without_root", bytes("01 01 02's1'"), QueryDecode::malformed},
      {"compression_pointer", bytes("01 01 01'a' c0 02"), QueryDecode::malformed},
      {"label_over_63", bytes("01 01 40"), QueryDecode::malformed},
  };
  for (const auto& c : cases) {
    QueryOption out;
    EXPECT_EQ(decode(c.payload, out), c.result) << c.rule;
  }
}

TEST(AutopathQuery, AtMost64Suffixes) {
  std::vector<uint8_t> payload = bytes("01 01");
  for (int i = 0; i < 64; i++) payload.push_back(0);
  QueryOption out;
  ASSERT_EQ(decode(payload, out), QueryDecode::ok);
  EXPECT_EQ(out.count, 64u);
  payload.push_back(0);
  EXPECT_EQ(decode(payload, out), QueryDecode::malformed);
}

TEST(AutopathQuery, NameOver255BytesIsMalformed) {
  std::vector<uint8_t> payload = bytes("01 01");
  for (int i = 0; i < 4; i++) {
    payload.push_back(63);
    payload.insert(payload.end(), 63, 'x');
  }
  payload.push_back(0);  // 4 * 64 + 1 = 257 bytes
  QueryOption out;
  EXPECT_EQ(decode(payload, out), QueryDecode::malformed);
}

TEST(AutopathQuery, EncodeRefusesWhatCannotBeSent) {
  uint8_t buf[16];
  EXPECT_EQ(encode_query(query(kFlagQ, {}), buf, sizeof buf), 0u) << "no suffix";
  EXPECT_EQ(encode_query(query(kFlagQ, {"svc.cluster.local"}), buf, 10), 0u) << "short buffer";
  QueryOption too_many = query(kFlagQ, {});
  too_many.count = kMaxSuffixes + 1;
  EXPECT_EQ(encode_query(too_many, buf, sizeof buf), 0u) << "65 suffixes";
}

TEST(AutopathReply, DecodeAcceptsOnlyRealReplies) {
  const struct {
    const char* rule;
    const char* payload;
    size_t suffix_count;
    bool ok;
  } cases[] = {
      {"matched_first", "01 00 00 00", 3, true},
      {"matched_last", "01 00 00 02", 3, true},
      {"matched_with_both", "01 08 00 01", 3, true},
      {"exhausted_no_index", "01 00 01 ff", 3, true},
      {"servfail_seen_no_index", "01 00 02 ff", 3, true},
      {"rejected_no_index", "01 00 03 ff", 3, true},
      {"echo_of_query_option", "01 01 02's1' 00 00", 2, false},
      {"four_byte_echo_with_q", "01 01 00 00", 3, false},
      {"q_set", "01 09 00 00", 3, false},
      {"query_only_flag", "01 02 00 00", 3, false},
      {"unknown_flag", "01 10 00 00", 3, false},
      {"unknown_version", "02 00 00 00", 3, false},
      {"short", "01 00 00", 3, false},
      {"long", "01 00 00 00 00", 3, false},
      {"unknown_status", "01 00 04 ff", 3, false},
      {"matched_index_past_suffixes", "01 00 00 03", 3, false},
      {"matched_without_index", "01 00 00 ff", 3, false},
      {"exhausted_with_index", "01 00 01 00", 3, false},
      {"rejected_with_index", "01 00 03 01", 3, false},
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> p = bytes(c.payload);
    ReplyOption out;
    ASSERT_EQ(decode_reply(Bytes{p.data(), p.size()}, c.suffix_count, out), c.ok) << c.rule;
    if (c.ok) {
      EXPECT_EQ(out.flags, p[1]) << c.rule;
      EXPECT_EQ(out.status, p[2]) << c.rule;
      EXPECT_EQ(out.index, p[3]) << c.rule;
    }
  }
}

TEST(AutopathReply, EncodeIsFourBytes) {
  uint8_t buf[4];
  ASSERT_EQ(encode_reply(ReplyOption{kFlagBoth, kMatched, 2}, buf, sizeof buf), 4u);
  EXPECT_EQ(std::vector<uint8_t>(buf, buf + 4), bytes("01 08 00 02"));
  EXPECT_EQ(encode_reply(ReplyOption{}, buf, 3), 0u);
}

}  // namespace
}  // namespace rk8s::autopath
