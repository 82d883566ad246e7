// SPDX-License-Identifier: Apache-2.0
// The search list, packed into Config::search_text.
#include "conf/search_list.h"

namespace rk8s::conf {

// A new list replaces the old one, and with it the old one's overflow.
void search_clear(Config& c) {
  c.search_start.clear();
  c.search_len.clear();
  c.search_text.used = 0;
  c.complete = true;
}

// An empty domain is the root to glibc's walk, as "." is.
void search_add(Config& c, Str domain) {
  if (!c.complete) return;
  if (domain.size == 0) domain = str(".");
  size_t used = c.search_text.used;
  if (c.search_start.full() || domain.size > kSearchBytes - used) {
    c.complete = false;
    return;
  }
  memcpy(c.search_text.bytes + used, domain.data, domain.size);
  c.search_text.used = used + domain.size;
  c.search_start.push(uint16_t(used));
  c.search_len.push(uint16_t(domain.size));
}

void search_add_words(Config& c, Str text, CharClass sep) {
  for (text = skip(text, sep); text.size; text = skip(text, sep)) {
    Str w = word(text, sep);
    search_add(c, w);
    text = drop(text, w.size);
  }
}

}  // namespace rk8s::conf
