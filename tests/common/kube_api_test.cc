// SPDX-License-Identifier: Apache-2.0
// kube_request (common/kube_api.h) against a stand-in API server over TLS
// on 127.0.0.1, its certificate made here: an answer read whole, a refusal
// with its Status, and an answer that trickles (a byte every 0.8 s, each
// byte inside any per-read timeout) ended by the request's deadline while
// the stand-in still has bytes to send.
#include "common/kube_api.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace rk8s {
namespace {

// A self-signed certificate for IP 127.0.0.1, as the API server's names
// its Service's address.
struct Certificate {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  Certificate() {
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("kube-apiserver"),
                               -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    for (auto [nid, value] : {std::pair{NID_subject_alt_name, "IP:127.0.0.1"},
                              std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
      X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
      X509_add_ext(cert, ext, -1);
      X509_EXTENSION_free(ext);
    }
    X509_sign(cert, key, EVP_sha256());
  }
  ~Certificate() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
};

// One answer: its pieces, `pause_ms` apart.
struct Script {
  std::vector<std::string> pieces;
  int pause_ms = 0;
};

// Answers one request on 127.0.0.1 as `script` says, in a thread; the
// ServiceAccount's files and the environment as in a pod.
class StandIn {
 public:
  explicit StandIn(Script script) : script_(std::move(script)) {
    signal(SIGPIPE, SIG_IGN);
    account_ = testing::TempDir() + "kube_api_test_account";
    mkdir(account_.c_str(), 0700);
    FILE* ca = fopen((account_ + "/ca.crt").c_str(), "w");
    PEM_write_X509(ca, cert_.cert);
    fclose(ca);
    FILE* token = fopen((account_ + "/token").c_str(), "w");
    fputs("token-of-the-test\n", token);
    fclose(token);
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in at = {};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof at;
    bind(listener_, reinterpret_cast<sockaddr*>(&at), sizeof at);
    listen(listener_, 1);
    getsockname(listener_, reinterpret_cast<sockaddr*>(&at), &len);
    setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1", 1);
    setenv("KUBERNETES_SERVICE_PORT", std::to_string(ntohs(at.sin_port)).c_str(), 1);
    thread_ = std::thread([this] { serve(); });
  }
  ~StandIn() {
    if (thread_.joinable()) thread_.join();
    close(listener_);
  }
  const std::string& account() const { return account_; }
  // Once the request ended: the pieces the stand-in sent before the client
  // closed (all of them when it did not).
  size_t sent() {
    thread_.join();
    return sent_;
  }

 private:
  void serve() {
    int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate(ctx, cert_.cert);
    SSL_CTX_use_PrivateKey(ctx, cert_.key);
    SSL* ssl = SSL_new(ctx);
    SSL_set_fd(ssl, fd);
    std::string request;
    char buf[4096];
    if (SSL_accept(ssl) == 1)
      for (int n; request.find("\r\n\r\n") == std::string::npos && (n = SSL_read(ssl, buf, sizeof buf)) > 0;)
        request.append(buf, n);
    for (const std::string& piece : script_.pieces) {
      pollfd closed = {fd, POLLIN, 0};  // the client's close_notify or FIN
      if (sent_ > 0 && poll(&closed, 1, script_.pause_ms) != 0) break;
      if (SSL_write(ssl, piece.data(), int(piece.size())) <= 0) break;
      sent_++;
    }
    SSL_shutdown(ssl);
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    close(fd);
  }

  Certificate cert_;
  Script script_;
  std::string account_;
  int listener_;
  size_t sent_ = 0;
  std::thread thread_;
};

const char kStatus401[] =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized",)"
    R"("reason":"Unauthorized","code":401})";

TEST(KubeRequest, AnAnswerIsReadWhole) {
  struct Case {
    const char* name;
    Script script;
    int status;
    std::string body;
  };
  const std::string status = kStatus401;
  const Case cases[] = {
      {"200", {{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", "{}"}, 10}, 200, "{}"},
      {"chunked",
       {{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "2\r\n{\"\r\n", "4\r\na\":1\r\n", "1\r\n}\r\n0\r\n\r\n"},
        10},
       200,
       "{\"a\":1}"},
      // A token refused (its pod force-deleted, the signing key rotated).
      {"401 with its Status",
       {{"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: " +
             std::to_string(status.size()) + "\r\n\r\n" + status},
        0},
       401,
       status},
  };
  for (const Case& c : cases) {
    StandIn api(c.script);
    KubeAnswer a = kube_request("GET", "/apis/apps/v1/namespaces/kube-system/daemonsets/x", "", "", api.account());
    EXPECT_EQ(a.status, c.status) << c.name << ": " << a.why;
    EXPECT_EQ(a.body, c.body) << c.name;
    EXPECT_EQ(api.sent(), c.script.pieces.size()) << c.name;
  }
}

TEST(KubeRequest, AnAnswerThatTricklesEndsAtTheDeadline) {
  Script script{{"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n"}, 800};
  for (char c : std::string("{\"a\":12}")) script.pieces.push_back(std::string(1, c));
  StandIn api(script);
  KubeAnswer a = kube_request("GET", "/apis/apps/v1/namespaces/kube-system/daemonsets/x", "", "", api.account());
  EXPECT_EQ(a.status, 0) << "an answer not whole is none";
  EXPECT_EQ(a.why, "no whole answer within 3 s");
  EXPECT_EQ(a.body, "");
  EXPECT_LT(api.sent(), script.pieces.size()) << "ended while the stand-in had more to send";
}

}  // namespace
}  // namespace rk8s
