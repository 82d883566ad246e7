// SPDX-License-Identifier: Apache-2.0
#include "files/nsswitch.h"

#include <gtest/gtest.h>

namespace {

using rk8s::HostsSources;

struct Case {
  const char* rule;
  const char* text;  // nullptr: no file
  HostsSources want;
};

const Case kCases[] = {
    {"missing_file_is_files_dns", nullptr, HostsSources::files_dns},
    {"no_hosts_line_is_files_dns", "passwd: files\n", HostsSources::files_dns},
    {"debian_default", "passwd: files\nhosts:          files dns\n", HostsSources::files_dns},
    {"rhel_myhostname_after_dns", "hosts: files dns myhostname\n", HostsSources::files_dns_then_libc},
    {"mdns_before_dns_goes_to_libc", "hosts: files mdns4_minimal [NOTFOUND=return] dns\n",
     HostsSources::libc},
    {"resolve_first_goes_to_libc", "hosts: resolve [!UNAVAIL=return] files dns\n", HostsSources::libc},
    {"dns_only", "hosts: dns\n", HostsSources::dns},
    {"files_only_goes_to_libc", "hosts: files\n", HostsSources::libc},
    {"empty_hosts_line_goes_to_libc", "hosts:\n", HostsSources::libc},
    {"last_line_without_newline_is_ignored", "hosts: files\n" "hosts: dns myhostname",
     HostsSources::libc},
    {"last_hosts_line_wins", "hosts: files\nhosts: files dns\n", HostsSources::files_dns},
    {"no_comments_hash_is_a_source_after_dns", "hosts: files dns # x\n",
     HostsSources::files_dns_then_libc},
    {"commented_line_is_another_database", "#hosts: files\nhosts: files dns\n",
     HostsSources::files_dns},
    {"files_with_notfound_return_goes_to_libc", "hosts: files [NOTFOUND=return] dns\n",
     HostsSources::libc},
    {"dns_notfound_return_is_harmless", "hosts: files dns [NOTFOUND=return]\n",
     HostsSources::files_dns},
    {"dns_success_continue_goes_to_libc", "hosts: files dns [SUCCESS=continue]\n", HostsSources::libc},
    {"actions_are_case_insensitive", "hosts: files dns [notfound=Return] myhostname\n",
     HostsSources::files_dns_then_libc},
    {"syntax_error_in_other_database_fails_all", "passwd: files [BOGUS=return]\nhosts: files dns\n",
     HostsSources::libc},
    {"syntax_error_unclosed_bracket", "hosts: files dns [NOTFOUND=return\n", HostsSources::libc},
    {"unknown_database_not_parsed", "sudoers: files [BOGUS]\nhosts: files dns\n",
     HostsSources::files_dns},
    {"colon_optional_and_leading_space", "   hosts files  dns\n", HostsSources::files_dns},
    {"source_name_ends_at_bracket", "hosts: files dns[NOTFOUND=return]\n", HostsSources::files_dns},
};

TEST(Nsswitch, Rules) {
  for (const Case& c : kCases) {
    size_t len = c.text ? strlen(c.text) : 0;
    EXPECT_EQ(int(rk8s::nsswitch_hosts(c.text, len)), int(c.want)) << c.rule;
  }
}

TEST(Nsswitch, NulByteEndsTheLine) {
  const char text[] = "hosts: files dns\0 myhostname\n";
  EXPECT_EQ(int(rk8s::nsswitch_hosts(text, sizeof text - 1)), int(HostsSources::files_dns));
}

}  // namespace
