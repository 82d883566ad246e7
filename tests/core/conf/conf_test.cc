// SPDX-License-Identifier: Apache-2.0
// resolv.conf parsing, glibc 2.36 and musl 1.2.3 dialects: one case per rule;
// a Config's copy.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <net/if.h>
#include <sys/socket.h>

#include <string>
#include <vector>

#include "conf/resolv_conf.h"
#include "conf/search_list.h"

namespace rk8s {
namespace {

using D = Dialect;

// Which part of the Config a case looks at, rendered as text.
enum class Aspect { search, search_size, nameservers, options, project };

struct Case {
  const char* name;
  D dialect;
  std::string text;
  Aspect aspect;
  std::string expect;
  uint32_t warnings = 0;
  ConfEnv env = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::string render_search(const Config& c) {
  std::string s;
  for (size_t i = 0; i < c.search_count(); i++) {
    Str d = c.search(i);
    s += (i ? " " : "") + std::string(d.data, d.size);
  }
  return s;
}

std::string render(const Config& c, Aspect a) {
  std::string s;
  switch (a) {
    case Aspect::search:
      return render_search(c);
    case Aspect::search_size:
      return std::to_string(c.search_count()) + " domains " + (c.complete ? "complete" : "incomplete");
    case Aspect::nameservers:
      for (const IpAddr& ns : c.ns) {
        char buf[INET6_ADDRSTRLEN];
        inet_ntop(ns.family, ns.addr, buf, sizeof buf);
        s += (s.empty() ? "" : " ") + std::string(buf);
        if (ns.scope_id) s += "%" + std::to_string(ns.scope_id);
      }
      return s;
    case Aspect::options: {
      const Options& o = c.opt;
      s = "ndots:" + std::to_string(o.ndots) + " timeout:" + std::to_string(o.timeout) +
          " attempts:" + std::to_string(o.attempts);
      const std::pair<bool, const char*> flags[] = {
          {o.rotate, "rotate"}, {o.edns0, "edns0"}, {o.single_request, "single-request"},
          {o.single_request_reopen, "single-request-reopen"}, {o.no_tld_query, "no-tld-query"},
          {o.no_reload, "no-reload"}, {o.use_vc, "use-vc"}, {o.trust_ad, "trust-ad"}, {o.no_aaaa, "no-aaaa"},
          {o.strict_error, "strict-error"}};
      for (auto [on, name] : flags)
        if (on) s += std::string(" ") + name;
      return s;
    }
    case Aspect::project:
      return std::string(c.opt.autopath ? "on" : "off") + " " + std::to_string(c.opt.autopath_code);
  }
  return s;
}

std::string words(const char* prefix, int n) {
  std::string s;
  for (int i = 0; i < n; i++) s += (i ? " " : "") + std::string(prefix) + std::to_string(i);
  return s;
}

// kubelet's largest search line: 32 domains, 2048 characters in all.
std::string kubelet_max_search() {
  std::string s = "search";
  for (int i = 0; i < 32; i++) s += " " + std::string(i < 31 ? 63 : 2048 - 6 - 31 * 64 - 1, char('a' + i % 26));
  return s + "\n";
}

const std::string kSearch65 = "search " + words("d", 65) + "\n";
const std::string kSearch5000 = "search " + std::string(2500, 'x') + " " + std::string(2500, 'y') + "\n";
const std::string kLong300 = "search " + std::string(300, 'l') + " b\n";
const std::string kAll = "ndots:1 timeout:5 attempts:2";
const std::string kLo = std::to_string(if_nametoindex("lo"));

std::string nul(const char* a, const char* b) { return std::string(a) + '\0' + b; }

const std::vector<Case> kCases = {
    // glibc: search list
    {"GlibcSearchSplitsOnBlanks", D::glibc, "search a\tb  c\n", Aspect::search, "a b c"},
    {"GlibcKeywordNeedsColumnZero", D::glibc, " search a\n\tsearch b\n", Aspect::search, ""},
    {"GlibcKeywordNeedsBlankAfter", D::glibc, "searcha b\nsearch\n", Aspect::search, ""},
    {"GlibcHashInsideLineIsADomain", D::glibc, "search a # b\n", Aspect::search, "a # b"},
    {"GlibcCommentLinesStartWithHashOrSemicolon", D::glibc, "#search x\n;search y\nsearch z\n", Aspect::search, "z"},
    {"GlibcDomainTakesFirstWord", D::glibc, "domain a b\n", Aspect::search, "a"},
    {"GlibcDomainReplacesSearch", D::glibc, "search a b\ndomain c\n", Aspect::search, "c"},
    {"GlibcSearchReplacesDomain", D::glibc, "domain c\nsearch a b\n", Aspect::search, "a b"},
    {"GlibcBareSearchKeepsList", D::glibc, "search a\nsearch \t\n", Aspect::search, "a"},
    {"GlibcBareDomainKeepsList", D::glibc, "search a\ndomain \n", Aspect::search, "a"},
    {"GlibcCarriageReturnStaysInDomain", D::glibc, "search a b\r\n", Aspect::search, "a b\r"},
    {"GlibcNulEndsTheLine", D::glibc, "search x\n" + nul("search", " b c\n"), Aspect::search, "x"},
    {"GlibcNulLineKeepsText", D::glibc, nul("search a", "b c\n"), Aspect::search, "a"},
    {"GlibcLastLineWithoutNewline", D::glibc, "search a\nsearch b", Aspect::search, "b"},
    {"GlibcNoListTakesHostnameDomain", D::glibc, "", Aspect::search, "ns.svc", 0, {nullptr, nullptr, "pod.ns.svc"}},
    {"GlibcHostnameWithoutDotNoList", D::glibc, "", Aspect::search, "", 0, {nullptr, nullptr, "pod"}},
    {"GlibcHostnameTrailingDotIsRoot", D::glibc, "", Aspect::search, ".", 0, {nullptr, nullptr, "pod."}},
    {"GlibcSearchLineBeatsHostname", D::glibc, "search a\n", Aspect::search, "a", 0, {nullptr, nullptr, "h.x"}},
    {"GlibcBareSearchStillTakesHostname", D::glibc, "search \n", Aspect::search, "x", 0, {nullptr, nullptr, "h.x"}},
    {"GlibcLocaldomainReplacesFile", D::glibc, "search a\n", Aspect::search, "l1 l2", 0, {"l1  l2 "}},
    {"GlibcLocaldomainSuppressesLaterLines", D::glibc, "domain a\nsearch b\n", Aspect::search, "x", 0, {"x"}},
    {"GlibcLocaldomainEmptyIsRoot", D::glibc, "search a\n", Aspect::search, ".", 0, {""}},
    {"GlibcLocaldomainLeadingBlankIsRoot", D::glibc, "", Aspect::search, ". a", 0, {" a"}},
    {"GlibcLocaldomainEndsAtNewline", D::glibc, "", Aspect::search, "a", 0, {"a\nb"}},
    {"GlibcLocaldomainSuppressesHostname", D::glibc, "", Aspect::search, "a", 0, {"a", nullptr, "h.x"}},
    {"GlibcKubeletLimitsAccepted", D::glibc, kubelet_max_search(), Aspect::search_size, "32 domains complete"},
    {"GlibcOverMaxSearchIncomplete", D::glibc, kSearch65, Aspect::search_size, "64 domains incomplete", kWarnTooLarge},
    {"GlibcOverSearchBytesIncomplete", D::glibc, kSearch5000, Aspect::search_size, "1 domains incomplete", kWarnTooLarge},
    {"GlibcLaterListCompletes", D::glibc, kSearch65 + "search a\n", Aspect::search_size, "1 domains complete"},
    {"GlibcLongLineIsRead", D::glibc, kLong300, Aspect::search_size, "2 domains complete"},
    // musl: search list
    {"MuslSearchSplitsOnIsspace", D::musl, "search a\vb\fc\r\n", Aspect::search, "a b c"},
    {"MuslDomainTakesRestOfLine", D::musl, "domain a b\n", Aspect::search, "a b"},
    {"MuslLastLineWins", D::musl, "search a\ndomain c\n", Aspect::search, "c"},
    {"MuslBareSearchClearsList", D::musl, "search a\nsearch \n", Aspect::search, ""},
    {"MuslKeywordThenNewlineClearsList", D::musl, "search a\nsearch\n", Aspect::search, ""},
    {"MuslKeywordAtEndOfFileIgnored", D::musl, "search a\nsearch", Aspect::search, "a"},
    {"MuslKeywordNeedsColumnZero", D::musl, " search a\n", Aspect::search, ""},
    {"MuslNoCommentHandling", D::musl, "search a # b\n", Aspect::search, "a # b"},
    {"MuslNulSwallowsNextLine", D::musl, nul("search a\nsearch b", "\nsearch c\n"), Aspect::search, "a"},
    {"MuslNulInLastLineTruncates", D::musl, nul("search a", "b"), Aspect::search, "a"},
    {"MuslLongLineReadWithWarning", D::musl, kLong300, Aspect::search_size, "2 domains complete", kWarnLongLine},
    {"MuslLine254Fits", D::musl, "search " + std::string(247, 'x') + "\n", Aspect::search_size, "1 domains complete"},
    {"MuslKubeletLimitsAccepted", D::musl, kubelet_max_search(), Aspect::search_size, "32 domains complete", kWarnLongLine},
    {"MuslOverMaxSearchIncomplete", D::musl, kSearch65, Aspect::search_size, "64 domains incomplete", kWarnTooLarge | kWarnLongLine},
    {"MuslIgnoresEnvAndHostname", D::musl, "", Aspect::search, "", 0, {"l1", "ndots:3", "h.x"}},
    // glibc: nameservers
    {"GlibcNameserverIPv4", D::glibc, "nameserver 10.0.0.10\n", Aspect::nameservers, "10.0.0.10"},
    {"GlibcNameserverFirstWordOnly", D::glibc, "nameserver 10.0.0.10 junk\n", Aspect::nameservers, "10.0.0.10"},
    {"GlibcNameserverShortForm", D::glibc, "nameserver 127.1\nnameserver 10.65535\n", Aspect::nameservers, "127.0.0.1 10.0.255.255"},
    {"GlibcNameserverHexAndOctal", D::glibc, "nameserver 0x7f.0.0.01\nnameserver 0177.1\n", Aspect::nameservers, "127.0.0.1 127.0.0.1"},
    {"GlibcNameserverOneNumber", D::glibc, "nameserver 2130706433\n", Aspect::nameservers, "127.0.0.1"},
    {"GlibcNameserverBadOctalDropped", D::glibc, "nameserver 08.1.1.1\nnameserver 10.0.0.1\n", Aspect::nameservers, "10.0.0.1", kWarnBadNameserver},
    {"GlibcNameserverPartTooLargeDropped", D::glibc, "nameserver 1.2.3.256\nnameserver 1.2.65536\nnameserver 4294967296\n", Aspect::nameservers, "127.0.0.1", kWarnBadNameserver},
    {"GlibcNameserverTrailingDotDropped", D::glibc, "nameserver 1.2.3.4.\nnameserver 1.2.\n", Aspect::nameservers, "127.0.0.1", kWarnBadNameserver},
    {"GlibcNameserverPortDropped", D::glibc, "nameserver 1.2.3.4:53\nnameserver [::1]:53\n", Aspect::nameservers, "127.0.0.1", kWarnBadNameserver},
    {"GlibcNameserverCarriageReturnDropped", D::glibc, "nameserver 10.0.0.1\r\n", Aspect::nameservers, "127.0.0.1", kWarnBadNameserver},
    {"GlibcNameserverIPv6", D::glibc, "nameserver ::1\nnameserver ::ffff:1.2.3.4\n", Aspect::nameservers, "::1 ::ffff:1.2.3.4"},
    {"GlibcNameserverScopeByName", D::glibc, "nameserver fe80::1%lo\n", Aspect::nameservers, "fe80::1%" + kLo},
    {"GlibcNameserverScopeByNumber", D::glibc, "nameserver fe80::1%7\nnameserver ::1%8\n", Aspect::nameservers, "fe80::1%7 ::1%8"},
    {"GlibcNameserverBadScopeKeptAsZero", D::glibc, "nameserver ::1%lo\nnameserver fe80::1%nosuchif0\nnameserver fe80::2%\n", Aspect::nameservers, "::1 fe80::1 fe80::2"},
    {"GlibcNameserverFirstThreeUsed", D::glibc, "nameserver 10.0.0.1\nnameserver bad\nnameserver 10.0.0.2\nnameserver 10.0.0.3\nnameserver 10.0.0.4\n", Aspect::nameservers, "10.0.0.1 10.0.0.2 10.0.0.3", kWarnBadNameserver | kWarnExtraNameserver},
    {"GlibcNoNameserverIsLoopback", D::glibc, "search a\n", Aspect::nameservers, "127.0.0.1"},
    {"GlibcNameserverLeadingBlankIgnored", D::glibc, " nameserver 10.0.0.1\n", Aspect::nameservers, "127.0.0.1"},
    // musl: nameservers
    {"MuslNameserverShortForm", D::musl, "nameserver 127.1\nnameserver 0x7f.1\n", Aspect::nameservers, "127.0.0.1 127.0.0.1"},
    {"MuslNameserverCarriageReturnIsSpace", D::musl, "nameserver 10.0.0.1\r\n", Aspect::nameservers, "10.0.0.1"},
    {"MuslNameserverScopeByNumberAnyAddress", D::musl, "nameserver ::1%5\n", Aspect::nameservers, "::1%5"},
    {"MuslNameserverScopeByName", D::musl, "nameserver fe80::1%lo\n", Aspect::nameservers, "fe80::1%" + kLo},
    {"MuslNameserverBadScopeDropped", D::musl, "nameserver ::1%lo\nnameserver fe80::1%nosuchif0\nnameserver fe80::2%\nnameserver ::2%4294967296\n", Aspect::nameservers, "127.0.0.1", kWarnBadNameserver},
    {"MuslNameserverKeywordThenNewline", D::musl, "nameserver\n", Aspect::nameservers, "127.0.0.1", kWarnBadNameserver},
    {"MuslNameserverFirstThreeUsed", D::musl, "nameserver bad\nnameserver 10.0.0.1\nnameserver 10.0.0.2\nnameserver 10.0.0.3\nnameserver 10.0.0.4\n", Aspect::nameservers, "10.0.0.1 10.0.0.2 10.0.0.3", kWarnBadNameserver | kWarnExtraNameserver},
    {"MuslNoNameserverIsLoopback", D::musl, "", Aspect::nameservers, "127.0.0.1"},
    // glibc: options
    {"GlibcOptionsDefaults", D::glibc, "", Aspect::options, kAll},
    {"GlibcOptionsEveryLineAdds", D::glibc, "options ndots:2\noptions\trotate timeout:3\n", Aspect::options, "ndots:2 timeout:3 attempts:2 rotate"},
    {"GlibcOptionsNdotsCap15", D::glibc, "options ndots:16\n", Aspect::options, "ndots:15 timeout:5 attempts:2", kWarnOptionCapped},
    {"GlibcOptionsNdotsNegativeKeepsLowBits", D::glibc, "options ndots:-1\noptions timeout:1 ndots:-16\n", Aspect::options, "ndots:0 timeout:1 attempts:2"},
    {"GlibcOptionsNdotsMinusOneIs15", D::glibc, "options ndots:-1\n", Aspect::options, "ndots:15 timeout:5 attempts:2"},
    {"GlibcOptionsNdotsAtoiCutsToInt", D::glibc, "options ndots:4294967297\n", Aspect::options, "ndots:1 timeout:5 attempts:2"},
    {"GlibcOptionsNdotsAtoiSaturates", D::glibc, "options ndots:99999999999999999999\n", Aspect::options, "ndots:15 timeout:5 attempts:2"},
    {"GlibcOptionsNonDigitsAreZero", D::glibc, "options ndots:abc\n", Aspect::options, "ndots:0 timeout:5 attempts:2"},
    {"GlibcOptionsValueAtEndOfLineIsZero", D::glibc, "options ndots:\n", Aspect::options, "ndots:0 timeout:5 attempts:2"},
    {"GlibcOptionsAtoiCrossesBlanks", D::glibc, "options ndots: 3\n", Aspect::options, "ndots:3 timeout:5 attempts:2"},
    {"GlibcOptionsTrailingJunkIgnored", D::glibc, "options ndots:3x timeout:2\r\n", Aspect::options, "ndots:3 timeout:2 attempts:2"},
    {"GlibcOptionsTimeoutCap30", D::glibc, "options timeout:31\n", Aspect::options, "ndots:1 timeout:30 attempts:2", kWarnOptionCapped},
    {"GlibcOptionsTimeoutNegativeIsZero", D::glibc, "options timeout:-5\n", Aspect::options, "ndots:1 timeout:0 attempts:2"},
    {"GlibcOptionsAttemptsCap5", D::glibc, "options attempts:6\n", Aspect::options, "ndots:1 timeout:5 attempts:5", kWarnOptionCapped},
    {"GlibcOptionsAttemptsZeroSendsNothing", D::glibc, "options attempts:0\n", Aspect::options, "ndots:1 timeout:5 attempts:0", kWarnAttemptsZero},
    {"GlibcOptionsAttemptsZeroOverridden", D::glibc, "options attempts:0\noptions attempts:3\n", Aspect::options, "ndots:1 timeout:5 attempts:3"},
    {"GlibcOptionsFlagsByPrefix", D::glibc, "options rotatex edns0 use-vc trust-ad no-aaaa no-reload\n", Aspect::options, kAll + " rotate edns0 no-reload use-vc trust-ad no-aaaa"},
    // Words newer than the running glibc are words it does not know.
    {"Glibc235NoAaaaUnknown", D::glibc, "options trust-ad no-aaaa\n", Aspect::options, kAll + " trust-ad", 0, {nullptr, nullptr, nullptr, release(2, 35)}},
    {"Glibc241MinusClearsAFlag", D::glibc, "options rotate edns0\noptions -rotate -ndots:3 --edns0\n", Aspect::options, kAll + " edns0", 0, {nullptr, nullptr, nullptr, release(2, 41)}},
    {"Glibc240MinusUnknown", D::glibc, "options rotate\noptions -rotate\n", Aspect::options, kAll + " rotate", 0, {nullptr, nullptr, nullptr, release(2, 40)}},
    {"Glibc241StrictErrorGoesToLibc", D::glibc, "options strict-error\n", Aspect::options, kAll + " strict-error", kWarnTooLarge, {nullptr, nullptr, nullptr, release(2, 41)}},
    {"Glibc241StrictErrorClearedServed", D::glibc, "options strict-error\n", Aspect::options, kAll, 0, {nullptr, "-strict-error", nullptr, release(2, 41)}},
    {"Glibc236StrictErrorUnknown", D::glibc, "options strict-error\n", Aspect::options, kAll, 0},
    {"Glibc230TrustAdUnknown", D::glibc, "options trust-ad no-aaaa\n", Aspect::options, kAll, 0, {nullptr, nullptr, nullptr, release(2, 30)}},
    {"GlibcOptionsReopenIsNotSingleRequest", D::glibc, "options single-request-reopen\n", Aspect::options, kAll + " single-request-reopen"},
    {"GlibcOptionsSingleRequest", D::glibc, "options single-request\n", Aspect::options, kAll + " single-request"},
    {"GlibcOptionsNoTldQueryBothSpellings", D::glibc, "options no_tld_query\noptions no-tld-query\n", Aspect::options, kAll + " no-tld-query"},
    {"GlibcOptionsUnknownIgnored", D::glibc, "options foo ndots:2 bar\n", Aspect::options, "ndots:2 timeout:5 attempts:2"},
    {"GlibcOptionsLeadingBlankIgnored", D::glibc, " options ndots:2\n", Aspect::options, kAll},
    {"GlibcResOptionsAfterFile", D::glibc, "options ndots:2 rotate\n", Aspect::options, "ndots:3 timeout:5 attempts:2 rotate", 0, {nullptr, "ndots:3"}},
    {"GlibcResOptionsNewlineIsNoSeparator", D::glibc, "", Aspect::options, kAll + " rotate", 0, {nullptr, "rotate\nedns0"}},
    // musl: options
    {"MuslOptionsCaps", D::musl, "options ndots:16 attempts:11 timeout:61\n", Aspect::options, "ndots:15 timeout:60 attempts:10", kWarnOptionCapped},
    {"MuslOptionsFoundAnywhere", D::musl, "options xndots:3 foo-timeout:2\n", Aspect::options, "ndots:3 timeout:2 attempts:2"},
    {"MuslOptionsFirstOccurrenceOnly", D::musl, "options ndots:x ndots:3\n", Aspect::options, kAll},
    {"MuslOptionsNoSignNoDot", D::musl, "options ndots:-1 timeout:.5\n", Aspect::options, kAll},
    {"MuslOptionsHugeValueCapped", D::musl, "options ndots:99999999999999999999999\n", Aspect::options, "ndots:15 timeout:5 attempts:2", kWarnOptionCapped},
    {"MuslOptionsAttemptsZeroKeepsOne", D::musl, "options attempts:0\n", Aspect::options, "ndots:1 timeout:5 attempts:1", kWarnAttemptsZero},
    {"MuslOptionsTimeoutZeroKept", D::musl, "options timeout:0\n", Aspect::options, "ndots:1 timeout:0 attempts:2"},
    {"MuslOptionsNoFlags", D::musl, "options rotate edns0 single-request-reopen\n", Aspect::options, kAll},
    {"MuslOptionsKeywordNeedsSpace", D::musl, "optionsndots:3\n", Aspect::options, kAll},
    {"MuslOptionsIgnoresResOptions", D::musl, "", Aspect::options, kAll, 0, {nullptr, "ndots:3"}},
    // The project's words, both dialects.
    {"GlibcProjectDefaults", D::glibc, "", Aspect::project, "on 65431"},
    {"GlibcProjectOff", D::glibc, "options ndots:5 k8s-autopath:off\n", Aspect::project, "off 65431"},
    {"GlibcProjectLastWordWins", D::glibc, "options k8s-autopath:off\noptions k8s-autopath:on\n", Aspect::project, "on 65431"},
    {"GlibcProjectCode", D::glibc, "options k8s-autopath-code:65001\n", Aspect::project, "on 65001"},
    {"GlibcProjectCodeOutsideLocalRange", D::glibc, "options k8s-autopath-code:15 k8s-autopath-code:65534 k8s-autopath-code:65000\n", Aspect::project, "on 65431", kWarnBadProjectOption},
    {"GlibcProjectCodeNotANumber", D::glibc, "options k8s-autopath-code: k8s-autopath-code:6543x k8s-autopath-code:065431\n", Aspect::project, "on 65431", kWarnBadProjectOption},
    {"GlibcProjectUnknownWord", D::glibc, "options k8s-autopath:yes\n", Aspect::project, "on 65431", kWarnBadProjectOption},
    {"GlibcProjectCarriageReturnIsPartOfWord", D::glibc, "options k8s-autopath:off\r\n", Aspect::project, "on 65431", kWarnBadProjectOption},
    {"GlibcProjectFromResOptions", D::glibc, "", Aspect::project, "off 65100", 0, {nullptr, "k8s-autopath:off k8s-autopath-code:65100"}},
    {"GlibcProjectLeavesOtherOptions", D::glibc, "options k8s-autopath:off ndots:5 rotate\n", Aspect::options, "ndots:5 timeout:5 attempts:2 rotate"},
    {"MuslProjectOffAndCode", D::musl, "options ndots:5 k8s-autopath:off\tk8s-autopath-code:65100\r\n", Aspect::project, "off 65100"},
    {"MuslProjectBadWord", D::musl, "options k8s-autopath-code:99999\n", Aspect::project, "on 65431", kWarnBadProjectOption},
    {"MuslProjectIgnoresResOptions", D::musl, "", Aspect::project, "on 65431", 0, {nullptr, "k8s-autopath:off"}},
    {"MuslProjectLeavesOtherOptions", D::musl, "options k8s-autopath:off ndots:5\n", Aspect::options, "ndots:5 timeout:5 attempts:2"},
};

class ConfRule : public testing::TestWithParam<Case> {};

TEST_P(ConfRule, Holds) {
  const Case& c = GetParam();
  Config cfg;
  parse_conf(c.dialect, c.text.data(), c.text.size(), c.env, cfg);
  EXPECT_EQ(render(cfg, c.aspect), c.expect);
  EXPECT_EQ(cfg.warnings, c.warnings);
  EXPECT_EQ(cfg.dialect, c.dialect);
}

INSTANTIATE_TEST_SUITE_P(Conf, ConfRule, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// A Config copied over one with a longer search list holds its own list,
// and a domain added to the copy lands after it.
TEST(Conf, CopyHoldsTheSearchListInUse) {
  const char kLong[] = "search aaaaaaaaaaaaaaaa.example bbbbbbbbbbbbbbbbbbbbbb.example c.example\n";
  const char kShort[] = "search shop.svc.cluster.local svc.cluster.local\n";
  Config longer, shorter;
  parse_conf(Dialect::glibc, kLong, sizeof kLong - 1, {}, longer);
  parse_conf(Dialect::glibc, kShort, sizeof kShort - 1, {}, shorter);
  longer = shorter;
  ASSERT_EQ(longer.search_count(), 2u);
  EXPECT_TRUE(longer.search(0) == str("shop.svc.cluster.local"));
  EXPECT_TRUE(longer.search(1) == str("svc.cluster.local"));
  Config copy(longer);
  conf::search_add(copy, str("cluster.local"));
  ASSERT_EQ(copy.search_count(), 3u);
  EXPECT_TRUE(copy.search(1) == str("svc.cluster.local"));
  EXPECT_TRUE(copy.search(2) == str("cluster.local"));
  EXPECT_EQ(longer.search_count(), 2u);
}

}  // namespace
}  // namespace rk8s
