// SPDX-License-Identifier: Apache-2.0
#include "common/kube_api.h"

#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rk8s {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kDeadline = std::chrono::seconds(3);
constexpr size_t kMaxResponse = 1 << 20;
const std::string kLate = "no whole answer within 3 s";

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Until `fd` is ready for `events` or `deadline` passes (false).
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p = {fd, events, 0};
    int n = poll(&p, 1, int(left));
    if (n == 1) return true;
    if (n == 0 || errno != EINTR) return false;
  }
}

// A non-blocking TCP connection to host:port by `deadline`; -1 with `why`.
int connect_to(const std::string& host, const std::string& port, Clock::time_point deadline, std::string& why) {
  addrinfo hints = {}, *found = nullptr;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  if (int e = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); e != 0) {
    why = host + ":" + port + ": " + gai_strerror(e);
    return -1;
  }
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  int rc = fd < 0 ? -1 : connect(fd, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  if (rc != 0 && errno == EINPROGRESS) {
    int err = ETIMEDOUT;
    socklen_t len = sizeof err;
    if (wait_for(fd, POLLOUT, deadline)) getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    errno = err;
    rc = err == 0 ? 0 : -1;
  }
  if (rc != 0) {
    why = "connect " + host + ":" + port + ": " + strerror(errno);
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

// Whether the TLS call that returned `rc` on `ssl` may go on: what it waits
// for came by `deadline`. Else `late` says whether the deadline ended it.
bool ready_again(SSL* ssl, int rc, Clock::time_point deadline, bool& late) {
  int e = SSL_get_error(ssl, rc);
  if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return false;
  late = !wait_for(SSL_get_fd(ssl), e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline);
  return !late;
}

// The body of an HTTP/1.1 response, its chunks joined when it came chunked.
std::string body_of(const std::string& response) {
  size_t end = response.find("\r\n\r\n");
  if (end == std::string::npos) return "";
  std::string headers = response.substr(0, end), body = response.substr(end + 4);
  for (char& c : headers) c = char(tolower(static_cast<unsigned char>(c)));
  if (headers.find("transfer-encoding: chunked") == std::string::npos) return body;
  std::string out;
  for (size_t at = 0;;) {
    size_t line = body.find("\r\n", at);
    if (line == std::string::npos) break;
    size_t size = strtoul(body.c_str() + at, nullptr, 16);
    if (size == 0 || line + 2 + size > body.size()) break;
    out += body.substr(line + 2, size);
    at = line + 2 + size + 2;
  }
  return out;
}

// `request` sent over TLS on `fd` to the server whose certificate names
// `host`, checked against `ca`; the whole response by `deadline` (the
// server closes it: Connection: close), or "" with `why`.
std::string exchange(int fd, const std::string& host, const std::string& ca, const std::string& request,
                     Clock::time_point deadline, std::string& why) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx || SSL_CTX_load_verify_locations(ctx, ca.c_str(), nullptr) != 1) {
    why = ca + ": no CA";
    SSL_CTX_free(ctx);
    return "";
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  // The API server's certificate names its Service's address, which
  // KUBERNETES_SERVICE_HOST is (or its name, when that is one).
  if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str()) != 1) SSL_set1_host(ssl, host.c_str());
  std::string response;
  bool late = false;
  int rc;
  while ((rc = SSL_connect(ssl)) != 1 && ready_again(ssl, rc, deadline, late)) {
  }
  if (rc != 1) {
    long verify = SSL_get_verify_result(ssl);
    why = late ? kLate
               : "TLS: " + std::string(verify != X509_V_OK ? X509_verify_cert_error_string(verify)
                                                           : ERR_reason_error_string(ERR_get_error()) ?: "handshake failed");
  } else {
    while ((rc = SSL_write(ssl, request.data(), int(request.size()))) <= 0 && ready_again(ssl, rc, deadline, late)) {
    }
    if (rc != int(request.size())) why = late ? kLate : "TLS: the request not sent";
  }
  if (why.empty()) {
    char buf[16384];
    while (response.size() < kMaxResponse &&
           ((rc = SSL_read(ssl, buf, sizeof buf)) > 0 || ready_again(ssl, rc, deadline, late)))
      if (rc > 0) response.append(buf, rc);
    if (late) {
      why = kLate;
      response.clear();
    }
  }
  ERR_clear_error();
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  return response;
}

}  // namespace

KubeAnswer kube_request(const std::string& method, const std::string& path, const std::string& body,
                        const std::string& content_type, const std::string& account_dir) {
  KubeAnswer a;
  const char* host = getenv("KUBERNETES_SERVICE_HOST");
  const char* port = getenv("KUBERNETES_SERVICE_PORT");
  if (!host || !port) {
    a.why = "KUBERNETES_SERVICE_HOST or _PORT not set";
    return a;
  }
  std::string token = trimmed(file_text(account_dir + "/token"));
  if (token.empty()) {
    a.why = account_dir + "/token: no token";
    return a;
  }
  Clock::time_point deadline = Clock::now() + kDeadline;
  int fd = connect_to(host, port, deadline, a.why);
  if (fd < 0) return a;
  std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + host + ":" + port +
                        "\r\nAuthorization: Bearer " + token +
                        "\r\nAccept: application/json\r\nUser-Agent: resolv-k8s\r\nConnection: close\r\n";
  if (!body.empty())
    request += "Content-Type: " + content_type + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  std::string response = exchange(fd, host, account_dir + "/ca.crt", request + "\r\n" + body, deadline, a.why);
  close(fd);
  // "HTTP/1.1 404 Not Found"
  if (response.compare(0, 5, "HTTP/") == 0 && response.find(' ') != std::string::npos)
    a.status = atoi(response.c_str() + response.find(' ') + 1);
  if (a.status == 0 && a.why.empty()) a.why = "no answer";
  if (a.status != 0) a.body = body_of(response);
  return a;
}

std::string kube_namespace(const std::string& account_dir) { return trimmed(file_text(account_dir + "/namespace")); }

}  // namespace rk8s
