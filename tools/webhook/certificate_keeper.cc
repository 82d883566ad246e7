// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/certificate_keeper.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace rk8s::tools {
namespace {

constexpr int kRetrySeconds = 10;

}  // namespace

CertificateKeeper::CertificateKeeper(SelfCertificate self, ServingTls& tls, int interval_seconds)
    : self_(std::move(self)), tls_(tls), interval_(interval_seconds), thread_([this] { run(); }) {}

CertificateKeeper::~CertificateKeeper() {
  {
    std::lock_guard<std::mutex> hold(lock_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void CertificateKeeper::run() {
  std::unique_lock<std::mutex> hold(lock_);
  while (!stop_) {
    hold.unlock();
    int wait = keep() ? interval_ : std::min(interval_, kRetrySeconds);
    hold.lock();
    wake_.wait_for(hold, std::chrono::seconds(wait), [this] { return stop_; });
  }
}

bool CertificateKeeper::keep() {
  std::string secret = self_.ns + "/" + self_.secret;
  SecretOutcome got = sync_tls_secret(self_, time(nullptr));
  if (!got.error.empty()) {
    failures_++;
    fprintf(stderr, "resolv-k8s: webhook: certificate: %s (trying again)\n", got.error.c_str());
    return false;
  }
  if (got.said != "kept") fprintf(stderr, "resolv-k8s: webhook: Secret %s: %s\n", secret.c_str(), got.said.c_str());
  bool patched = false;
  std::string why = sync_ca_bundle(self_, got.set.ca_crt, patched);
  if (patched)
    fprintf(stderr, "resolv-k8s: webhook: MutatingWebhookConfiguration %s: caBundle set to %s's ca.crt\n",
            self_.configuration.c_str(), secret.c_str());
  if (!why.empty()) {
    failures_++;
    fprintf(stderr, "resolv-k8s: webhook: caBundle: %s (the API server may not trust this certificate)\n",
            why.c_str());
  }
  // Served even when the caBundle could not be set: with none, nothing is
  // served at all.
  tls_.offer(got.set.tls_crt, got.set.tls_key);
  return why.empty();
}

}  // namespace rk8s::tools
