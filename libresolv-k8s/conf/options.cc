// SPDX-License-Identifier: Apache-2.0
// The words of `options` lines (and of RES_OPTIONS), in both dialects.
#include "conf/options.h"

#include "util/text.h"

namespace rk8s::conf {

// atoi() as glibc has it: strtol() clamped to the long range, then cut to int.
static int32_t glibc_atoi(Str s) {
  s = skip(s, is_space);
  bool negative = s.size && s.data[0] == '-';
  if (s.size && (s.data[0] == '-' || s.data[0] == '+')) s = drop(s, 1);
  uint64_t magnitude = 0;
  for (size_t i = 0; i < s.size && is_digit(s.data[i]); i++)
    magnitude = magnitude > INT64_MAX / 10 ? UINT64_MAX : magnitude * 10 + unsigned(s.data[i] - '0');
  int64_t value;
  if (negative)
    value = magnitude >= uint64_t(1) << 63 ? INT64_MIN : -int64_t(magnitude);
  else
    value = magnitude > INT64_MAX ? INT64_MAX : int64_t(magnitude);
  return int32_t(uint32_t(uint64_t(value)));
}

// A value above the cap takes the cap; glibc stores a negative one unchanged,
// which behaves as 0 for timeout and attempts.
static uint8_t capped(int64_t v, unsigned cap, Config& c) {
  if (v > int64_t(cap)) {
    c.warnings |= kWarnOptionCapped;
    return uint8_t(cap);
  }
  return v < 0 ? 0 : uint8_t(v);
}

static bool autopath_code(Str digits, uint16_t& out) {
  if (digits.size == 0 || digits.size > 5 || skip(digits, is_digit).size) return false;
  unsigned v = 0;
  for (size_t i = 0; i < digits.size; i++) v = v * 10 + unsigned(digits.data[i] - '0');
  if (v < autopath::kMinCode || v > autopath::kMaxCode) return false;
  out = uint16_t(v);
  return true;
}

// The project's own words; any other word starting k8s-autopath is a mistake
// worth a warning, and changes nothing.
static void project_word(Str w, Config& c) {
  if (!starts_with(w, "k8s-autopath")) return;
  if (w == str("k8s-autopath:on"))
    c.opt.autopath = true;
  else if (w == str("k8s-autopath:off"))
    c.opt.autopath = false;
  else if (!starts_with(w, "k8s-autopath-code:") || !autopath_code(drop(w, 18), c.opt.autopath_code))
    c.warnings |= kWarnBadProjectOption;
}

// glibc's res_setoptions: blank-separated words matched by prefix; a number
// is read by atoi() from right after the colon, across blanks if need be.
// A word newer than the running release is one it does not know; from
// 2.41 on a leading '-' clears a flag (95f61610f3).
void glibc_options(Str s, Config& c) {
  static const struct {
    const char* name;
    bool Options::*flag;
    uint32_t since;
  } flags[] = {
      {"rotate", &Options::rotate, 0},
      {"edns0", &Options::edns0, 0},
      {"single-request-reopen", &Options::single_request_reopen, 0},
      {"single-request", &Options::single_request, 0},
      {"no_tld_query", &Options::no_tld_query, 0},
      {"no-tld-query", &Options::no_tld_query, 0},
      {"no-reload", &Options::no_reload, 0},
      {"use-vc", &Options::use_vc, 0},
      {"trust-ad", &Options::trust_ad, release(2, 31)},
      {"no-aaaa", &Options::no_aaaa, release(2, 36)},
      {"strict-error", &Options::strict_error, release(2, 41)},
  };
  for (s = skip(s, is_blank); s.size; s = skip(s, is_blank)) {
    if (starts_with(s, "ndots:")) {
      // glibc keeps the value in a 4-bit field: -1 ends up 15, -16 ends up 0.
      int32_t v = glibc_atoi(drop(s, 6));
      c.opt.ndots = v > 15 ? capped(v, 15, c) : uint8_t(uint32_t(v) & 15);
    } else if (starts_with(s, "timeout:")) {
      c.opt.timeout = capped(glibc_atoi(drop(s, 8)), 30, c);
    } else if (starts_with(s, "attempts:")) {
      c.opt.attempts = capped(glibc_atoi(drop(s, 9)), 5, c);
    } else {
      bool known = false, off = c.release >= release(2, 41) && s.data[0] == '-';
      Str w = drop(s, off);
      for (const auto& f : flags) {
        if (starts_with(w, f.name) && c.release >= f.since) {
          c.opt.*f.flag = !off;
          known = true;
          break;
        }
      }
      if (!known) project_word(word(s, is_blank), c);
    }
    s = drop(s, word(s, is_blank).size);
  }
}

// musl: the first occurrence of each key anywhere on the line, when a digit
// follows it; numbers saturate like strtoul before the cap.
void musl_options(Str line, Config& c) {
  static const struct {
    const char* key;
    uint8_t Options::*field;
    unsigned cap;
  } keys[] = {
      {"ndots:", &Options::ndots, 15},
      {"attempts:", &Options::attempts, 10},
      {"timeout:", &Options::timeout, 60},
  };
  for (const auto& k : keys) {
    Str digits = drop(line, find(line, k.key) + strlen(k.key));
    if (digits.size == 0 || !is_digit(digits.data[0])) continue;
    uint64_t v = 0;
    for (size_t i = 0; i < digits.size && is_digit(digits.data[i]); i++) v = v > k.cap ? v : v * 10 + unsigned(digits.data[i] - '0');
    c.opt.*k.field = capped(int64_t(v), k.cap, c);
  }
  Str words = drop(line, strlen("options"));
  for (words = skip(words, is_space); words.size; words = skip(words, is_space)) {
    Str w = word(words, is_space);
    project_word(w, c);
    words = drop(words, w.size);
  }
}

}  // namespace rk8s::conf
