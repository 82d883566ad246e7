/* SPDX-License-Identifier: Apache-2.0 */
/* Included into every object of the glibc preload library (the core, preload/,
 * c-ares, mimalloc) so that it loads into glibc 2.17 and later: each libc
 * function whose default version is newer than the floor is bound to the
 * version it had at the floor, which glibc keeps exporting. The functions
 * that are newer than the floor altogether (stat, getrandom) are not called
 * (util/file_stat.h, util/random.cc); test-glibc-floor reads the result.
 * The pthread and dl functions lived in libpthread.so.0 and libdl.so.2
 * before 2.34: the library names both (mk/preload.mk). */
#ifndef RK8S_GLIBC_FLOOR_H
#define RK8S_GLIBC_FLOOR_H

#if defined(__x86_64__)
#define RK8S_FLOOR(f) __asm__(".symver " #f "," #f "@GLIBC_2.2.5");
#elif defined(__aarch64__)
#define RK8S_FLOOR(f) __asm__(".symver " #f "," #f "@GLIBC_2.17");
#else
#error "the glibc floor of this architecture is not known"
#endif

/* Moved into libc.so.6 by 2.34, under a new default version. libc.so.6's
 * pthread_atfork rather than libc_nonshared.a's, which calls
 * __register_atfork: musl lacks that, and a musl program given the glibc
 * build must start (the build steps aside there, preload/env.cc). */
RK8S_FLOOR(dlsym)
RK8S_FLOOR(pthread_atfork)
RK8S_FLOOR(pthread_once)
RK8S_FLOOR(pthread_key_create)
RK8S_FLOOR(pthread_getspecific)
RK8S_FLOOR(pthread_setspecific)

#undef RK8S_FLOOR
#endif
