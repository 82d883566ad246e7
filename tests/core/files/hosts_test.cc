// SPDX-License-Identifier: Apache-2.0
// /etc/hosts lookups as glibc 2.36 nss_files and musl 1.2.3 name_from_hosts
// do them: one case per rule.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netdb.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "files/hosts.h"

namespace rk8s {
namespace {

using D = Dialect;

struct Case {
  const char* rule;
  D dialect;
  int family;
  bool multi;
  std::string file;
  std::string name;
  std::string expect;  // "addr addr | canon | alias alias", "none", "EAI_NONAME", "incomplete"
  uint32_t release = 0;
};

std::string render(const HostsResult& r) {
  if (!r.complete) return "incomplete";
  if (r.error) return r.error == EAI_NONAME ? "EAI_NONAME" : r.error == EAI_NODATA ? "EAI_NODATA" : "error?";
  if (!r.found()) return "none";
  std::string s;
  for (const IpAddr& a : r.addrs) {
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(a.family, a.addr, buf, sizeof buf);
    s += (s.empty() ? "" : " ") + std::string(buf);
    if (a.scope_id) s += "%" + std::to_string(a.scope_id);
  }
  s += " | " + std::string(r.canon());
  if (r.alias_count()) s += " |";
  for (size_t i = 0; i < r.alias_count(); i++) s += " " + std::string(r.alias(i));
  return s;
}

const int U = AF_UNSPEC, V4 = AF_INET, V6 = AF_INET6;
const std::string kTwo = "1.1.1.1 a\n2.2.2.2 a\n";

std::string fifty_lines() {
  std::string s;
  for (int i = 1; i <= 50; i++) s += "10.0.0." + std::to_string(i) + " many\n";
  return s;
}

const Case kCases[] = {
    // glibc
    {"glibc_ignores_case", D::glibc, U, false, "1.2.3.4 Web\n", "wEB", "1.2.3.4 | Web"},
    {"glibc_first_line_only_without_multi", D::glibc, U, false, kTwo, "a", "1.1.1.1 | a"},
    {"glibc_multi_every_line", D::glibc, U, true, kTwo, "a", "1.1.1.1 2.2.2.2 | a"},
    {"glibc_unspec_each_line_its_family", D::glibc, U, true, "127.0.0.1 localhost\n::1 localhost\n", "localhost",
     "127.0.0.1 ::1 | localhost"},
    {"glibc_canon_is_first_h_name", D::glibc, U, true, "1.1.1.1 main al\n2.2.2.2 other al\n", "al",
     "1.1.1.1 2.2.2.2 | main"},
    {"glibc_unspec_no_aliases", D::glibc, U, false, "1.1.1.1 main a1 a2\n", "a2", "1.1.1.1 | main"},
    {"glibc_single_family_aliases", D::glibc, V4, false, "1.1.1.1 main a1 a2\n", "a2", "1.1.1.1 | main | a1 a2"},
    {"glibc_multi_adds_aliases_and_other_h_names", D::glibc, V4, true, "1.1.1.1 m a\n2.2.2.2 n a\n3.3.3.3 m a\n",
     "a", "1.1.1.1 2.2.2.2 3.3.3.3 | m | a a n a"},
    {"glibc_hash_starts_comment", D::glibc, U, false, "1.1.1.1 a#b\n", "b", "none"},
    {"glibc_name_before_hash_kept", D::glibc, U, false, "1.1.1.1 a#b\n", "a", "1.1.1.1 | a"},
    {"glibc_comment_line_skipped", D::glibc, U, false, "#1.1.1.1 a\n", "a", "none"},
    {"glibc_leading_white_space_skipped", D::glibc, U, false, " \t1.1.1.1 a\n", "a", "1.1.1.1 | a"},
    {"glibc_last_line_white_space_repeats_tail", D::glibc, U, false, "  1.1.1.1 ab", "abab", "1.1.1.1 | abab"},
    {"glibc_last_line_white_space_loses_name", D::glibc, U, false, "  1.1.1.1 ab", "ab", "none"},
    {"glibc_last_line_without_newline_read", D::glibc, U, false, "1.1.1.1 a", "a", "1.1.1.1 | a"},
    {"glibc_carriage_return_is_white_space", D::glibc, U, false, "1.1.1.1 a\r\n", "a", "1.1.1.1 | a"},
    {"glibc_nul_ends_line", D::glibc, U, false, std::string("1.1.1.1 a\0b\n", 12), "b", "none"},
    {"glibc_line_of_any_length", D::glibc, U, false, "1.1.1.1 main " + std::string(5000, 'x') + " a\n", "a",
     "1.1.1.1 | main"},
    {"glibc_strict_ipv4_no_short_form", D::glibc, U, false, "127.1 a\n", "a", "none"},
    {"glibc_strict_ipv4_no_leading_zero", D::glibc, U, false, "010.0.0.1 a\n", "a", "none"},
    {"glibc_af_inet_takes_v4_mapped", D::glibc, V4, false, "::ffff:1.2.3.4 a\n", "a", "1.2.3.4 | a"},
    {"glibc_af_inet_takes_ipv6_loopback", D::glibc, V4, false, "::1 a\n", "a", "127.0.0.1 | a"},
    {"glibc_af_inet_skips_other_ipv6", D::glibc, V4, false, "2001:db8::1 a\n1.1.1.1 a\n", "a", "1.1.1.1 | a"},
    {"glibc_af_inet6_skips_ipv4", D::glibc, V6, false, "1.1.1.1 a\n", "a", "none"},
    {"glibc_unspec_v4_mapped_stays_ipv6", D::glibc, U, false, "::ffff:1.2.3.4 a\n", "a", "::ffff:1.2.3.4 | a"},
    {"glibc_scope_not_an_address", D::glibc, U, false, "fe80::1%1 a\n", "a", "none"},
    {"glibc_address_only_line", D::glibc, U, false, "1.1.1.1\n", "a", "none"},
    {"glibc_more_than_48_addresses_incomplete", D::glibc, U, true, fifty_lines(), "many", "incomplete"},
    // musl
    {"musl_case_sensitive", D::musl, U, false, "1.2.3.4 Web\n", "web", "none"},
    {"musl_every_line", D::musl, U, false, kTwo, "a", "1.1.1.1 2.2.2.2 | a"},
    {"musl_inet_aton_forms", D::musl, U, false, "127.1 a\n0x7f.0.0.2 a\n017.0.0.3 a\n", "a",
     "127.0.0.1 127.0.0.2 15.0.0.3 | a"},
    {"musl_last_name_needs_newline", D::musl, U, false, "1.1.1.1 a", "a", "none"},
    {"musl_inner_name_without_newline", D::musl, U, false, "1.1.1.1 a b", "a", "1.1.1.1 | a"},
    {"musl_leading_white_space_line_skipped", D::musl, U, false, " 1.1.1.1 a\n", "a", "none"},
    {"musl_name_before_hash_kept", D::musl, U, false, "1.1.1.1 a#b\n", "a", "1.1.1.1 | a"},
    {"musl_name_after_hash_ignored", D::musl, U, false, "1.1.1.1 a #b\n", "b", "none"},
    {"musl_canon_first_name_of_line", D::musl, U, false, "1.1.1.1 main a\n", "a", "1.1.1.1 | main"},
    {"musl_canon_skips_invalid_hostname", D::musl, U, false, "1.1.1.1 a_b a\n2.2.2.2 c a\n", "a",
     "1.1.1.1 2.2.2.2 | c"},
    {"musl_canon_defaults_to_name", D::musl, U, false, "1.1.1.1 a_b a\n", "a", "1.1.1.1 | a"},
    {"musl_other_family_only_fails", D::musl, V6, false, "1.1.1.1 a\n", "a", "EAI_NONAME"},
    {"musl_other_family_line_skipped_when_found", D::musl, V6, false, "1.1.1.1 a\n::1 a\n", "a", "::1 | a"},
    {"musl_af_inet_skips_ipv6", D::musl, V4, false, "::1 a\n", "a", "EAI_NONAME"},
    {"musl124_other_family_only_nodata", D::musl, V6, false, "1.1.1.1 a\n", "a", "EAI_NODATA", release(1, 2, 4)},
    {"musl124_bad_scope_nodata", D::musl, U, false, "2001:db8::1%lo a\n", "a", "EAI_NODATA", release(1, 2, 4)},
    {"musl_numeric_scope", D::musl, U, false, "fe80::1%2 a\n", "a", "fe80::1%2 | a"},
    {"musl_interface_scope_link_local", D::musl, U, false, "fe80::1%lo a\n", "a", "fe80::1%1 | a"},
    {"musl_interface_scope_not_link_local", D::musl, U, false, "2001:db8::1%lo a\n", "a", "EAI_NONAME"},
    {"musl_line_read_in_511_byte_chunks", D::musl, U, false, "1.1.1.1 " + std::string(503, 'x') + "2.2.2.2 a\n",
     "a", "2.2.2.2 | a"},
    {"musl_at_most_48_addresses", D::musl, U, false, fifty_lines(), "many",
     [] {
       std::string s;
       for (int i = 1; i <= 48; i++) s += (i > 1 ? " " : "") + ("10.0.0." + std::to_string(i));
       return s + " | many";
     }()},
};

class HostsRule : public testing::TestWithParam<Case> {};

TEST_P(HostsRule, Lookup) {
  const Case& c = GetParam();
  HostsResult r;
  HostsQuery q{c.dialect, c.family, c.multi, c.release};
  LineReader text(Str{c.file.data(), c.file.size()});
  size_t n = hosts_lookup(q, text, Str{c.name.data(), c.name.size()}, r);
  EXPECT_EQ(n, r.addrs.count);
  EXPECT_EQ(render(r), c.expect);
}

// The same file streamed from a descriptor, as the library reads
// /etc/hosts: the same result.
TEST_P(HostsRule, Streamed) {
  const Case& c = GetParam();
  int fd = memfd_create("hosts", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, c.file.data(), c.file.size()), ssize_t(c.file.size()));
  lseek(fd, 0, SEEK_SET);
  char buf[16384];
  LineReader lines(fd, buf, sizeof buf);
  HostsResult r;
  HostsQuery q{c.dialect, c.family, c.multi, c.release};
  hosts_lookup(q, lines, Str{c.name.data(), c.name.size()}, r);
  EXPECT_EQ(render(r), c.expect);
  close(fd);
}

INSTANTIATE_TEST_SUITE_P(Rules, HostsRule, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& i) { return std::string(i.param.rule); });

}  // namespace
}  // namespace rk8s
