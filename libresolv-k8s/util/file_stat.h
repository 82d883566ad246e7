// SPDX-License-Identifier: Apache-2.0
// stat(2) and fstat(2) by their system calls. glibc 2.33 made them
// functions of version GLIBC_2.33 (before, inline wrappers of __xstat):
// the preload library loads into older glibcs (mk/preload.mk).
#pragma once

#include <sys/stat.h>

namespace rk8s {

bool stat_path(const char* path, struct stat* st);
bool stat_fd(int fd, struct stat* st);

}  // namespace rk8s
