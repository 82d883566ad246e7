// SPDX-License-Identifier: Apache-2.0
// Comparing and composing wire-form names.
#include "dns/wire.h"
#include "util/text.h"

namespace rk8s::dns {

// Length bytes (0..63) are never ASCII letters, so whole wire names compare
// byte by byte.
static bool equal_nocase(const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (ascii_lower(char(a[i])) != ascii_lower(char(b[i]))) return false;
  return true;
}

// Where `suffix` starts in `name` on a label boundary.
static bool find_suffix(const Name& name, const Name& suffix, size_t& at) {
  for (size_t p = 0; p < name.len && name.len - p >= suffix.len; p += name.wire[p] + 1) {
    if (name.len - p == suffix.len) {
      at = p;
      return equal_nocase(name.wire + p, suffix.wire, suffix.len);
    }
  }
  return false;
}

bool name_equal(const Name& a, const Name& b) {
  return a.len == b.len &&
         (memcmp(a.wire, b.wire, a.len) == 0 || equal_nocase(a.wire, b.wire, a.len));
}

bool name_ends_with(const Name& name, const Name& suffix) {
  size_t at;
  return find_suffix(name, suffix, at);
}

bool name_concat(const Name& base, const Name& suffix, Name& out) {
  size_t head = base.len - 1;
  if (head + suffix.len > kMaxName) return false;
  Name joined;
  memcpy(joined.wire, base.wire, head);
  memcpy(joined.wire + head, suffix.wire, suffix.len);
  joined.len = uint8_t(head + suffix.len);
  out = joined;
  return true;
}

bool name_strip_suffix(const Name& name, const Name& suffix, Name& base) {
  size_t at;
  if (!find_suffix(name, suffix, at)) return false;
  Name head;
  memcpy(head.wire, name.wire, at);
  head.wire[at] = 0;
  head.len = uint8_t(at + 1);
  base = head;
  return true;
}

size_t name_label_count(const Name& name) {
  size_t n = 0;
  for (size_t p = 0; p < name.len && name.wire[p] != 0; p += name.wire[p] + 1) n++;
  return n;
}

}  // namespace rk8s::dns
