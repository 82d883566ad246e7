// SPDX-License-Identifier: Apache-2.0
// The thread that keeps the webhook's own certificate (self_certificate.h)
// at start and every `interval` after (10 s after a failure, when that is
// sooner): the Secret synced, the caBundle patched to its CA, then its
// certificate offered to the serving side, so that no replica serves a
// certificate the API server was not told to trust.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tools/webhook/self_certificate.h"
#include "tools/webhook/serving_tls.h"

namespace rk8s::tools {

class CertificateKeeper {
 public:
  CertificateKeeper(SelfCertificate self, ServingTls& tls, int interval_seconds);
  ~CertificateKeeper();  // stops the thread, waiting for its round to end

  // Rounds that did not end with the Secret synced and the caBundle its CA.
  uint64_t failures() const { return failures_; }

 private:
  void run();
  bool keep();  // one round; true when it all went through

  SelfCertificate self_;
  ServingTls& tls_;
  int interval_;
  std::atomic<uint64_t> failures_{0};
  std::mutex lock_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace rk8s::tools
