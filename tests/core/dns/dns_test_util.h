// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the wire and autopath tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dns/wire.h"

namespace rk8s::dns::test {

inline Name name(const std::string& text) {
  Name n;
  EXPECT_TRUE(name_from_text(Str{text.data(), text.size()}, n)) << text;
  return n;
}

inline std::string text(const Name& n) {
  char buf[1100];
  name_to_text(n, buf, sizeof buf);
  return buf;
}

inline std::vector<uint8_t> wire(const Name& n) { return {n.wire, n.wire + n.len}; }

// "03 'www' 00": hex bytes, and ASCII between single quotes.
inline std::vector<uint8_t> bytes(const std::string& s) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == ' ') continue;
    if (s[i] == '\'') {
      for (i++; s[i] != '\''; i++) out.push_back(uint8_t(s[i]));
      continue;
    }
    out.push_back(uint8_t(std::stoi(s.substr(i, 2), nullptr, 16)));
    i++;
  }
  return out;
}

// A reply with every section; the CNAME target and SOA names are in rdata.
inline const char* const kReply =
    "12 34 81 80 0001 0002 0001 0002"
    "03'web' 02's1' 03'svc' 07'cluster' 05'local' 00 0001 0001"  // 12: question
    "c0 0c 0005 0001 0000003c 0009 03'web' 02's2' c0 13"         // 42: CNAME, 54: target
    "c0 36 0001 0001 0000003c 0004 0a 00 00 01"                  // A
    "c0 17 0006 0001 0000003c 001e 02'ns' c0 17 02'hm' c0 17"    // SOA cluster.local
    "00000001 00000002 00000003 00000004 0000001e"
    "c0 36 001c 0001 0000003c 0010 fd00 0000 0000 0000 0000 0000 0000 0001"
    "00 0029 04d0 00000000 0008 ff97 0004 01 00 00 00";  // OPT, autopath reply

}  // namespace rk8s::dns::test
