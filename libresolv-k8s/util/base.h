// SPDX-License-Identifier: Apache-2.0
// Small freestanding building blocks shared by the whole core.
//
// The core is compiled with -nostdinc++ -fno-exceptions -fno-rtti: it may use
// C headers from the libc it is built against, and nothing from libstdc++.
#pragma once

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

namespace rk8s {

// The two resolvers we stand in for.
enum class Dialect : uint8_t { glibc, musl };

// A release of one, for comparisons: where the rules changed between
// releases (glibc 2.28-2.44, musl 1.2.2-1.2.6), the running one's hold.
constexpr uint32_t release(uint32_t major, uint32_t minor, uint32_t patch = 0) {
  return major << 16 | minor << 8 | patch;
}

// The release whose rules hold where nothing else is known: the ones the
// core was first written against, Debian bookworm's.
constexpr uint32_t reference_release(Dialect d) {
  return d == Dialect::glibc ? release(2, 36) : release(1, 2, 3);
}

// The dialect of the libc this copy of the core was compiled against.
#ifdef __GLIBC__
constexpr Dialect kLibc = Dialect::glibc;
#else
constexpr Dialect kLibc = Dialect::musl;
#endif

// Bytes borrowed from someone else; never owns them.
struct Bytes {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// Characters borrowed from someone else, not NUL-terminated.
struct Str {
  const char* data = nullptr;
  size_t size = 0;

  bool operator==(Str o) const {
    return size == o.size && (size == 0 || memcmp(data, o.data, size) == 0);
  }
};

inline Str str(const char* s) { return Str{s, s ? strlen(s) : 0}; }

// A vector of trivially copyable T with room for N, kept inline. The items
// past `count` are never made: a list of 128 addresses costs nothing to
// make or empty, and a copy copies the items in use.
template <class T, size_t N>
struct FixedVec {
  union {
    T items[N];
  };
  size_t count = 0;

  FixedVec() {}
  FixedVec(const FixedVec& o) : count(o.count) { memcpy(items, o.items, count * sizeof(T)); }
  FixedVec& operator=(const FixedVec& o) {
    count = o.count;
    memmove(items, o.items, count * sizeof(T));
    return *this;
  }

  bool push(const T& v) {
    if (count == N) return false;
    items[count++] = v;
    return true;
  }
  bool full() const { return count == N; }
  void clear() { count = 0; }
  T& operator[](size_t i) { return items[i]; }
  const T& operator[](size_t i) const { return items[i]; }
  T* begin() { return items; }
  T* end() { return items + count; }
  const T* begin() const { return items; }
  const T* end() const { return items + count; }
};

// A lock for a few lines of work. It is a plain word, so a child forked
// while another thread held it can simply reset it.
struct SpinLock {
  int word = 0;

  void lock() {
    while (__atomic_exchange_n(&word, 1, __ATOMIC_ACQUIRE)) {
    }
  }
  void unlock() { __atomic_store_n(&word, 0, __ATOMIC_RELEASE); }
};

// pthread_once without libpthread: before 2.34 glibc had pthread_once in
// libpthread.so.0 alone, which the preload does not name (an image made of
// ldd's list has none). The first caller runs `init`, the others wait. The
// word holds the runner's pid, so a child forked mid-run runs it again.
// A pthread_cancel of the runner is acted on once `init` is done: cancelled
// at one of its cancellation points (open, read), it would leave the word
// set for good and every later caller waiting (glibc's pthread_once undoes
// its state there instead); pthread_setcancelstate is libc's in every glibc.
struct Once {
  int word = 0;  // 0: not run; -1: done; else the pid of the process running it

  void run(void (*init)()) {
    int seen = __atomic_load_n(&word, __ATOMIC_ACQUIRE);
    if (seen == -1) return;
    int me = getpid();
    while (seen != -1) {
      if (seen != me &&
          __atomic_compare_exchange_n(&word, &seen, me, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        int cancel_state, ignored;
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
        init();
        __atomic_store_n(&word, -1, __ATOMIC_RELEASE);
        pthread_setcancelstate(cancel_state, &ignored);
        return;
      }
      sched_yield();
      seen = __atomic_load_n(&word, __ATOMIC_ACQUIRE);
    }
  }
};

inline uint16_t load16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }
inline uint32_t load32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
inline void store16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}
inline void store32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

}  // namespace rk8s
