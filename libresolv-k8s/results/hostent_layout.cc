// SPDX-License-Identifier: Apache-2.0
// The struct hostent each libc builds into the caller's buffer (hostent_layout.h).
#include "results/hostent_layout.h"

#include <errno.h>
#include <sys/socket.h>

namespace rk8s {
namespace {

size_t addr_len(int family) { return family == AF_INET6 ? 16 : 4; }

// glibc's alloc_buffer: once an allocation fails, every later one fails.
struct Bump {
  char* p;
  char* end;
  bool failed = false;

  char* take(size_t n, size_t align) {
    uintptr_t at = (uintptr_t(p) + align - 1) & ~uintptr_t(align - 1);
    if (failed || at > uintptr_t(end) || n > uintptr_t(end) - at) {
      failed = true;
      return nullptr;
    }
    p = reinterpret_cast<char*>(at + n);
    return reinterpret_cast<char*>(at);
  }
};

}  // namespace

int glibc_hostent(const HostentParts& p, hostent* h, char* buf, size_t len) {
  size_t size = addr_len(p.family);
  h->h_addrtype = p.family;
  h->h_length = int(size);
  Bump b{buf, buf + len};
  char* first_name = nullptr;
  for (size_t i = 0; i < p.name_count; i++) {
    size_t n = strlen(p.names[i]) + 1;
    char* s = b.take(n, 1);
    if (s) memcpy(s, p.names[i], n);
    if (i == 0) first_name = s;
  }
  char* first_addr = nullptr;
  for (size_t i = 0; i < p.addr_count; i++) {
    char* a = b.take(size, 4);
    if (a) memcpy(a, p.addrs[i].addr, size);
    if (i == 0) first_addr = a;
  }
  auto* addr_list = reinterpret_cast<char**>(b.take((p.addr_count + 1) * sizeof(char*), alignof(char*)));
  auto* aliases = reinterpret_cast<char**>(b.take(p.name_count * sizeof(char*), alignof(char*)));
  if (b.failed) return ERANGE;
  for (size_t i = 0; i < p.addr_count; i++) addr_list[i] = first_addr + i * size;
  addr_list[p.addr_count] = nullptr;
  char* s = first_name;
  for (size_t i = 0; i + 1 < p.name_count; i++, s += strlen(s) + 1) aliases[i] = s;
  aliases[p.name_count - 1] = nullptr;
  h->h_name = s;
  h->h_aliases = aliases;
  h->h_addr_list = addr_list;
  return 0;
}

int glibc_numeric_hostent(int family, const uint8_t* addr, const char* name, hostent* h,
                          char* buf, size_t len) {
  size_t n = strlen(name) + 1;
  size_t need = 16 + 3 * sizeof(char*) + n;
  if (len < need) return ERANGE;
  memset(buf, 0, need);
  memcpy(buf, addr, addr_len(family));
  // glibc's layout at whatever alignment the caller's buffer has: the
  // pointers are copied in, not stored through a misaligned char**.
  char* pointers[3] = {buf, nullptr, nullptr};  // the address list, then the alias list
  memcpy(buf + 16, pointers, sizeof pointers);
  auto* list = reinterpret_cast<char**>(buf + 16);
  h->h_name = static_cast<char*>(memcpy(buf + 16 + 3 * sizeof(char*), name, n));
  h->h_aliases = list + 2;
  h->h_addr_list = list;
  h->h_addrtype = family;
  h->h_length = int(addr_len(family));
  return 0;
}

int musl_hostent(const HostentParts& p, hostent* h, char* buf, size_t len) {
  const char* canon = p.names[0];
  const char* name = p.names[1];
  size_t size = addr_len(p.family);
  h->h_addrtype = p.family;
  h->h_length = int(size);
  size_t align = -uintptr_t(buf) & (sizeof(char*) - 1);
  size_t need = 4 * sizeof(char*) + (p.addr_count + 1) * (sizeof(char*) + size) +
                strlen(name) + 1 + strlen(canon) + 1 + align;
  if (need > len) return ERANGE;
  buf += align;
  h->h_aliases = reinterpret_cast<char**>(buf);
  buf += 3 * sizeof(char*);
  h->h_addr_list = reinterpret_cast<char**>(buf);
  buf += (p.addr_count + 1) * sizeof(char*);
  for (size_t i = 0; i < p.addr_count; i++, buf += size)
    h->h_addr_list[i] = static_cast<char*>(memcpy(buf, p.addrs[i].addr, size));
  h->h_addr_list[p.addr_count] = nullptr;
  size_t n = strlen(canon) + 1;
  h->h_name = h->h_aliases[0] = static_cast<char*>(memcpy(buf, canon, n));
  buf += n;
  h->h_aliases[1] = strcmp(canon, name) ? strcpy(buf, name) : nullptr;
  h->h_aliases[2] = nullptr;
  return 0;
}

}  // namespace rk8s
