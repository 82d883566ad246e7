// SPDX-License-Identifier: Apache-2.0
// The webhook's own certificates: a set made from nothing serves its names
// for a year; renewal keeps the CA (the caBundle stays); a CA near its end
// is replaced with the old one kept after it; each thing wrong with a set
// is named; a clock ahead neither served nor dated from.
#include "tools/webhook/certificate.h"

#include <gtest/gtest.h>

namespace rk8s::tools {
namespace {

const std::vector<std::string> kNames = {"resolv-k8s-webhook.kube-system.svc",
                                         "resolv-k8s-webhook.kube-system.svc.cluster.local"};
constexpr time_t kNow = 1795000000;  // 2026-11-18

size_t certificates_in(const std::string& pem) {
  size_t n = 0;
  for (size_t at = pem.find("BEGIN CERTIFICATE"); at != std::string::npos; at = pem.find("BEGIN CERTIFICATE", at + 1)) n++;
  return n;
}

TEST(Certificate, MadeFromNothingServesItsNamesForAYear) {
  CertificateSet set = make_certificates(kNames, {}, kNow);
  EXPECT_EQ("", certificate_problem(set, kNames, kNow));
  EXPECT_EQ(1u, certificates_in(set.ca_crt));
  EXPECT_EQ(kNow + kServingDays * kDay, certificate_not_after(set.tls_crt));
  EXPECT_EQ(kNow + kCaDays * kDay, certificate_not_after(set.ca_crt));
  EXPECT_NE(std::string::npos, set.tls_key.find("BEGIN PRIVATE KEY"));
  EXPECT_NE(std::string::npos, set.ca_key.find("BEGIN PRIVATE KEY"));
}

TEST(Certificate, RenewedInItsLastNinetyDaysUnderTheSameCa) {
  CertificateSet set = make_certificates(kNames, {}, kNow);
  time_t late = kNow + (kServingDays - kServingRenewDays + 1) * kDay;
  EXPECT_EQ("", certificate_problem(set, kNames, late - 2 * kDay));
  EXPECT_EQ("tls.crt expires within 90 days", certificate_problem(set, kNames, late));
  CertificateSet renewed = make_certificates(kNames, set, late);
  EXPECT_EQ(set.ca_crt, renewed.ca_crt);
  EXPECT_EQ(set.ca_key, renewed.ca_key);
  EXPECT_NE(set.tls_crt, renewed.tls_crt);
  EXPECT_EQ("", certificate_problem(renewed, kNames, late));
}

TEST(Certificate, ACaNearItsEndIsReplacedTheOldKeptAfterIt) {
  CertificateSet set = make_certificates(kNames, {}, kNow);
  time_t late = kNow + (kCaDays - kCaRenewDays + 1) * kDay;
  // Serving certificates renewed all along under the CA, until its last year.
  set = make_certificates(kNames, set, late - 2 * kDay);
  EXPECT_EQ("ca.crt expires within 365 days", certificate_problem(set, kNames, late));
  CertificateSet replaced = make_certificates(kNames, set, late);
  EXPECT_EQ("", certificate_problem(replaced, kNames, late));
  EXPECT_EQ(2u, certificates_in(replaced.ca_crt));
  EXPECT_NE(std::string::npos, replaced.ca_crt.find(set.ca_crt));
  EXPECT_NE(0u, replaced.ca_crt.find(set.ca_crt));
  // The old CA past its end is not kept.
  CertificateSet after = make_certificates(kNames, CertificateSet{set.ca_crt, "", "", ""}, kNow + (kCaDays + 1) * kDay);
  EXPECT_EQ(1u, certificates_in(after.ca_crt));
}

// A replica whose clock runs ten days ahead: what it makes from nothing is
// not served by one whose clock is right, and what it renews starts where
// the Secret's certificates did, which every clock has passed.
TEST(Certificate, AClockAheadIsNeitherServedNorDatedFrom) {
  time_t ahead = kNow + 10 * kDay;
  CertificateSet future = make_certificates(kNames, {}, ahead);
  EXPECT_EQ("tls.crt is not valid yet (this clock is behind the one that made it)",
            certificate_problem(future, kNames, kNow));
  CertificateSet set = make_certificates(kNames, {}, kNow);
  CertificateSet future_ca = make_certificates(kNames, {future.ca_crt, future.ca_key, set.tls_crt, ""}, ahead);
  EXPECT_EQ(kNow - 3600, certificate_not_before(future_ca.tls_crt));
  EXPECT_EQ("ca.crt is not valid yet (this clock is behind the one that made it)",
            certificate_problem(future_ca, kNames, kNow));
  // Within the skew, a start is served.
  EXPECT_EQ("", certificate_problem(make_certificates(kNames, {}, kNow + 3600 + kStartSkew), kNames, kNow));

  time_t late = kNow + (kServingDays - kServingRenewDays + 1) * kDay;  // renewal due by the clock ahead
  CertificateSet renewed = make_certificates(kNames, set, late);
  EXPECT_EQ(certificate_not_before(set.tls_crt), certificate_not_before(renewed.tls_crt));
  EXPECT_EQ("", certificate_problem(renewed, kNames, kNow));
  // A CA replaced by a clock ahead, in its last year by that clock only,
  // starts a year back: the right clock has passed it.
  time_t right = kNow + (kCaDays - kCaRenewDays - 5) * kDay;
  CertificateSet replaced = make_certificates(kNames, set, right + 10 * kDay);
  EXPECT_NE(set.ca_key, replaced.ca_key);
  EXPECT_EQ(right + 10 * kDay - 365 * kDay, certificate_not_before(replaced.ca_crt));
  EXPECT_EQ("", certificate_problem(replaced, kNames, right));
  // The clock that is right renews what starts past it from its own, and
  // keeps no CA that has not started.
  CertificateSet mended = make_certificates(kNames, future, kNow);
  EXPECT_EQ(kNow - 3600, certificate_not_before(mended.tls_crt));
  EXPECT_NE(future.ca_key, mended.ca_key);
  EXPECT_EQ(1u, certificates_in(mended.ca_crt));
  EXPECT_EQ("", certificate_problem(mended, kNames, kNow));
  // A year back at most: renewals do not grow ever longer.
  time_t years = kNow + 3 * 365 * kDay;
  EXPECT_EQ(years - 365 * kDay, certificate_not_before(make_certificates(kNames, set, years).tls_crt));
}

TEST(Certificate, EachProblemNamed) {
  CertificateSet a = make_certificates(kNames, {}, kNow), b = make_certificates(kNames, {}, kNow);
  struct Case {
    CertificateSet set;
    std::vector<std::string> names;
    std::string problem;
  } cases[] = {
      {{}, kNames, "no serving certificate and key"},
      {{"", a.ca_key, a.tls_crt, a.tls_key}, kNames, "no CA"},
      {{a.ca_crt, a.ca_key, a.tls_crt, b.tls_key}, kNames, "tls.key is not the key of tls.crt"},
      {{b.ca_crt, b.ca_key, a.tls_crt, a.tls_key}, kNames, "tls.crt is not signed by ca.crt's CA"},
      {a, {"resolv-k8s-webhook.resolv-k8s.svc"}, "tls.crt does not name resolv-k8s-webhook.resolv-k8s.svc"},
      {{a.ca_crt, "", a.tls_crt, a.tls_key}, kNames, ""},  // its CA's key only needed to renew
  };
  for (const Case& c : cases) EXPECT_EQ(c.problem, certificate_problem(c.set, c.names, kNow));
  EXPECT_EQ(0, certificate_not_after("not a certificate"));
}

}  // namespace
}  // namespace rk8s::tools
