// SPDX-License-Identifier: Apache-2.0
// The status annotation (resolv-k8s.io/injected): what a run asked for and
// added, written and read back, what a later run keeps of it, and the words
// for what changed.
#include "tools/inject/inject_status.h"

#include <gtest/gtest.h>

#include "resolv-k8s.h"
#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

using test::options_of;
const std::string kVersion = "\"version\":\"" RK8S_VERSION "\"";

// A status as a first run with nameservers and node search domains writes it.
InjectStatus injected_with_dns() {
  InjectStatus s = status_of(options_of(
      {"--image", test::kImage, "--nameserver", "169.254.20.10,10.96.0.10", "--host-search", "ec2.internal"}));
  s.added_library = true;
  s.set_policy = true;
  s.added_nameservers = {"169.254.20.10", "10.96.0.10"};
  s.added_searches = {"shop.svc.cluster.local", "svc.cluster.local", "cluster.local", "ec2.internal"};
  s.added_options = {"ndots", "timeout", "attempts", "k8s-autopath"};
  return s;
}

struct TextCase {
  InjectStatus status;
  std::string text;
};

TEST(StatusText, CompactJsonOfWhatWasAskedAndAdded) {
  InjectStatus own_policy = injected_with_dns();
  own_policy.policy_before = "ClusterFirst";
  own_policy.added_nameservers = {"169.254.20.10"};
  InjectStatus marker = status_of(options_of({"--autopath", "marker", "--nameserver", "169.254.20.10",
                                              "--cluster-domain", "corp.local", "--image", test::kImage}));
  InjectStatus library_alone = status_of(options_of({"--image", test::kImage, "--libc", "musl"}));
  library_alone.added_library = true;
  library_alone.added_options = {"k8s-autopath"};
  const TextCase cases[] = {
      {injected_with_dns(),
       "{\"added\":{\"dnsPolicy\":\"\",\"library\":true,\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\"],"
       "\"options\":[\"ndots\",\"timeout\",\"attempts\",\"k8s-autopath\"],\"searches\":[\"shop.svc.cluster.local\","
       "\"svc.cluster.local\",\"cluster.local\",\"ec2.internal\"]},\"autopath\":\"option\",\"clusterDomain\":"
       "\"cluster.local\",\"hostSearch\":[\"ec2.internal\"],\"image\":\"registry.example.com/dns/"
       "libresolv-k8s-init:1\",\"libc\":\"auto\",\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\"]," +
           kVersion + "}"},
      {own_policy,
       "{\"added\":{\"dnsPolicy\":\"ClusterFirst\",\"library\":true,\"nameservers\":[\"169.254.20.10\"],"
       "\"options\":[\"ndots\",\"timeout\",\"attempts\",\"k8s-autopath\"],\"searches\":[\"shop.svc.cluster.local\","
       "\"svc.cluster.local\",\"cluster.local\",\"ec2.internal\"]},\"autopath\":\"option\",\"clusterDomain\":"
       "\"cluster.local\",\"hostSearch\":[\"ec2.internal\"],\"image\":\"registry.example.com/dns/"
       "libresolv-k8s-init:1\",\"libc\":\"auto\",\"nameservers\":[\"169.254.20.10\",\"10.96.0.10\"]," +
           kVersion + "}"},
      // The marker path has no image nor libc; nothing added, no "added".
      {marker, "{\"autopath\":\"marker\",\"clusterDomain\":\"corp.local\",\"nameservers\":[\"169.254.20.10\"]," +
                   kVersion + "}"},
      // Without nameservers the cluster domain says nothing: left out.
      {library_alone,
       "{\"added\":{\"library\":true,\"options\":[\"k8s-autopath\"]},\"autopath\":\"option\","
       "\"image\":\"registry.example.com/dns/libresolv-k8s-init:1\",\"libc\":\"musl\"," +
           kVersion + "}"},
  };
  for (const TextCase& c : cases) EXPECT_EQ(c.text, status_text(c.status));
}

TEST(ParseStatus, ReadsBackWhatStatusTextWrote) {
  InjectStatus own_policy = injected_with_dns();
  own_policy.policy_before = "ClusterFirstWithHostNet";
  InjectStatus marker = status_of(options_of({"--autopath", "marker", "--nameserver", "169.254.20.10"}));
  for (const InjectStatus& s : {injected_with_dns(), own_policy, marker, InjectStatus{}}) {
    InjectStatus back;
    ASSERT_TRUE(parse_status(status_text(s), back)) << status_text(s);
    EXPECT_EQ(status_text(s), status_text(back));
    EXPECT_EQ(s.added_library, back.added_library);
    EXPECT_EQ(s.set_policy, back.set_policy);
    EXPECT_EQ(s.policy_before, back.policy_before);
    EXPECT_EQ(s.marker, back.marker);
    EXPECT_EQ(s.added_searches, back.added_searches);
  }
}

TEST(ParseStatus, RefusesWhatInjectDoesNotWrite) {
  const char* cases[] = {
      "",
      "not json",
      "[]",
      "{}",
      "{\"autopath\":\"both\"}",
      "{\"autopath\":\"option\",\"image\":5}",
      "{\"autopath\":\"option\",\"nameservers\":\"10.96.0.10\"}",
      "{\"autopath\":\"option\",\"nameservers\":[10]}",
      "{\"autopath\":\"option\",\"added\":[]}",
      "{\"autopath\":\"option\",\"added\":{\"library\":\"yes\"}}",
      "{\"autopath\":\"option\",\"added\":{\"dnsPolicy\":1}}",
      "{\"autopath\":\"option\",\"added\":{\"searches\":[null]}}",
      "{\"autopath\":\"option\",\"autopath\":\"marker\"}",  // a key twice
  };
  for (const char* text : cases) {
    InjectStatus s;
    EXPECT_FALSE(parse_status(text, s)) << text;
  }
  InjectStatus s;
  EXPECT_TRUE(parse_status("{\"autopath\":\"marker\"}", s));
  EXPECT_TRUE(s.marker);
}

struct KeepCase {
  Args flags;
  std::string kept;  // the settings with_status_settings gives
};

std::string settings(const InjectOptions& o) {
  std::string out = o.marker ? "marker" : "option";
  out += " image=" + o.image + " libc=" + o.libc + " domain=" + o.cluster_domain + " ns=";
  for (const std::string& n : o.nameservers) out += n + ",";
  out += " host=";
  for (const std::string& d : o.host_search) out += d + ",";
  return out;
}

TEST(WithStatusSettings, ALaterRunKeepsWhatItIsNotGiven) {
  InjectStatus before =
      status_of(options_of({"--image", "old/init:1", "--libc", "musl", "--nameserver", "169.254.20.10",
                            "--cluster-domain", "corp.local", "--host-search", "ec2.internal"}));
  const KeepCase cases[] = {
      {{}, "option image=old/init:1 libc=musl domain=corp.local ns=169.254.20.10, host=ec2.internal,"},
      {{"--image", test::kImage},
       "option image=registry.example.com/dns/libresolv-k8s-init:1 libc=musl domain=corp.local ns=169.254.20.10, "
       "host=ec2.internal,"},
      {{"--libc", "auto"}, "option image=old/init:1 libc=auto domain=corp.local ns=169.254.20.10, host=ec2.internal,"},
      // '' is given: none, not the ones before.
      {{"--nameserver", "", "--host-search", ""}, "option image=old/init:1 libc=musl domain=corp.local ns= host="},
      {{"--nameserver", "10.0.0.10", "--cluster-domain", "cluster.local"},
       "option image=old/init:1 libc=musl domain=cluster.local ns=10.0.0.10, host=ec2.internal,"},
      {{"--autopath", "marker"},
       "marker image=old/init:1 libc=musl domain=corp.local ns=169.254.20.10, host=ec2.internal,"},
  };
  for (const KeepCase& c : cases)
    EXPECT_EQ(c.kept, settings(with_status_settings(options_of(c.flags), before))) << testing::PrintToString(c.flags);

  // The marker path kept no image: a later run's default stays.
  InjectStatus marker = status_of(options_of({"--autopath", "marker", "--nameserver", "169.254.20.10"}));
  EXPECT_EQ("marker image= libc=auto domain=cluster.local ns=169.254.20.10, host=",
            settings(with_status_settings(options_of({}), marker)));
  EXPECT_EQ(
      "option image=registry.example.com/dns/libresolv-k8s-init:1 libc=auto domain=cluster.local "
      "ns=169.254.20.10, host=",
      settings(with_status_settings(options_of({"--autopath", "option", "--image", test::kImage}), marker)));
}

struct ChangeCase {
  Args before, after;
  std::string changed;
};

TEST(SettingsChanged, TheSettingsThatDifferInWords) {
  const Args dns = {"--image", test::kImage, "--nameserver", "169.254.20.10,10.96.0.10"};
  const ChangeCase cases[] = {
      {dns, dns, ""},
      {{"--image", "old/init:1"}, {"--image", "new/init:2"}, "image old/init:1 -> new/init:2"},
      {{"--image", test::kImage}, dns, "nameservers [] -> [169.254.20.10 10.96.0.10]"},
      {dns,
       {"--image", test::kImage, "--nameserver", "10.0.0.10", "--libc", "glibc"},
       "libc auto -> glibc; nameservers [169.254.20.10 10.96.0.10] -> [10.0.0.10]"},
      {dns,
       {"--image", test::kImage, "--nameserver", "169.254.20.10,10.96.0.10", "--host-search", "ec2.internal"},
       "node search domains [] -> [ec2.internal]"},
      // The cluster domain matters only where both wrote DNS.
      {dns,
       {"--image", test::kImage, "--nameserver", "169.254.20.10,10.96.0.10", "--cluster-domain", "corp.local"},
       "cluster domain cluster.local -> corp.local"},
      {{"--image", test::kImage}, {"--image", test::kImage, "--cluster-domain", "corp.local"}, ""},
      {dns,
       {"--autopath", "marker", "--nameserver", "169.254.20.10,10.96.0.10"},
       "autopath option -> marker; image registry.example.com/dns/libresolv-k8s-init:1 -> -; libc auto -> -"},
  };
  for (const ChangeCase& c : cases)
    EXPECT_EQ(c.changed, settings_changed(status_of(options_of(c.before)), status_of(options_of(c.after))))
        << testing::PrintToString(c.before) << " then " << testing::PrintToString(c.after);
}

}  // namespace
}  // namespace rk8s::tools
