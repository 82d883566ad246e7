// SPDX-License-Identifier: Apache-2.0
// The TLS side of a connection to an upstream with transport TLS (DNS over
// TLS, RFC 7858; exchange_tcp.cc keeps the connections and frames the
// messages): TLS 1.2 and 1.3 only, the certificate verified against the
// CA bundle (or the system's store) and serverName, sent as SNI; the
// session the upstream last gave kept for the next connection to resume.
#pragma once

#include <openssl/ssl.h>

#include <map>
#include <memory>
#include <string>

#include "server/forward/transport_settings.h"

namespace rk8s::server {

// What a loop keeps of one TLS upstream between its connections.
struct TlsResume {
  SSL_SESSION* session = nullptr;  // the newest the upstream gave
  TlsResume() = default;
  TlsResume(const TlsResume&) = delete;
  TlsResume& operator=(const TlsResume&) = delete;
  ~TlsResume() { SSL_SESSION_free(session); }
};

// A loop's context for each TlsConfig of the configurations in use (kept
// by the loop, Loop::kept): one reloaded away is freed when the next is
// made (its connections hold their own reference).
class TlsContexts {
 public:
  TlsContexts() = default;
  TlsContexts(const TlsContexts&) = delete;
  TlsContexts& operator=(const TlsContexts&) = delete;
  ~TlsContexts();
  // nullptr, with `why`, when the CA bundle cannot be read.
  SSL_CTX* context_for(const std::shared_ptr<const TlsConfig>& config, std::string& why);

 private:
  struct Context {
    std::weak_ptr<const TlsConfig> config;
    SSL_CTX* ctx;
  };
  std::map<const TlsConfig*, Context> contexts_;
};

// A client SSL for `config` from `contexts`, resuming `resume`'s session
// and keeping in it the ones that come on this connection (`resume` must
// outlive the SSL); nullptr, with `why`, when the CA bundle cannot be read.
SSL* tls_client(TlsContexts& contexts, const std::shared_ptr<const TlsConfig>& config, TlsResume& resume,
                std::string& why);

// Why a handshake on `ssl` failed, for the metrics' `reason`:
// "verification", "refused" (the TCP connection), or "handshake"; and the
// words for the log in `why`. `error` is the socket's errno, 0 for none;
// `ssl_error` the first of OpenSSL's errors, 0 for none.
const char* tls_failure(SSL* ssl, int error, unsigned long ssl_error, std::string& why);

}  // namespace rk8s::server
