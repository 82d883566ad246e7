// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/certificate.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <memory>

namespace rk8s::tools {
namespace {

struct Free {
  void operator()(X509* p) const { X509_free(p); }
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
using Cert = std::unique_ptr<X509, Free>;
using Key = std::unique_ptr<EVP_PKEY, Free>;
using Bio = std::unique_ptr<BIO, Free>;

// Certificates are dated an hour back, for clocks a little behind ours, and
// no more than a year back, so that renewals dated from their old starts do
// not grow ever longer (a clock more than a year ahead is beyond this).
constexpr long kBackdate = 3600;
constexpr long kFurthestBack = 365 * kDay;

Cert cert_of(const std::string& pem) {
  Bio in(BIO_new_mem_buf(pem.data(), int(pem.size())));
  Cert c(PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  return c;
}

Key key_of(const std::string& pem) {
  Bio in(BIO_new_mem_buf(pem.data(), int(pem.size())));
  Key k(PEM_read_bio_PrivateKey(in.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  return k;
}

std::string text_of(Bio& out) {
  char* data = nullptr;
  long n = BIO_get_mem_data(out.get(), &data);
  return std::string(data, size_t(n));
}

std::string pem_of(X509* c) {
  Bio out(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(out.get(), c);
  return text_of(out);
}

std::string pem_of(EVP_PKEY* k) {
  Bio out(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(out.get(), k, nullptr, nullptr, 0, nullptr, nullptr);
  return text_of(out);
}

void extend(X509* c, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer, c, nullptr, nullptr, 0);
  if (X509_EXTENSION* e = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value)) {
    X509_add_ext(c, e, -1);
    X509_EXTENSION_free(e);
  }
}

// A certificate of `key` for `cn`, valid from `start` to `days` after
// `now`: a CA when `names` is empty (self-signed when `issuer` is null),
// else a server's for `names`, signed by `issuer` with `issuer_key`.
Cert signed_certificate(const std::string& cn, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key,
                        const std::vector<std::string>& names, time_t start, long days, time_t now) {
  Cert c(X509_new());
  X509_set_version(c.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c.get()));
  BN_free(bn);
  ASN1_TIME_set(X509_getm_notBefore(c.get()), start);
  X509_time_adj_ex(X509_getm_notAfter(c.get()), int(days), 0, &now);
  X509_NAME* subject = X509_get_subject_name(c.get());
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(c.get(), issuer ? X509_get_subject_name(issuer) : subject);
  X509_set_pubkey(c.get(), key);
  X509* signer = issuer ? issuer : c.get();
  extend(c.get(), signer, NID_subject_key_identifier, "hash");
  extend(c.get(), signer, NID_authority_key_identifier, "keyid");
  if (names.empty()) {
    extend(c.get(), signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0");
    extend(c.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    std::string san;
    for (const std::string& n : names) san += (san.empty() ? "DNS:" : ",DNS:") + n;
    extend(c.get(), signer, NID_basic_constraints, "critical,CA:FALSE");
    extend(c.get(), signer, NID_key_usage, "critical,digitalSignature");
    extend(c.get(), signer, NID_ext_key_usage, "serverAuth");
    extend(c.get(), signer, NID_subject_alt_name, san.c_str());
  }
  X509_sign(c.get(), issuer_key ? issuer_key : key, EVP_sha256());
  return c;
}

bool lasts_past(X509* c, time_t when) { return X509_cmp_time(X509_get0_notAfter(c), &when) > 0; }

// Whether `c` has started by `now`, or will within kStartSkew.
bool started(X509* c, time_t now) {
  time_t latest = now + kStartSkew;
  return X509_cmp_time(X509_get0_notBefore(c), &latest) <= 0;
}

time_t time_of(const ASN1_TIME* t) {
  tm parts{};
  return ASN1_TIME_to_tm(t, &parts) == 1 ? timegm(&parts) : 0;
}

// The earliest of `now` an hour back and the starts of `old`'s
// certificates (clocks that made them, which the others have passed), up
// to kFurthestBack.
time_t earliest_start(const CertificateSet& old, time_t now) {
  time_t start = now - kBackdate;
  for (const std::string* pem : {&old.tls_crt, &old.ca_crt})
    if (time_t t = certificate_not_before(*pem); t != 0) start = std::min(start, t);
  return std::max(start, now - kFurthestBack);
}

// ca.crt's first certificate, when ca.key is its key, it has started and
// it lasts more than kCaRenewDays past `now`.
Cert usable_ca(const CertificateSet& set, time_t now) {
  Cert ca = cert_of(set.ca_crt);
  Key key = key_of(set.ca_key);
  if (!ca || !key || X509_check_private_key(ca.get(), key.get()) != 1 || !started(ca.get(), now) ||
      !lasts_past(ca.get(), now + kCaRenewDays * kDay))
    return nullptr;
  return ca;
}

}  // namespace

CertificateSet make_certificates(const std::vector<std::string>& names, const CertificateSet& old, time_t now) {
  CertificateSet out;
  time_t start = earliest_start(old, now);
  Cert ca = usable_ca(old, now);
  Key ca_key = ca ? key_of(old.ca_key) : Key(EVP_EC_gen("P-256"));
  if (ca) {
    out.ca_crt = old.ca_crt;
  } else {
    ca = signed_certificate("resolv-k8s webhook CA", ca_key.get(), nullptr, nullptr, {}, start, kCaDays, now);
    out.ca_crt = pem_of(ca.get());
    // The CA it replaces, while valid: the replicas serving under it stay
    // trusted until they read the new certificate.
    if (Cert previous = cert_of(old.ca_crt); previous && started(previous.get(), now) && lasts_past(previous.get(), now))
      out.ca_crt += pem_of(previous.get());
  }
  out.ca_key = pem_of(ca_key.get());
  Key key(EVP_EC_gen("P-256"));
  Cert serving = signed_certificate(names.at(0), key.get(), ca.get(), ca_key.get(), names, start, kServingDays, now);
  out.tls_crt = pem_of(serving.get());
  out.tls_key = pem_of(key.get());
  return out;
}

std::string certificate_problem(const CertificateSet& set, const std::vector<std::string>& names, time_t now) {
  Cert serving = cert_of(set.tls_crt), ca = cert_of(set.ca_crt);
  Key key = key_of(set.tls_key);
  if (!serving || !key) return "no serving certificate and key";
  if (!ca) return "no CA";
  if (X509_check_private_key(serving.get(), key.get()) != 1) return "tls.key is not the key of tls.crt";
  Key ca_public(X509_get_pubkey(ca.get()));
  if (X509_verify(serving.get(), ca_public.get()) != 1) return "tls.crt is not signed by ca.crt's CA";
  ERR_clear_error();
  for (const std::string& n : names)
    if (X509_check_host(serving.get(), n.c_str(), n.size(), X509_CHECK_FLAG_NO_WILDCARDS, nullptr) != 1)
      return "tls.crt does not name " + n;
  if (!started(serving.get(), now)) return "tls.crt is not valid yet (this clock is behind the one that made it)";
  if (!started(ca.get(), now)) return "ca.crt is not valid yet (this clock is behind the one that made it)";
  if (!lasts_past(serving.get(), now + kServingRenewDays * kDay))
    return "tls.crt expires within " + std::to_string(kServingRenewDays) + " days";
  if (!lasts_past(ca.get(), now + kCaRenewDays * kDay))
    return "ca.crt expires within " + std::to_string(kCaRenewDays) + " days";
  return "";
}

time_t certificate_not_after(const std::string& pem) {
  Cert c = cert_of(pem);
  return c ? time_of(X509_get0_notAfter(c.get())) : 0;
}

time_t certificate_not_before(const std::string& pem) {
  Cert c = cert_of(pem);
  return c ? time_of(X509_get0_notBefore(c.get())) : 0;
}

}  // namespace rk8s::tools
