// SPDX-License-Identifier: Apache-2.0
#include "server/forward/exchange_tls.h"

#include <openssl/err.h>
#include <openssl/x509_vfy.h>

#include <cerrno>
#include <cstring>

namespace rk8s::server {
namespace {

// The new session's owner is the connection's TlsResume.
int keep_session(SSL* ssl, SSL_SESSION* session) {
  auto* resume = static_cast<TlsResume*>(SSL_get_app_data(ssl));
  SSL_SESSION_free(resume->session);
  resume->session = session;
  return 1;
}

std::string openssl_reason(unsigned long e) {
  const char* reason = ERR_reason_error_string(e);
  return reason ? reason : "error " + std::to_string(ERR_GET_REASON(e));
}

SSL_CTX* new_context(const TlsConfig& config, std::string& why) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx) {
    why = "cannot make a TLS context: " + openssl_reason(ERR_get_error());
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  // A close without close_notify is an ordinary end (DNS messages carry
  // their length), not an error that would void the session, as unbound
  // takes it.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(ctx, keep_session);
  // The default paths: SSL_CERT_FILE and SSL_CERT_DIR, else the system's.
  int loaded = config.ca_bundle.empty() ? SSL_CTX_set_default_verify_paths(ctx)
                                        : SSL_CTX_load_verify_locations(ctx, config.ca_bundle.c_str(), nullptr);
  if (loaded != 1) {
    why = "caBundle " + config.ca_bundle + ": " + openssl_reason(ERR_get_error());
    ERR_clear_error();
    SSL_CTX_free(ctx);
    return nullptr;
  }
  return ctx;
}

}  // namespace

TlsContexts::~TlsContexts() {
  for (auto& [key, c] : contexts_) SSL_CTX_free(c.ctx);
}

SSL_CTX* TlsContexts::context_for(const std::shared_ptr<const TlsConfig>& config, std::string& why) {
  auto it = contexts_.find(config.get());
  if (it != contexts_.end() && !it->second.config.expired()) return it->second.ctx;
  for (auto gone = contexts_.begin(); gone != contexts_.end();) {
    if (!gone->second.config.expired()) {
      ++gone;
      continue;
    }
    SSL_CTX_free(gone->second.ctx);
    gone = contexts_.erase(gone);
  }
  SSL_CTX* ctx = new_context(*config, why);
  if (ctx) contexts_[config.get()] = Context{config, ctx};
  return ctx;
}

SSL* tls_client(TlsContexts& contexts, const std::shared_ptr<const TlsConfig>& config, TlsResume& resume,
                std::string& why) {
  SSL_CTX* ctx = contexts.context_for(config, why);
  SSL* ssl = ctx ? SSL_new(ctx) : nullptr;
  if (!ssl) {
    if (ctx) why = "cannot make a TLS connection: " + openssl_reason(ERR_get_error());
    return nullptr;
  }
  const char* name = config->server_name.c_str();
  SSL_set_tlsext_host_name(ssl, name);
  SSL_set1_host(ssl, name);
  SSL_set_app_data(ssl, &resume);
  if (resume.session) SSL_set_session(ssl, resume.session);
  return ssl;
}

const char* tls_failure(SSL* ssl, int error, unsigned long ssl_error, std::string& why) {
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    why = std::string("certificate not accepted: ") + X509_verify_cert_error_string(verify);
    return "verification";
  }
  if (error == ECONNREFUSED) {
    why = "connection refused";
    return "refused";
  }
  why = "TLS handshake failed: " + (ssl_error ? openssl_reason(ssl_error)
                                   : error    ? std::string(strerror(error))
                                              : std::string("closed by the upstream"));
  return "handshake";
}

}  // namespace rk8s::server
