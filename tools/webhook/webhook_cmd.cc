// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/webhook_cmd.h"

#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include "common/kube_api.h"
#include "common/prometheus.h"
#include "resolv-k8s.h"
#include "tools/inject/inject_options.h"
#include "tools/usage/usage.h"
#include "tools/webhook/admission.h"
#include "tools/webhook/certificate_keeper.h"
#include "tools/webhook/webhook_check.h"
#include "tools/webhook/serving_tls.h"

namespace rk8s::tools {
namespace {

// The bounds on what the webhook holds at once: connections, each with at
// most one request line and its headers (8 KiB: libevent 2.1 counts both
// against evhttp_set_max_headers_size, and refuses more with a 400 while
// they are read) and one body, all of it read and answered within the
// connection's deadline, which no trickle of bytes puts off. The API
// server stores no object over 1.5 MiB (etcd's request limit); a larger
// body is refused (413) before it is read, and failurePolicy Ignore admits
// its pod as it is. libevent 2.1 has no hook while headers are read, so
// their count is bounded by their size: a header is 2 bytes at least, and
// costs about 100 bytes held, 0.4 MiB at most a connection.
// --max-connections bodies (8 by default) and the health reserve's, one
// review being edited (admission.cc's bound on its values) stay within the
// 64Mi the Deployment allows; further connections wait in the listen queue.
constexpr size_t kMaxBody = 2 << 20;
constexpr size_t kMaxHeaders = 8 << 10;
constexpr unsigned long kDefaultMaxConnections = 8;
constexpr timeval kConnectionDeadline = {10, 0};

// Past --max-connections, this many more connections for /healthz and
// /metrics alone, so that connections holding every review slot (idle,
// trickling, or reviews that wait) cannot keep the kubelet's probes out.
// When the last is taken the oldest of them is shut (unless one is being
// shut already), to make room for the next: the liveness and readiness
// probes and a scrape stay side by side.
constexpr size_t kHealthReserve = 4;

struct Metrics {
  uint64_t requests = 0, patches = 0, errors = 0, connections = 0, cut = 0, reviews_busy = 0, health_shut = 0;
  uint64_t max_connections = kDefaultMaxConnections;
  std::array<uint64_t, std::size(kUninjectedReasons)> uninjected{};  // by kUninjectedReasons' index
  rk8s::Histogram durations;

  // The figures kept elsewhere: the reserve's connections, the certificate
  // served and the rounds that failed to keep it.
  std::string text(uint64_t health, time_t not_after, uint64_t keeper_failures) const {
    using rk8s::family;
    using rk8s::sample;
    std::string reasons;
    for (size_t i = 0; i < uninjected.size(); i++)
      reasons += sample("webhook_pods_uninjected_total", std::string("reason=\"") + kUninjectedReasons[i] + "\"",
                        uninjected[i]);
    return family("webhook_build_info", "gauge", "The webhook's version: 1, labelled.") +
           sample("webhook_build_info", "version=\"" RK8S_VERSION "\"", uint64_t(1)) +
           family("webhook_requests_total", "counter", "AdmissionReviews received.") +
           sample("webhook_requests_total", "", requests) +
           family("webhook_patches_total", "counter", "Pods patched.") +
           sample("webhook_patches_total", "", patches) +
           family("webhook_pods_uninjected_total", "counter",
                  "Objects' creations admitted without a patch, by reason (admission.h).") +
           reasons +
           family("webhook_certificate_expiry_timestamp_seconds", "gauge",
                  "When the serving certificate expires, in seconds since the epoch; 0 while there is none.") +
           sample("webhook_certificate_expiry_timestamp_seconds", "", uint64_t(not_after)) +
           family("webhook_certificate_sync_errors_total", "counter",
                  "--tls-secret: rounds that did not sync the Secret and the caBundle (the log says why).") +
           sample("webhook_certificate_sync_errors_total", "", keeper_failures) +
           family("webhook_errors_total", "counter",
                  "Requests refused: not an AdmissionReview, too large, bad method, every review slot taken.") +
           sample("webhook_errors_total", "", errors) +
           family("webhook_reviews_busy_total", "counter",
                  "AdmissionReviews refused (503) on a health reserve connection: every review slot taken.") +
           sample("webhook_reviews_busy_total", "", reviews_busy) +
           family("webhook_connections", "gauge", "Connections open for reviews (more wait to be accepted).") +
           sample("webhook_connections", "", connections) +
           family("webhook_connections_max", "gauge", "Connections open for reviews at most: --max-connections.") +
           sample("webhook_connections_max", "", max_connections) +
           family("webhook_connections_cut_total", "counter",
                  "Connections closed at their 10 s deadline, whatever they were doing.") +
           sample("webhook_connections_cut_total", "", cut) +
           family("webhook_health_connections", "gauge",
                  "Connections open in the health reserve, for /healthz and /metrics, past --max-connections.") +
           sample("webhook_health_connections", "", health) +
           family("webhook_health_connections_max", "gauge", "Connections open in the health reserve at most.") +
           sample("webhook_health_connections_max", "", uint64_t(kHealthReserve)) +
           family("webhook_health_connections_shut_total", "counter",
                  "Health reserve connections shut, the oldest, to make room for the next.") +
           sample("webhook_health_connections_shut_total", "", health_shut) +
           family("webhook_request_header_bytes_max", "gauge",
                  "A request line and its headers at most, in bytes; past it a 400 and the connection closed.") +
           sample("webhook_request_header_bytes_max", "", uint64_t(kMaxHeaders)) +
           family("webhook_request_duration_seconds", "histogram", "Time to answer an AdmissionReview.") +
           durations.samples("webhook_request_duration_seconds", "");
  }
};

struct Connection;

struct Webhook {
  InjectOptions defaults;
  ServingTls& tls;
  const CertificateKeeper* keeper;  // with --tls-secret
  Metrics metrics;
  bool log_requests = false;  // --log-level Debug: a line per request
  evconnlistener* listener = nullptr;
  std::deque<Connection*> reserve;  // the health reserve's connections, oldest first

  // Every review slot and the whole reserve taken: the listener waits.
  bool full() const { return metrics.connections == metrics.max_connections && reserve.size() == kHealthReserve; }
};

// A connection's deadline and slot, kept with its SSL object, which the
// connection frees with itself (BEV_OPT_CLOSE_ON_FREE): then the slot is
// free again.
struct Connection {
  Webhook* webhook;
  bufferevent* bev;
  event* deadline;
  bool in_reserve;   // for /healthz and /metrics alone
  bool shut = false;
};

// The socket shut: libevent reads its end and frees the connection,
// whatever it was doing.
void shut(Connection& c) {
  c.shut = true;
  evutil_socket_t fd = bufferevent_getfd(c.bev);
  if (fd >= 0) shutdown(fd, SHUT_RDWR);
}

void on_deadline(evutil_socket_t, short, void* arg) {
  Connection& c = *static_cast<Connection*>(arg);
  c.webhook->metrics.cut++;
  shut(c);
}

void free_connection(void*, void* ptr, CRYPTO_EX_DATA*, int, long, void*) {
  auto* c = static_cast<Connection*>(ptr);
  if (!c) return;
  Webhook& w = *c->webhook;
  bool was_full = w.full();
  if (c->in_reserve)
    w.reserve.erase(std::find(w.reserve.begin(), w.reserve.end(), c));
  else
    w.metrics.connections--;
  if (was_full && w.listener) evconnlistener_enable(w.listener);
  event_free(c->deadline);
  delete c;
}

int connection_index() {
  static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, free_connection);
  return index;
}

const Connection& connection_of(evhttp_request* req) {
  bufferevent* bev = evhttp_connection_get_bufferevent(evhttp_request_get_connection(req));
  return *static_cast<Connection*>(SSL_get_ex_data(bufferevent_openssl_get_ssl(bev), connection_index()));
}

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

void reply(evhttp_request* req, int status, const char* type, const std::string& body) {
  evkeyvalq* headers = evhttp_request_get_output_headers(req);
  evhttp_add_header(headers, "Content-Type", type);
  evbuffer* out = evbuffer_new();
  evbuffer_add(out, body.data(), body.size());
  evhttp_send_reply(req, status, nullptr, out);  // libevent's phrase for the status
  evbuffer_free(out);
}

void on_mutate(evhttp_request* req, void* arg) {
  Webhook& w = *static_cast<Webhook*>(arg);
  double start = now();
  w.metrics.requests++;
  if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
    w.metrics.errors++;
    return reply(req, 405, "text/plain", "POST an AdmissionReview\n");
  }
  if (connection_of(req).in_reserve) {
    w.metrics.errors++;
    w.metrics.reviews_busy++;
    return reply(req, 503, "text/plain", "every review slot is taken; this connection is for /healthz and /metrics\n");
  }
  evbuffer* in = evhttp_request_get_input_buffer(req);
  size_t n = evbuffer_get_length(in);
  const char* body = reinterpret_cast<const char*>(evbuffer_pullup(in, -1));  // in place, no copy
  Admission a = admit(std::string_view(body ? body : "", n), w.defaults);
  w.metrics.patches += a.outcome == Admission::patched;
  w.metrics.errors += a.outcome == Admission::refused;
  for (size_t i = 0; *a.uninjected && i < w.metrics.uninjected.size(); i++)
    w.metrics.uninjected[i] += strcmp(a.uninjected, kUninjectedReasons[i]) == 0;
  reply(req, a.http_status, a.http_status == 200 ? "application/json" : "text/plain", a.body);
  double seconds = now() - start;
  w.metrics.durations.observe(seconds);
  if (w.log_requests) fprintf(stderr, "resolv-k8s: webhook: %s (%.6f s)\n", a.summary.c_str(), seconds);
}

// Alive while the loop answers, the liveness probe's; ready once the
// certificate the API server trusts is served, the readiness probe's: a
// replica waiting on a slow API server is kept out of the Service, not
// restarted.
void on_healthz(evhttp_request* req, void*) { reply(req, 200, "text/plain", "ok\n"); }

void on_readyz(evhttp_request* req, void* arg) {
  const Webhook& w = *static_cast<Webhook*>(arg);
  if (w.tls.ready()) return reply(req, 200, "text/plain", "ok\n");
  reply(req, 503, "text/plain", "no certificate yet: the Secret not read through the API server (the log says why)\n");
}

void on_unknown(evhttp_request* req, void*) {
  reply(req, 404, "text/plain", "/mutate, /healthz, /readyz or /metrics\n");
}

void on_metrics(evhttp_request* req, void* arg) {
  const Webhook& w = *static_cast<Webhook*>(arg);
  reply(req, 200, "text/plain; version=0.0.4",
        w.metrics.text(w.reserve.size(), w.tls.not_after(), w.keeper ? w.keeper->failures() : 0));
}

// Every connection speaks TLS with the certificate of the moment, and has
// its deadline and its slot: a review slot while there is one, else the
// health reserve's, its oldest shut when the last is taken; with every
// slot taken the listener stops accepting.
bufferevent* tls_connection(event_base* base, void* arg) {
  Webhook& w = *static_cast<Webhook*>(arg);
  SSL_CTX* ctx = w.tls.current();
  SSL* ssl = ctx ? SSL_new(ctx) : nullptr;
  bufferevent* bev = ssl ? bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                          BEV_OPT_CLOSE_ON_FREE)
                         : nullptr;
  if (!bev) return nullptr;
  auto* c = new Connection{&w, bev, nullptr, w.metrics.connections == w.metrics.max_connections};
  c->deadline = evtimer_new(base, on_deadline, c);
  evtimer_add(c->deadline, &kConnectionDeadline);
  SSL_set_ex_data(ssl, connection_index(), c);
  if (!c->in_reserve) {
    w.metrics.connections++;
  } else {
    w.reserve.push_back(c);
    if (w.reserve.size() == kHealthReserve &&
        std::none_of(w.reserve.begin(), w.reserve.end(), [](const Connection* r) { return r->shut; })) {
      w.metrics.health_shut++;
      shut(*w.reserve.front());
    }
  }
  if (w.full()) evconnlistener_disable(w.listener);
  return bev;
}

void on_signal(evutil_socket_t signal, short, void* base) {
  fprintf(stderr, "resolv-k8s: webhook: %s: stopping\n", signal == SIGTERM ? "SIGTERM" : "SIGINT");
  event_base_loopexit(static_cast<event_base*>(base), nullptr);
}

// "ADDR:PORT", "[V6]:PORT", ":PORT" (every address).
bool parse_listen(const std::string& text, std::string& host, uint16_t& port) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "::";
  char* end;
  unsigned long p = strtoul(text.c_str() + colon + 1, &end, 10);
  unsigned char addr[16];
  port = uint16_t(p);
  return *end == '\0' && p > 0 && p < 65536 &&
         (inet_pton(AF_INET, host.c_str(), addr) == 1 || inet_pton(AF_INET6, host.c_str(), addr) == 1);
}

// The command line: inject's flags into `defaults`, the webhook's own.
struct WebhookFlags {
  InjectOptions defaults;
  std::string cert, key, listen = ":8443", log_level = "Normal";
  std::string tls_secret, service = "resolv-k8s-webhook", configuration = "resolv-k8s";
  unsigned long max_connections = kDefaultMaxConnections, secret_interval = 300;
};

// `text` as a number from `low` to `high`, else the usage error.
unsigned long number_flag(const std::string& flag, const std::string& text, unsigned long low, unsigned long high) {
  char* end;
  unsigned long n = strtoul(text.c_str(), &end, 10);
  if (*end || text.empty() || n < low || n > high)
    usage_error("webhook: " + flag + " is a number from " + std::to_string(low) + " to " + std::to_string(high));
  return n;
}

WebhookFlags read_webhook_flags(const Args& args) {
  WebhookFlags f;
  std::string max_connections, interval;
  std::pair<const char*, std::string*> own[] = {
      {"--cert", &f.cert},         {"--key", &f.key},
      {"--listen", &f.listen},     {"--log-level", &f.log_level},
      {"--max-connections", &max_connections}, {"--tls-secret", &f.tls_secret},
      {"--service", &f.service},   {"--webhook-configuration", &f.configuration},
      {"--tls-secret-interval", &interval}};
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& flag = args[i];
    if (read_inject_flag("webhook", args, i, f.defaults)) continue;
    auto known = std::find_if(std::begin(own), std::end(own), [&](const auto& o) { return flag == o.first; });
    if (known == std::end(own)) usage_error("webhook: unknown flag '" + flag + "'");
    if (i + 1 == args.size() || args[i + 1].empty()) usage_error("webhook: " + flag + " needs a value");
    *known->second = args[++i];
  }
  if (f.log_level != "Normal" && f.log_level != "Debug") usage_error("webhook: --log-level is Normal or Debug");
  if (!max_connections.empty()) f.max_connections = number_flag("--max-connections", max_connections, 1, 1000);
  if (!interval.empty()) f.secret_interval = number_flag("--tls-secret-interval", interval, 1, 86400);
  // --host-search auto: the node's, as kubelet gave them to this pod.
  if (f.defaults.host_search == std::vector<std::string>{"auto"})
    f.defaults.host_search = node_search_of("/etc/resolv.conf", f.defaults.cluster_domain);
  check_inject_options("webhook", f.defaults);
  if (f.tls_secret.empty() == (f.cert.empty() || f.key.empty()))
    usage_error("webhook: --cert and --key are needed, or --tls-secret instead");
  return f;
}

// --tls-secret: the Secret in the pod's own namespace, for the names the
// API server calls the Service by.
SelfCertificate self_certificate_of(const WebhookFlags& f) {
  SelfCertificate self;
  self.ns = kube_namespace();
  if (self.ns.empty()) {
    fprintf(stderr, "resolv-k8s: webhook: --tls-secret: %s/namespace: not in a pod with its ServiceAccount\n",
            kServiceAccountDir);
    exit(1);
  }
  self.secret = f.tls_secret;
  self.configuration = f.configuration;
  std::string service = f.service + "." + self.ns;
  self.names = {service + ".svc", service + ".svc." + f.defaults.cluster_domain, service};
  return self;
}

}  // namespace

int webhook_command(const Args& args) {
  if (!args.empty() && args[0] == "check") return webhook_check_command(Args(args.begin() + 1, args.end()));
  WebhookFlags f = read_webhook_flags(args);
  std::string host;
  uint16_t port;
  if (!parse_listen(f.listen, host, port)) usage_error("webhook: --listen '" + f.listen + "' is not ADDR:PORT");

  signal(SIGPIPE, SIG_IGN);
  ServingTls tls(f.cert, f.key);
  std::unique_ptr<CertificateKeeper> keeper;
  if (!f.tls_secret.empty())
    keeper = std::make_unique<CertificateKeeper>(self_certificate_of(f), tls, int(f.secret_interval));
  else if (!tls.current())
    return 1;
  Webhook w{f.defaults, tls, keeper.get()};
  w.log_requests = f.log_level == "Debug";
  w.metrics.max_connections = f.max_connections;
  event_base* base = event_base_new();
  evhttp* http = evhttp_new(base);
  evhttp_set_max_body_size(http, kMaxBody);
  evhttp_set_max_headers_size(http, kMaxHeaders);
  evhttp_set_timeout(http, 10);
  evhttp_set_bevcb(http, tls_connection, &w);
  evhttp_set_cb(http, "/mutate", on_mutate, &w);
  evhttp_set_cb(http, "/healthz", on_healthz, &w);
  evhttp_set_cb(http, "/readyz", on_readyz, &w);
  evhttp_set_cb(http, "/metrics", on_metrics, &w);
  evhttp_set_gencb(http, on_unknown, nullptr);
  evhttp_bound_socket* bound = evhttp_bind_socket_with_handle(http, host.c_str(), port);
  if (!bound) {
    fprintf(stderr, "resolv-k8s: webhook: cannot listen on %s\n", f.listen.c_str());
    return 1;
  }
  w.listener = evhttp_bound_socket_get_listener(bound);
  event* term = evsignal_new(base, SIGTERM, on_signal, base);
  event* intr = evsignal_new(base, SIGINT, on_signal, base);
  event_add(term, nullptr);
  event_add(intr, nullptr);
  fprintf(stderr, "resolv-k8s: webhook %s: listening on %s (HTTPS: POST /mutate, GET /healthz, GET /readyz, GET /metrics)\n",
          RK8S_VERSION, f.listen.c_str());
  event_base_dispatch(base);
  event_free(term);
  event_free(intr);
  w.listener = nullptr;  // evhttp_free frees it before the connections
  evhttp_free(http);
  event_base_free(base);
  return 0;
}

}  // namespace rk8s::tools
