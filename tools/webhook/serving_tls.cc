// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/serving_tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "tools/webhook/certificate.h"

namespace rk8s::tools {
namespace {

timespec mtime(const std::string& path) {
  struct stat st {};
  stat(path.c_str(), &st);
  return st.st_mtim;
}

bool same(const std::array<timespec, 2>& a, const std::array<timespec, 2>& b) {
  for (size_t i = 0; i < a.size(); i++)
    if (a[i].tv_sec != b[i].tv_sec || a[i].tv_nsec != b[i].tv_nsec) return false;
  return true;
}

// Why `path` did not load as `what`: the system's word, or OpenSSL's.
std::string unreadable(const std::string& path, const char* what) {
  if (access(path.c_str(), R_OK) != 0) return path + ": " + strerror(errno);
  const char* reason = ERR_reason_error_string(ERR_peek_error());
  return path + ": not " + what + (reason ? std::string(" (") + reason + ")" : "");
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

SSL_CTX* new_context() {
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx && SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)) return ctx;
  SSL_CTX_free(ctx);
  return nullptr;
}

// A context of the PEMs `cert_pem` and `key_pem`, or null, said (with
// whether `previous` stays).
SSL_CTX* context_of(const std::string& cert_pem, const std::string& key_pem, const SSL_CTX* previous) {
  SSL_CTX* ctx = new_context();
  BIO* cert = BIO_new_mem_buf(cert_pem.data(), int(cert_pem.size()));
  BIO* key = BIO_new_mem_buf(key_pem.data(), int(key_pem.size()));
  X509* x = PEM_read_bio_X509(cert, nullptr, nullptr, nullptr);
  EVP_PKEY* k = PEM_read_bio_PrivateKey(key, nullptr, nullptr, nullptr);
  bool ok = ctx && x && k && SSL_CTX_use_certificate(ctx, x) == 1 && SSL_CTX_use_PrivateKey(ctx, k) == 1 &&
            SSL_CTX_check_private_key(ctx) == 1;
  X509_free(x);
  EVP_PKEY_free(k);
  BIO_free(cert);
  BIO_free(key);
  ERR_clear_error();
  if (ok) return ctx;
  fprintf(stderr, "resolv-k8s: webhook: the Secret's tls.crt and tls.key do not load%s\n",
          previous ? " (the previous ones stay)" : "");
  SSL_CTX_free(ctx);
  return nullptr;
}

}  // namespace

SSL_CTX* ServingTls::current() {
  if (cert_.empty()) {
    std::lock_guard<std::mutex> hold(offer_lock_);
    if (offered_) use(load_offered(), offered_cert_, "the Secret's certificate");
    offered_ = false;
    return ctx_ ? ctx_ : stand_in();
  }
  std::array<timespec, 2> stamps = {mtime(cert_), mtime(key_)};
  if (ctx_ && same(stamps, stamps_)) return ctx_;
  stamps_ = stamps;
  use(load_files(), file_text(cert_), cert_.c_str());
  return ctx_;
}

void ServingTls::offer(const std::string& cert_pem, const std::string& key_pem) {
  std::lock_guard<std::mutex> hold(offer_lock_);
  if (cert_pem == served_cert_ && !offered_) return;
  offered_cert_ = cert_pem, offered_key_ = key_pem, offered_ = true;
}

void ServingTls::use(SSL_CTX* fresh, const std::string& cert_pem, const char* from) {
  if (!fresh) return;
  SSL_CTX_free(ctx_);
  ctx_ = fresh;
  ready_ = true;
  served_cert_ = cert_pem;
  not_after_ = certificate_not_after(cert_pem);
  fprintf(stderr, "resolv-k8s: webhook: serving with %s\n", from);
}

SSL_CTX* ServingTls::load_files() {
  SSL_CTX* ctx = new_context();
  std::string why;
  if (!ctx)
    why = "TLS cannot be set up";
  else if (SSL_CTX_use_certificate_chain_file(ctx, cert_.c_str()) != 1)
    why = unreadable(cert_, "a PEM certificate");
  else if (SSL_CTX_use_PrivateKey_file(ctx, key_.c_str(), SSL_FILETYPE_PEM) != 1)
    why = ERR_GET_REASON(ERR_peek_error()) == X509_R_KEY_VALUES_MISMATCH ? key_ + ": not the key of " + cert_
                                                                         : unreadable(key_, "a PEM private key");
  else if (SSL_CTX_check_private_key(ctx) != 1)
    why = key_ + ": not the key of " + cert_;
  else
    return ctx;
  fprintf(stderr, "resolv-k8s: webhook: %s%s\n", why.c_str(), ctx_ ? " (the previous ones stay)" : "");
  ERR_clear_error();
  SSL_CTX_free(ctx);
  return nullptr;
}

SSL_CTX* ServingTls::load_offered() { return context_of(offered_cert_, offered_key_, ctx_); }

SSL_CTX* ServingTls::stand_in() {
  if (!stand_in_) {
    CertificateSet own = make_certificates({"no-certificate-yet.resolv-k8s.invalid"}, {}, time(nullptr));
    stand_in_ = context_of(own.tls_crt, own.tls_key, nullptr);
  }
  return stand_in_;
}

}  // namespace rk8s::tools
