// SPDX-License-Identifier: Apache-2.0
// The result list in each libc's own layout, so that either freeaddrinfo
// frees it: glibc's one block per entry, musl's one array for all.
#include "results/list.h"

#include <stdlib.h>

#include "results/sort_glibc.h"

namespace rk8s {
namespace {

// One malloc per entry, ai_addr right after it, canonname on the first
// entry only: glibc's own freeaddrinfo can free it.
int glibc_list(const GaiRequest& req, const IpAddr* addrs, size_t n, const char* canon,
               struct addrinfo** res) {
  size_t ns = req.servs.count, ne = n * ns;
  size_t* order = static_cast<size_t*>(malloc(ne * sizeof(size_t)));
  if (!order) return EAI_MEMORY;
  for (size_t e = 0; e < ne; ++e) order[e] = e;
  if (n > 1 && !glibc_sort_entries(addrs, n, ns, order)) {
    free(order);
    return EAI_MEMORY;
  }
  struct addrinfo* head = nullptr;
  struct addrinfo** tail = &head;
  for (size_t k = 0; k < ne; ++k) {
    const IpAddr& a = addrs[order[k] / ns];
    const GaiServ& s = req.servs[order[k] % ns];
    socklen_t len = a.family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
    auto* ai = static_cast<struct addrinfo*>(calloc(1, sizeof(struct addrinfo) + len));
    if (!ai || (k == 0 && canon && !(ai->ai_canonname = strdup(canon)))) {
      free(ai);
      free(order);
      gai_free(Dialect::glibc, head);
      return EAI_MEMORY;
    }
    ai->ai_flags = req.flags;
    ai->ai_family = a.family;
    ai->ai_socktype = s.socktype;
    ai->ai_protocol = s.protocol;
    ai->ai_addr = reinterpret_cast<struct sockaddr*>(ai + 1);
    ai->ai_addrlen = ip_to_sockaddr(a, s.port, ai->ai_addr);
    *tail = ai;
    tail = &ai->ai_next;
  }
  free(order);
  *res = head;
  return 0;
}

// musl's own layout (struct aibuf in musl's lookup.h): one calloc'd array
// of these, then the canonical name every entry points at. freeaddrinfo
// gets from any entry back to the array through `slot` and frees it when
// `ref` (kept in the first) says every entry was given back, so a sublist
// can be freed on its own. musl's freeaddrinfo and ours free each other's.
struct MuslEntry {
  struct addrinfo ai;
  union {
    struct sockaddr_in sin;
    struct sockaddr_in6 sin6;
  } sa;
  volatile int lock[1];
  short slot, ref;
};

int musl_list(const GaiRequest& req, const IpAddr* addrs, size_t n, const char* canon,
              struct addrinfo** res) {
  size_t ns = req.servs.count, ne = n * ns;
  size_t canon_len = canon ? strlen(canon) : 0;
  auto* out = static_cast<MuslEntry*>(calloc(1, ne * sizeof(MuslEntry) + canon_len + 1));
  if (!out) return EAI_MEMORY;
  char* shared_canon = canon_len ? reinterpret_cast<char*>(out + ne) : nullptr;
  if (shared_canon) memcpy(shared_canon, canon, canon_len + 1);
  for (size_t k = 0; k < ne; ++k) {
    const IpAddr& a = addrs[k / ns];
    const GaiServ& s = req.servs[k % ns];
    MuslEntry& e = out[k];
    e.slot = short(k);
    e.ai.ai_family = a.family;
    e.ai.ai_socktype = s.socktype;
    e.ai.ai_protocol = s.protocol;
    e.ai.ai_addr = reinterpret_cast<struct sockaddr*>(&e.sa);
    e.ai.ai_addrlen = ip_to_sockaddr(a, s.port, &e.sa);
    e.ai.ai_canonname = shared_canon;
    if (k) out[k - 1].ai.ai_next = &e.ai;
  }
  out[0].ref = short(ne);
  *res = &out[0].ai;
  return 0;
}

}  // namespace

int build_list(const GaiRequest& req, const IpAddr* addrs, size_t n, const char* canon,
               struct addrinfo** res) {
  if (n == 0) return EAI_NONAME;
  return req.dialect == Dialect::glibc ? glibc_list(req, addrs, n, canon, res)
                                       : musl_list(req, addrs, n, canon, res);
}

void gai_free(Dialect dialect, struct addrinfo* ai) {
  if (!ai) return;
  if (dialect == Dialect::glibc) {
    while (ai) {
      struct addrinfo* next = ai->ai_next;
      free(ai->ai_canonname);
      free(ai);
      ai = next;
    }
    return;
  }
  short count = 1;
  for (; ai->ai_next; ai = ai->ai_next) ++count;
  auto* last = reinterpret_cast<MuslEntry*>(ai);  // ai is MuslEntry's first member
  MuslEntry* first = last - last->slot;
  if (__atomic_sub_fetch(&first->ref, count, __ATOMIC_ACQ_REL) == 0) free(first);
}

}  // namespace rk8s
