// SPDX-License-Identifier: Apache-2.0
#include "util/file_stat.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace rk8s {

// The kernel's struct stat is the libc's on x86_64 and aarch64, glibc and
// musl alike; newfstatat is the path stat both architectures have.
bool stat_path(const char* path, struct stat* st) { return syscall(SYS_newfstatat, AT_FDCWD, path, st, 0) == 0; }

bool stat_fd(int fd, struct stat* st) { return syscall(SYS_fstat, fd, st) == 0; }

}  // namespace rk8s
