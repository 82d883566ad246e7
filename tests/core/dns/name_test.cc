// SPDX-License-Identifier: Apache-2.0
#include <string>

#include "dns_test_util.h"

namespace rk8s::dns {
namespace {

using test::bytes;
using test::name;
using test::text;
using test::wire;

std::string label(size_t n) { return std::string(n, 'x'); }

struct TextCase {
  const char* rule;
  std::string in;
  bool ok;
  std::string wire;
};

TEST(NameFromText, Rules) {
  const TextCase cases[] = {
      {"root_is_a_single_dot", ".", true, "00"},
      {"labels_get_length_bytes", "www.example.com", true, "03'www' 07'example' 03'com' 00"},
      {"final_dot_is_optional", "www.example.com.", true, "03'www' 07'example' 03'com' 00"},
      {"case_is_kept", "WwW", true, "03'WwW' 00"},
      {"escaped_dot_stays_in_label", "a\\.b.c", true, "03'a.b' 01'c' 00"},
      {"escaped_backslash", "a\\\\b", true, "03 61 5c 62 00"},
      {"decimal_escape", "\\065\\000b", true, "03 41 00 62 00"},
      {"decimal_escape_over_255", "\\256", false, ""},
      {"decimal_escape_needs_three_digits", "\\06", false, ""},
      {"trailing_backslash", "a\\", false, ""},
      {"empty_text", "", false, ""},
      {"empty_label_in_middle", "a..b", false, ""},
      {"empty_first_label", ".a", false, ""},
      {"two_dots", "..", false, ""},
      {"label_of_63", label(63), true, ""},
      {"label_of_64", label(64), false, ""},
      {"escaped_byte_counts_once", label(62) + "\\.", true, ""},
      {"name_of_255_bytes", label(63) + "." + label(63) + "." + label(63) + "." + label(61), true,
       ""},
      {"name_of_256_bytes", label(63) + "." + label(63) + "." + label(63) + "." + label(62), false,
       ""},
  };
  for (const TextCase& c : cases) {
    Name n;
    ASSERT_EQ(name_from_text(Str{c.in.data(), c.in.size()}, n), c.ok) << c.rule;
    if (c.ok && !c.wire.empty()) {
      EXPECT_EQ(wire(n), bytes(c.wire)) << c.rule;
    }
  }
}

TEST(NameFromText, LimitsGiveExactLengths) {
  EXPECT_EQ(name(label(63)).len, 65);
  EXPECT_EQ(name(label(62) + "\\.").len, 65);
  EXPECT_EQ(name(label(63) + "." + label(63) + "." + label(63) + "." + label(61)).len, 255);
}

TEST(NameToText, Rules) {
  const struct {
    const char* rule;
    std::string wire;
    const char* text;
  } cases[] = {
      {"root_prints_as_dot", "00", "."},
      {"no_final_dot", "03'www' 07'example' 03'com' 00", "www.example.com"},
      {"case_is_kept", "03'WeB' 00", "WeB"},
      {"dot_in_label_escaped", "03'a.b' 01'c' 00", "a\\.b.c"},
      {"zone_file_specials_escaped", "07 22 3b 28 29 40 24 5c 00", "\\\"\\;\\(\\)\\@\\$\\\\"},
      {"space_and_controls_as_decimal", "03 20 00 1f 00", "\\032\\000\\031"},
      {"high_bytes_as_decimal", "02 7f ff 00", "\\127\\255"},
      {"underscore_and_hyphen_plain", "05'_srv-' 00", "_srv-"},
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> w = bytes(c.wire);
    Name n;
    size_t off = 0;
    ASSERT_TRUE(name_from_wire(Bytes{w.data(), w.size()}, off, n)) << c.rule;
    EXPECT_EQ(text(n), c.text) << c.rule;
    EXPECT_TRUE(name_equal(name(c.text), n)) << c.rule << ": text form reads back";
  }
}

TEST(NameToText, ShortBufferTruncatesAndReportsNeededLength) {
  Name n = name("www.example.com");
  char buf[8];
  EXPECT_EQ(name_to_text(n, buf, sizeof buf), 15u);
  EXPECT_STREQ(buf, "www.exa");
  EXPECT_EQ(name_to_text(n, buf, 0), 15u);
}

TEST(NameCompare, Rules) {
  const struct {
    const char* rule;
    const char* a;
    const char* b;
    bool equal;
    bool a_ends_with_b;
  } cases[] = {
      {"same_name", "web.s1", "web.s1", true, true},
      {"ascii_case_ignored", "WEB.S1", "web.s1", true, true},
      {"parent_is_suffix", "web.svc.cluster.local", "cluster.local", false, true},
      {"root_is_suffix_of_all", "web", ".", false, true},
      {"suffix_only_on_label_boundary", "web.example.com", "ample.com", false, false},
      {"longer_is_not_suffix", "com", "example.com", false, false},
      {"same_length_different", "web.s1", "web.s2", false, false},
      {"escaped_dot_is_not_a_boundary", "a\\.b", "b", false, false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(name_equal(name(c.a), name(c.b)), c.equal) << c.rule;
    EXPECT_EQ(name_ends_with(name(c.a), name(c.b)), c.a_ends_with_b) << c.rule;
  }
}

TEST(NameConcat, Rules) {
  const struct {
    const char* rule;
    std::string base, suffix;
    bool ok;
    const char* out;
  } cases[] = {
      {"base_then_suffix", "web", "s1.svc", true, "web.s1.svc"},
      {"root_suffix_keeps_base", "web", ".", true, "web"},
      {"root_base_gives_suffix", ".", "s1", true, "s1"},
      {"255_bytes_fit", label(63) + "." + label(63), label(63) + "." + label(61), true, nullptr},
      {"256_bytes_refused", label(63) + "." + label(63), label(63) + "." + label(62), false,
       nullptr},
  };
  for (const auto& c : cases) {
    Name out;
    ASSERT_EQ(name_concat(name(c.base), name(c.suffix), out), c.ok) << c.rule;
    if (c.out) {
      EXPECT_EQ(text(out), c.out) << c.rule;
    }
  }
}

TEST(NameStripSuffix, Rules) {
  const struct {
    const char* rule;
    const char *in, *suffix;
    bool ok;
    const char* base;
  } cases[] = {
      {"labels_before_suffix", "web.s1.svc", "s1.svc", true, "web"},
      {"case_insensitive_match_keeps_case", "WEB.S1", "s1", true, "WEB"},
      {"root_suffix_keeps_name", "web.s1", ".", true, "web.s1"},
      {"whole_name_leaves_root", "s1", "s1", true, "."},
      {"not_a_suffix", "web.s1", "s2", false, nullptr},
      {"partial_label_is_not_a_suffix", "web.xs1", "s1", false, nullptr},
  };
  for (const auto& c : cases) {
    Name base;
    ASSERT_EQ(name_strip_suffix(name(c.in), name(c.suffix), base), c.ok) << c.rule;
    if (c.ok) {
      EXPECT_EQ(text(base), c.base) << c.rule;
    }
  }
}

TEST(NameLabelCount, Rules) {
  EXPECT_EQ(name_label_count(name(".")), 0u);
  EXPECT_EQ(name_label_count(name("web")), 1u);
  EXPECT_EQ(name_label_count(name("a\\.b.c.d")), 3u);
}

TEST(NameFromWire, Rules) {
  const struct {
    const char* rule;
    const char* in;
    bool ok;
    size_t end;
  } cases[] = {
      {"labels_then_root", "02'ab' 00 ff", true, 4},
      {"root_alone", "00", true, 1},
      {"pointer_refused", "01'a' c0 00", false, 0},
      {"label_past_end", "05'ab'", false, 0},
      {"missing_root", "02'ab'", false, 0},
      {"extended_label_type_refused", "41 00", false, 0},
      {"empty_input", "", false, 0},
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> w = bytes(c.in);
    Name n;
    size_t off = 0;
    ASSERT_EQ(name_from_wire(Bytes{w.data(), w.size()}, off, n), c.ok) << c.rule;
    if (c.ok) {
      EXPECT_EQ(off, c.end) << c.rule;
    }
  }
}

}  // namespace
}  // namespace rk8s::dns
