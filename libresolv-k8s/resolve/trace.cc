// SPDX-License-Identifier: Apache-2.0
#include "resolve/trace.h"

#include <stdio.h>
#include <time.h>

#include "dns/autopath.h"
#include "files/files.h"

namespace rk8s {
namespace {

const char* status_name(Reply::Status s) {
  static const char* const names[] = {"ok",      "servfail",     "refused",  "notimp", "lame",
                                      "timeout", "conn-refused", "not-sent", "error"};
  return s <= Reply::error ? names[s] : "?";
}

const char* outcome_name(Status s) {
  static const char* const names[] = {"found",       "host-not-found", "no-data", "try-again",
                                      "no-recovery", "system",         "libc"};
  return names[static_cast<int>(s)];
}

long millis_since(const timespec& t0) {
  timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
}

void print_query(Bytes q, uint16_t code) {
  dns::Reader r(q.data, q.size);
  dns::Header h;
  dns::Question qq;
  if (!r.header(h) || !r.question(qq)) return;
  bool option = false;
  dns::Record rec;
  while (r.record(rec)) {
    dns::Edns e;
    Bytes v;
    option |= rec.type == dns::kTypeOPT && dns::edns_from_record(r, rec, e) &&
              dns::edns_option(e.options, code, v);
  }
  char name[1024];
  dns::name_to_text(qq.name, name, sizeof name);
  const char* type = dns::type_name(qq.type);
  fprintf(stderr, "resolv-k8s:   -> %s %s%s\n", name, type ? type : "?", option ? " +autopath" : "");
}

}  // namespace

void traced_exchange(const Config& conf, const Bytes* queries, Reply* replies, size_t n) {
  for (size_t i = 0; i < n; i++) print_query(queries[i], conf.opt.autopath_code);
  timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  exchange(conf, queries, replies, n);
  long ms = millis_since(t0);
  for (size_t i = 0; i < n; i++) {
    const Reply& r = replies[i];
    dns::Reader reader(r.msg, r.len);
    dns::Header h;
    if (r.status == Reply::ok && reader.header(h))
      fprintf(stderr, "resolv-k8s:   <- rcode %u, %u answers, server %u, %ld ms\n", h.rcode(),
              h.ancount, r.server, ms);
    else
      fprintf(stderr, "resolv-k8s:   <- %s, %ld ms\n", status_name(r.status), ms);
  }
}

void trace_outcome(const char* node, int rc, const ResolveTrace& t) {
  if (!t.used_dns) {
    fprintf(stderr, "resolv-k8s: %s: %d without DNS\n", node ? node : "(null)", rc);
    return;
  }
  const LookupResult& r = t.result;
  fprintf(stderr, "resolv-k8s: %s: %s (%d), %u queries, classic walk %u, %s\n", node,
          outcome_name(r.status), rc, r.queries, r.classic_queries,
          r.autopath_answered ? "answered by autopath" : r.fell_back ? "fell back" : "classic");
}

}  // namespace rk8s
