// SPDX-License-Identifier: Apache-2.0
// The webhook's own certificates (`--tls-secret`, certificate_secret.h): a
// CA and a serving certificate signed by it, EC P-256, as Kyverno and
// Gatekeeper make theirs; what is wrong with a set read back; when one
// expires. A serving certificate is renewed under the same CA, so the
// caBundle the API server trusts stays as it was; a CA near its end is
// replaced, the old one kept in ca.crt after it while it is valid, so the
// replicas still serving under it stay trusted until they change.
// Certificates start at the earliest of this clock (an hour back) and the
// old set's own starts: a replica whose clock runs ahead renews with a
// start the others (and the API server) have passed already, and one that
// starts past this clock is not served.
#pragma once

#include <ctime>
#include <string>
#include <vector>

namespace rk8s::tools {

constexpr long kDay = 24 * 3600;
constexpr long kCaDays = 3650, kCaRenewDays = 365;           // a CA of ten years, replaced in its last
constexpr long kServingDays = 365, kServingRenewDays = 90;   // a serving certificate of a year, renewed in its last 90 days
constexpr long kStartSkew = 300;  // a start this far past our clock is still served: clocks a little behind

// The PEMs of a kubernetes.io/tls Secret (tls.crt, tls.key, ca.crt) and its
// CA's key (ca.key); ca.crt may hold more than one CA, the signing one first.
struct CertificateSet {
  std::string ca_crt, ca_key, tls_crt, tls_key;
};

// A serving certificate for `names` (the first its subject's CN), signed by
// `old`'s CA when that is whole, has started by `now` and has more than
// kCaRenewDays left, else by a new CA; each new certificate starts at the
// earliest of `now` an hour back and the starts of `old`'s tls.crt and
// first CA, a year back at most.
CertificateSet make_certificates(const std::vector<std::string>& names, const CertificateSet& old, time_t now);

// Why `set` is not to be served at `now`: "" when its serving certificate
// chains to ca.crt's first CA, is its key's, names every one of `names`,
// has started by `now` (give or take kStartSkew) and has more than
// kServingRenewDays left, and the CA has started as well and has more than
// kCaRenewDays left.
std::string certificate_problem(const CertificateSet& set, const std::vector<std::string>& names, time_t now);

// When the first certificate of `pem` expires, and when it starts; 0 when
// there is none.
time_t certificate_not_after(const std::string& pem);
time_t certificate_not_before(const std::string& pem);

}  // namespace rk8s::tools
