// SPDX-License-Identifier: Apache-2.0
// The search list, packed into Config::search_text.
#pragma once

#include "conf/resolv_conf.h"
#include "util/text.h"

namespace rk8s::conf {

void search_clear(Config& c);
void search_add(Config& c, Str domain);
void search_add_words(Config& c, Str text, CharClass sep);

}  // namespace rk8s::conf
