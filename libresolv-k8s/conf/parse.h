// SPDX-License-Identifier: Apache-2.0
// What the resolv.conf dialects (glibc.cc, musl.cc) share: the search list
// and the options words.
#pragma once

#include "conf/resolv_conf.h"
#include "util/text.h"

namespace rk8s::conf {

// search.cc
void search_clear(Config& c);
void search_add(Config& c, Str domain);
void search_add_words(Config& c, Str text, CharClass sep);

// options.cc
void glibc_options(Str text, Config& c);
void musl_options(Str line, Config& c);

void parse_glibc(Str text, const ConfEnv& env, Config& c);
void parse_musl(Str text, Config& c);

}  // namespace rk8s::conf
