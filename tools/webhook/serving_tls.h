// SPDX-License-Identifier: Apache-2.0
// The webhook's serving certificate and key, for each new connection: from
// files, loaded again when either changes (a Secret mounted and rotated
// under the pod), or offered from memory by the thread that keeps the
// webhook's own certificate (certificate_keeper.h). Until the first is
// offered, a stand-in of its own, self-signed and trusted by no one: the
// HTTPS port speaks TLS from the start (libevent would answer plain HTTP
// on it without a context), and the kubelet's probes, which check no
// certificate, find the webhook alive while it waits on the API server.
#pragma once

#include <openssl/ssl.h>

#include <array>
#include <atomic>
#include <ctime>
#include <mutex>
#include <string>

namespace rk8s::tools {

class ServingTls {
 public:
  // From files; with both empty, from what offer() gives.
  ServingTls(std::string cert, std::string key) : cert_(std::move(cert)), key_(std::move(key)) {}
  ~ServingTls() {
    SSL_CTX_free(ctx_);
    SSL_CTX_free(stand_in_);
  }
  ServingTls(const ServingTls&) = delete;
  ServingTls& operator=(const ServingTls&) = delete;

  // The context for a new connection; null while none could be loaded
  // from files.
  SSL_CTX* current();
  // Whether what is served is the certificate wanted (the files', or one
  // offered), not the stand-in.
  bool ready() const { return ready_; }
  // PEMs for the connections after the next current(); any thread.
  void offer(const std::string& cert_pem, const std::string& key_pem);
  // When the certificate served expires; 0 while there is none.
  time_t not_after() const { return not_after_; }

 private:
  SSL_CTX* load_files();
  SSL_CTX* load_offered();
  SSL_CTX* stand_in();
  void use(SSL_CTX* fresh, const std::string& cert_pem, const char* from);

  std::string cert_, key_;
  SSL_CTX* ctx_ = nullptr;
  SSL_CTX* stand_in_ = nullptr;
  std::atomic<bool> ready_{false};
  time_t not_after_ = 0;
  std::array<timespec, 2> stamps_{};
  std::mutex offer_lock_;
  std::string offered_cert_, offered_key_, served_cert_;
  bool offered_ = false;
};

}  // namespace rk8s::tools
