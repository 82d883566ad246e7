// SPDX-License-Identifier: Apache-2.0
// The flags inject and webhook share: each read into its setting, bad
// values refused by name, what the flags need of each other, and the
// node's search domains read from a pod's resolv.conf.
#include "tools/inject/inject_options.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

using test::expect_usage_error;
using test::temp_file;
using Strings = std::vector<std::string>;

std::string words(const Strings& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : " ") + s;
  return "[" + out + "]";
}

// The options as one line a table can name, and the flags said given.
std::string summary(const InjectOptions& o) {
  std::string given;
  const std::pair<bool, const char*> flags[] = {{o.given.image, "image"},
                                                {o.given.libc, "libc"},
                                                {o.given.nameservers, "nameservers"},
                                                {o.given.cluster_domain, "cluster-domain"},
                                                {o.given.marker, "autopath"},
                                                {o.given.host_search, "host-search"}};
  for (auto [set, name] : flags)
    if (set) given += std::string(given.empty() ? "" : ",") + name;
  return "image=" + o.image + " libc=" + o.libc + " ns=" + words(o.nameservers) + " domain=" + o.cluster_domain +
         (o.marker ? " marker=" + o.marker_domain : "") + " host=" + words(o.host_search) + " init=" + o.init_cpu +
         "/" + o.init_memory + " given=" + given;
}

const char kDefaults[] = "image= libc=auto ns=[] domain=cluster.local host=[] init=10m/16Mi given=";

// Every flag of `args` read, and what is left unread.
std::string read_all(const Args& args) {
  InjectOptions o;
  std::string unread;
  for (size_t i = 0; i < args.size(); i++)
    if (!read_inject_flag("inject", args, i, o)) unread += " unread " + args[i];
  return summary(o) + unread;
}

struct FlagCase {
  Args args;
  std::string options;
};

TEST(ReadInjectFlag, EachFlagSetsItsOptionAndSaysItWasGiven) {
  const FlagCase cases[] = {
      {{}, kDefaults},
      {{"--image", test::kImage},
       "image=registry.example.com/dns/libresolv-k8s-init:1 libc=auto ns=[] domain=cluster.local host=[] "
       "init=10m/16Mi given=image"},
      {{"--libc", "musl"}, "image= libc=musl ns=[] domain=cluster.local host=[] init=10m/16Mi given=libc"},
      {{"--libc", "glibc"}, "image= libc=glibc ns=[] domain=cluster.local host=[] init=10m/16Mi given=libc"},
      // A comma-separated list, or the flag again; '' for none, which is given too.
      {{"--nameserver", "169.254.20.10,10.96.0.10"},
       "image= libc=auto ns=[169.254.20.10 10.96.0.10] domain=cluster.local host=[] init=10m/16Mi given=nameservers"},
      {{"--nameserver", "169.254.20.10", "--nameserver", "fd00:10:96::a"},
       "image= libc=auto ns=[169.254.20.10 fd00:10:96::a] domain=cluster.local host=[] init=10m/16Mi "
       "given=nameservers"},
      {{"--nameserver", ""}, "image= libc=auto ns=[] domain=cluster.local host=[] init=10m/16Mi given=nameservers"},
      {{"--nameserver", "1.1.1.1,,2.2.2.2"},
       "image= libc=auto ns=[1.1.1.1 2.2.2.2] domain=cluster.local host=[] init=10m/16Mi given=nameservers"},
      // The root's dot dropped, as kubelet's --cluster-domain has none.
      {{"--cluster-domain", "corp.local."},
       "image= libc=auto ns=[] domain=corp.local host=[] init=10m/16Mi given=cluster-domain"},
      {{"--autopath", "marker"},
       "image= libc=auto ns=[] domain=cluster.local marker=ap.k8s.io host=[] init=10m/16Mi given=autopath"},
      {{"--autopath", "option"}, "image= libc=auto ns=[] domain=cluster.local host=[] init=10m/16Mi given=autopath"},
      {{"--autopath", "marker", "--marker", "ap.example"},
       "image= libc=auto ns=[] domain=cluster.local marker=ap.example host=[] init=10m/16Mi given=autopath"},
      {{"--host-search", "ec2.internal,corp.example", "--host-search", "lab.example"},
       "image= libc=auto ns=[] domain=cluster.local host=[ec2.internal corp.example lab.example] init=10m/16Mi "
       "given=host-search"},
      {{"--init-cpu", "0.5", "--init-memory", "32Mi"},
       "image= libc=auto ns=[] domain=cluster.local host=[] init=0.5/32Mi given="},
      {{"--init-cpu", "250m", "--init-memory", "1G"},
       "image= libc=auto ns=[] domain=cluster.local host=[] init=250m/1G given="},
      // Not one of the shared flags: left to the command, its value too.
      {{"--remove", "--namespace", "shop"}, std::string(kDefaults) + " unread --remove unread --namespace unread shop"},
  };
  for (const FlagCase& c : cases) EXPECT_EQ(c.options, read_all(c.args)) << testing::PrintToString(c.args);
}

struct BadFlag {
  Args args;
  std::string error;
};

TEST(ReadInjectFlag, BadValuesAreUsageErrorsNamingTheFlag) {
  const BadFlag cases[] = {
      {{"--image"}, "inject: --image needs a value"},
      {{"--image", ""}, "inject: --image needs a value"},
      {{"--libc", "uclibc"}, "inject: --libc is auto, glibc or musl"},
      {{"--nameserver"}, "inject: --nameserver needs a value ('' for none)"},
      {{"--nameserver", "kube-dns.kube-system"}, "inject: --nameserver 'kube-dns.kube-system' is not an IP address"},
      {{"--nameserver", "10.96.0.10:53"}, "inject: --nameserver '10.96.0.10:53' is not an IP address"},
      {{"--nameserver", "1.1.1.1,2.2.2.2", "--nameserver", "3.3.3.3,4.4.4.4"},
       "inject: at most 3 --nameserver (kubelet's limit)"},
      {{"--cluster-domain", "."}, "inject: --cluster-domain is empty"},
      {{"--autopath", "on"}, "inject: --autopath is option or marker"},
      {{"--host-search"}, "inject: --host-search needs a value ('' for none)"},
      {{"--init-cpu", "ten"}, "inject: --init-cpu 'ten' is not a quantity such as 10m or 16Mi"},
      {{"--init-memory", "16MB"}, "inject: --init-memory '16MB' is not a quantity such as 10m or 16Mi"},
      {{"--init-memory", "-1Mi"}, "inject: --init-memory '-1Mi' is not a quantity such as 10m or 16Mi"},
  };
  for (const BadFlag& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    expect_usage_error([&] { return read_all(c.args).size() > 0 ? 0 : 1; }, c.error);
  }
}

struct NeedCase {
  const char* cmd;
  Args flags;
  bool remove;
  std::string error;  // "" when the options stand
};

TEST(CheckInjectOptions, WhatTheFlagsNeedOfEachOther) {
  const NeedCase cases[] = {
      {"inject", {"--image", test::kImage}, false, ""},
      {"inject", {}, false, std::string("inject: ") + test::kImageNeeded},
      {"webhook", {"--nameserver", "169.254.20.10"}, false, std::string("webhook: ") + test::kImageNeeded},
      // --remove and the marker path add no init container: no image.
      {"inject", {}, true, ""},
      {"inject", {"--autopath", "marker", "--nameserver", "169.254.20.10,10.96.0.10"}, false, ""},
      {"inject",
       {"--autopath", "marker"},
       false,
       "inject: --autopath marker needs --nameserver: the node-local cache, then kube-dns's ClusterIP"},
      {"inject",
       {"--autopath", "marker", "--nameserver", ""},
       false,
       "inject: --autopath marker needs --nameserver: the node-local cache, then kube-dns's ClusterIP"},
      // auto: the webhook's own pod's resolv.conf, which inject has none of.
      {"inject",
       {"--image", test::kImage, "--host-search", "auto"},
       false,
       "inject: --host-search auto is the webhook's (its own pod's resolv.conf): name the domains"},
      {"webhook", {"--image", test::kImage, "--host-search", "auto"}, false, ""},
  };
  for (const NeedCase& c : cases) {
    SCOPED_TRACE(std::string(c.cmd) + " " + testing::PrintToString(c.flags));
    InjectOptions o = test::options_of(c.flags);
    o.remove = c.remove;
    auto check = [&] {
      check_inject_options(c.cmd, o);
      return 0;
    };
    if (c.error.empty())
      test::expect_exit(check, 0, "");
    else
      expect_usage_error(check, c.error);
  }
}

struct SearchCase {
  std::string resolv_conf;
  std::string cluster_domain;
  Strings node_search;
};

TEST(NodeSearchOf, TheDomainsKubeletAppendedAfterTheClustersThree) {
  const SearchCase cases[] = {
      {"nameserver 10.96.0.10\nsearch shop.svc.cluster.local svc.cluster.local cluster.local ec2.internal "
       "corp.example\noptions ndots:5\n",
       "cluster.local",
       {"ec2.internal", "corp.example"}},
      {"search shop.svc.cluster.local svc.cluster.local cluster.local\n", "cluster.local", {}},
      {"search shop.svc.cluster.local. svc.cluster.local. cluster.local. ec2.internal.\n",
       "cluster.local",
       {"ec2.internal"}},
      // The last search or domain line counts, as the libcs read it.
      {"search a.example\nsearch x.svc.cluster.local svc.cluster.local cluster.local b.example\n",
       "cluster.local",
       {"b.example"}},
      {"search x.svc.cluster.local svc.cluster.local cluster.local b.example\ndomain corp.example\n",
       "cluster.local",
       {}},
      {"  search\tx.svc.corp.local svc.corp.local corp.local lab.example\n", "corp.local", {"lab.example"}},
      // Not a ClusterFirst pod's list: nothing to take.
      {"search x.svc.cluster.local svc.cluster.local cluster.local b.example\n", "corp.local", {}},
      {"search ec2.internal corp.example\n", "cluster.local", {}},
      {"search svc.cluster.local svc.cluster.local cluster.local b.example\n", "cluster.local", {}},
      {"nameserver 10.96.0.10\n", "cluster.local", {}},
  };
  int n = 0;
  for (const SearchCase& c : cases) {
    std::string path = temp_file("resolv.conf." + std::to_string(n++), c.resolv_conf);
    EXPECT_EQ(c.node_search, node_search_of(path, c.cluster_domain)) << c.resolv_conf;
  }
  EXPECT_EQ(Strings{}, node_search_of(test::temp_dir() + "no-such-resolv.conf", "cluster.local"));
}

}  // namespace
}  // namespace rk8s::tools
