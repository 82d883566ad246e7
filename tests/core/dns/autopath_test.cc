// SPDX-License-Identifier: Apache-2.0
#include "dns/autopath.h"
#include "dns/candidate_reply.h"

#include <string>
#include <vector>

#include "dns_test_util.h"

namespace rk8s::autopath {
namespace {

using dns::Name;
using dns::test::bytes;
using dns::test::kReply;
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
  // What we sent: three suffixes (two for the echo), with these flags.
  constexpr uint8_t kBoth = kFlagQ | kFlagPaired | kFlagStopOnExists | kFlagBoth;
  constexpr uint8_t kPast = kFlagQ | kFlagStopOnExists | kFlagPastNodata;
  constexpr uint8_t kAll = kBoth | kFlagPastNodata;
  const struct {
    const char* rule;
    uint8_t asked;
    const char* payload;
    bool ok;
  } cases[] = {
      {"matched_first", kBoth, "01 00 00 00", true},
      {"matched_last", kBoth, "01 00 00 02", true},
      {"matched_with_both", kBoth, "01 08 00 01", true},
      {"exhausted_no_index", kBoth, "01 00 01 ff", true},
      {"servfail_seen_no_index", kBoth, "01 00 02 ff", true},
      {"rejected_no_index", kBoth, "01 00 03 ff", true},
      {"past_nodata_ignored", kPast, "01 00 00 01", true},
      {"past_nodata_matched_after_nodata", kAll, "01 18 00 02 01", true},
      {"past_nodata_exhausted_nodata_last", kPast, "01 10 01 ff 02", true},
      {"past_nodata_none", kPast, "01 10 01 ff ff", true},
      {"echo_of_query_option", kBoth, "01 01 02's1' 00 00", false},
      {"four_byte_echo_with_q", kBoth, "01 01 00 00", false},
      {"q_set", kBoth, "01 09 00 00", false},
      {"query_only_flag", kBoth, "01 02 00 00", false},
      {"unknown_flag", kAll, "01 20 00 00", false},
      {"both_not_asked", kPast, "01 08 00 00", false},
      {"past_nodata_not_asked", kBoth, "01 10 01 ff ff", false},
      {"past_nodata_four_bytes", kPast, "01 10 01 ff", false},
      {"five_bytes_without_past_nodata", kPast, "01 00 01 ff ff", false},
      {"past_nodata_at_the_match", kPast, "01 10 00 01 01", false},
      {"past_nodata_past_suffixes", kPast, "01 10 01 ff 03", false},
      {"unknown_version", kBoth, "02 00 00 00", false},
      {"short", kBoth, "01 00 00", false},
      {"long", kBoth, "01 00 00 00 00", false},
      {"unknown_status", kBoth, "01 00 04 ff", false},
      {"matched_index_past_suffixes", kBoth, "01 00 00 03", false},
      {"matched_without_index", kBoth, "01 00 00 ff", false},
      {"exhausted_with_index", kBoth, "01 00 01 00", false},
      {"rejected_with_index", kBoth, "01 00 03 01", false},
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> p = bytes(c.payload);
    QueryOption sent = query(c.asked, {"s1", "s2", "."});
    if (std::string(c.rule) == "echo_of_query_option") sent.count = 2;
    ReplyOption out;
    ASSERT_EQ(decode_reply(Bytes{p.data(), p.size()}, sent, out), c.ok) << c.rule;
    if (c.ok) {
      EXPECT_EQ(out.flags, p[1]) << c.rule;
      EXPECT_EQ(out.status, p[2]) << c.rule;
      EXPECT_EQ(out.index, p[3]) << c.rule;
      EXPECT_EQ(out.nodata, p.size() == 5 ? p[4] : kNoIndex) << c.rule;
    }
  }
}

TEST(AutopathReply, EncodeIsFourBytesFiveWithPastNodata) {
  uint8_t buf[5];
  ASSERT_EQ(encode_reply(ReplyOption{kFlagBoth, kMatched, 2}, buf, sizeof buf), 4u);
  EXPECT_EQ(std::vector<uint8_t>(buf, buf + 4), bytes("01 08 00 02"));
  ASSERT_EQ(encode_reply(ReplyOption{kFlagPastNodata, kExhausted, kNoIndex, 1}, buf, sizeof buf), 5u);
  EXPECT_EQ(std::vector<uint8_t>(buf, buf + 5), bytes("01 10 01 ff 01"));
  EXPECT_EQ(encode_reply(ReplyOption{}, buf, 3), 0u);
  EXPECT_EQ(encode_reply(ReplyOption{kFlagPastNodata, kExhausted, kNoIndex, 1}, buf, 4), 0u);
}

// A message as lines: header, question, then each record with the names in
// its rdata expanded (whatever the compression) and the other bytes in hex.
std::string dump(const uint8_t* msg, size_t len) {
  dns::Reader r(msg, len);
  dns::Header h;
  dns::Question q;
  if (!r.header(h) || !r.question(q)) return "malformed";
  char line[200];
  snprintf(line, sizeof line, "id=%04x flags=%04x %u/%u/%u/%u\n", h.id, h.flags, h.qdcount,
           h.ancount, h.nscount, h.arcount);
  std::string out = line + ("? " + text(q.name) + " " + std::to_string(q.type) + "\n");
  dns::Record rec;
  while (r.record(rec)) {
    out += std::to_string(rec.section) + " " + text(rec.name) + " " + std::to_string(rec.type) +
           " " + std::to_string(rec.klass) + " " + std::to_string(rec.ttl);
    bool whole = dns::read_rdata(
        r, rec,
        [&](Bytes b) {
          for (size_t i = 0; i < b.size; i++) out += (snprintf(line, 4, " %02x", b.data[i]), line);
          return true;
        },
        [&](const dns::Name& n) {
          out += " " + text(n) + ".";
          return true;
        });
    out += whole ? "\n" : " !\n";
  }
  return r.ok() ? out : out + "malformed\n";
}

std::string dump(const std::vector<uint8_t>& m) { return dump(m.data(), m.size()); }

const char* const kCandidateReply =
    "id=1234 flags=8180 1/1/1/1\n"
    "? web.s2.svc.cluster.local 1\n"
    "0 web.s2.svc.cluster.local 1 1 60 0a 00 00 01\n"
    "1 cluster.local 6 1 60 ns.cluster.local. hm.cluster.local. 00 00 00 01 00 00 00 02 00 00 00 "
    "03 00 00 00 04 00 00 00 1e\n"
    "2 web.s2.svc.cluster.local 28 1 60 fd 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01\n";

TEST(CandidateReply, IsTheCandidatesOwnReply) {
  std::vector<uint8_t> reply = bytes(kReply), out(512);
  dns::Name candidate = name("web.s2.svc.cluster.local");
  size_t n = candidate_reply({Bytes{reply.data(), reply.size()}, candidate, true, kDefaultCode},
                             false, out.data(), out.size());
  ASSERT_GT(n, 0u);
  out.resize(n);
  EXPECT_EQ(dump(out), kCandidateReply);
  // Names compressed anew: the candidate's owner names point at its question.
  EXPECT_EQ(out[12 + candidate.len + 4], 0xc0);
}

TEST(CandidateReply, KeepsTheOptRecordWithoutTheOption) {
  std::vector<uint8_t> reply = bytes(kReply), out(512);
  dns::Name candidate = name("web.s2.svc.cluster.local");
  size_t n = candidate_reply({Bytes{reply.data(), reply.size()}, candidate, true, kDefaultCode},
                             true, out.data(), out.size());
  out.resize(n);
  std::string want = kCandidateReply;
  want.replace(want.find("1/1/1/1"), 7, "1/1/1/2");
  EXPECT_EQ(dump(out), want + "2 . 41 1232 0\n");
  // Another code's option stays.
  out.resize(512);
  n = candidate_reply({Bytes{reply.data(), reply.size()}, candidate, true, kDefaultCode + 1}, true,
                      out.data(), out.size());
  out.resize(n);
  EXPECT_EQ(dump(out), want + "2 . 41 1232 0 ff 97 00 04 01 00 00 00\n");
}

TEST(CandidateReply, QnameMatchedKeepsEveryAnswer) {
  std::vector<uint8_t> reply = bytes(kReply), out(512);
  size_t n = candidate_reply(
      {Bytes{reply.data(), reply.size()}, name("WEB.s1.svc.cluster.local"), false, kDefaultCode},
      false, out.data(), out.size());
  out.resize(n);
  std::string d = dump(out);
  EXPECT_NE(d.find("1/2/1/1\n? WEB.s1.svc.cluster.local 1\n"
                   "0 WEB.s1.svc.cluster.local 5 1 60 web.s2.svc.cluster.local.\n"),
            std::string::npos)
      << d;
}

TEST(CandidateReply, RefusesWhatDoesNotFitOrRead) {
  std::vector<uint8_t> reply = bytes(kReply), out(512);
  dns::Name candidate = name("web.s2.svc.cluster.local");
  const MatchedReply matched{Bytes{reply.data(), reply.size()}, candidate, true, kDefaultCode};
  size_t n = candidate_reply(matched, false, out.data(), out.size());
  EXPECT_EQ(candidate_reply(matched, false, out.data(), n - 1), 0u);
  EXPECT_EQ(candidate_reply({Bytes{reply.data(), reply.size() - 3}, candidate, true, kDefaultCode},
                            false, out.data(), out.size()),
            0u);
  // A CNAME whose rdata holds more than its name.
  std::vector<uint8_t> bad = reply;
  bad[53] = 0x0a;  // its rdlength, 9 -> 10: the name no longer ends the rdata
  EXPECT_EQ(candidate_reply({Bytes{bad.data(), bad.size()}, candidate, false, kDefaultCode}, false,
                            out.data(), out.size()),
            0u);
}

}  // namespace
}  // namespace rk8s::autopath
