// SPDX-License-Identifier: Apache-2.0
// gethostbyname, gethostbyname2 and their _r forms, in front of libc's.
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "files/files.h"
#include "libc.h"
#include "res_state.h"
#include "resolve/dns_step.h"
#include "resolve/gethostbyname_pipeline.h"
#include "start_library.h"
#include "stats.h"
#include "switches.h"

namespace rk8s {
namespace {

int lookup(const char* name, int af, hostent* h, char* buf, size_t len, hostent** result,
           int* herr) {
  start_library();
  if (application_set_res()) return kHostentLibc;
  return maybe_traced(debug_on(), name, [&](ExchangeFn ex, ResolveTrace* trace) {
    return resolve_hostent({name, af, h, buf, len, result, herr, ex, trace});
  });
}

// v2: gethostbyname2(_r); else gethostbyname(_r), which libc answers
// through its own entry points.
int reentrant(bool v2, const char* name, int af, hostent* h, char* buf, size_t len,
              hostent** result, int* herr) {
  const LibcResolver& libc = libc_resolver();
  auto by_libc = [&] {
    return v2 ? libc.gethostbyname2_r(name, af, h, buf, len, result, herr)
              : libc.gethostbyname_r(name, h, buf, len, result, herr);
  };
  if (stepped_aside()) return by_libc();
  return timed([&] {
    int rc = lookup(name, af, h, buf, len, result, herr);
    if (rc != kHostentLibc) return rc;
    count_libc_call();
    return by_libc();
  });
}

// The static result of the plain forms, grown as the libc grows it (each
// ERANGE repeats the lookup, queries included).
pthread_mutex_t static_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_t static_owner;  // while held; pthread_t() else
hostent static_entry;
char* static_buf;
size_t static_len;

// The static result's lock, as glibc's gethostbyname holds one
// (nss/getXXbyYY.c), never left held: a thread that holds it already was
// left mid-lookup by siglongjmp (a SIGALRM handler's timeout) and goes on
// as its owner, where glibc's lock waits on itself; a thread cancelled
// mid-lookup lets it go at its exit (the key's destructor), where glibc's
// stays held.
pthread_key_t static_key;
bool have_static_key;
Once static_key_once;

void release_static(void*) {
  __atomic_store_n(&static_owner, pthread_t(), __ATOMIC_RELAXED);
  pthread_mutex_unlock(&static_lock);
}

void make_static_key() { have_static_key = pthread_key_create(&static_key, release_static) == 0; }

void lock_static() {
  static_key_once.run(make_static_key);
  pthread_t self = pthread_self();
  if (pthread_equal(__atomic_load_n(&static_owner, __ATOMIC_RELAXED), self)) return;
  pthread_mutex_lock(&static_lock);
  __atomic_store_n(&static_owner, self, __ATOMIC_RELAXED);
  if (have_static_key) pthread_setspecific(static_key, &static_lock);
}

void unlock_static() {
  if (have_static_key) pthread_setspecific(static_key, nullptr);
  release_static(nullptr);
}

// glibc: from 1024 bytes, doubling, kept between calls.
int fill_glibc(const char* name, int af, hostent** result, int* herr) {
  if (!static_buf && (static_buf = static_cast<char*>(malloc(1024)))) static_len = 1024;
  for (;;) {
    if (!static_buf) return ENOMEM;
    int rc = lookup(name, af, &static_entry, static_buf, static_len, result, herr);
    if (rc != ERANGE || *herr != NETDB_INTERNAL) return rc;
    char* grown = static_cast<char*>(realloc(static_buf, static_len * 2));
    if (!grown) free(static_buf);
    static_buf = grown, static_len *= 2;
  }
}

// musl: 127 bytes less the struct, then 255, 511... on every call.
int fill_musl(const char* name, int af, hostent** result, int* herr) {
  int rc = ERANGE;
  for (size_t size = 63; rc == ERANGE;) {
    size += size + 1;
    char* grown = static_cast<char*>(realloc(static_buf, size - sizeof(hostent)));
    if (!grown) {
      *herr = NO_RECOVERY;
      return ENOMEM;
    }
    static_buf = grown, static_len = size - sizeof(hostent);
    rc = lookup(name, af, &static_entry, static_buf, static_len, result, herr);
  }
  return rc;
}

hostent* plain(bool v2, const char* name, int af) {
  const LibcResolver& libc = libc_resolver();
  auto by_libc = [&] { return v2 ? libc.gethostbyname2(name, af) : libc.gethostbyname(name); };
  if (stepped_aside()) return by_libc();
  return timed([&]() -> hostent* {
    hostent* result = nullptr;
    int herr = 0;
    lock_static();
    int rc = kLibc == Dialect::glibc ? fill_glibc(name, af, &result, &herr)
                                     : fill_musl(name, af, &result, &herr);
    unlock_static();
    if (rc != kHostentLibc) {
      if (herr != 0) h_errno = herr;
      return rc == 0 ? result : nullptr;
    }
    count_libc_call();
    return by_libc();
  });
}

}  // namespace
}  // namespace rk8s

EXPORT int gethostbyname2_r(const char* name, int af, struct hostent* h, char* buf, size_t len,
                            struct hostent** result, int* h_errnop) __THROW {
  return rk8s::reentrant(true, name, af, h, buf, len, result, h_errnop);
}

EXPORT int gethostbyname_r(const char* name, struct hostent* h, char* buf, size_t len,
                           struct hostent** result, int* h_errnop) __THROW {
  return rk8s::reentrant(false, name, AF_INET, h, buf, len, result, h_errnop);
}

EXPORT struct hostent* gethostbyname2(const char* name, int af) __THROW {
  return rk8s::plain(true, name, af);
}

EXPORT struct hostent* gethostbyname(const char* name) __THROW {
  return rk8s::plain(false, name, AF_INET);
}
