// SPDX-License-Identifier: Apache-2.0
#include "server/settings/file_names.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rk8s::server {

namespace {

// Empty when it is a regular file that can be opened for reading, else
// why not. Nothing else is opened: a FIFO would block, a device may act.
std::string unreadable(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return strerror(errno);
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return strerror(errno);
  close(fd);
  return "";
}

}  // namespace

std::string FileNames::relative(const Field& f) const {
  std::string name = f.text();
  if (name.empty() || name.find('\0') != std::string::npos) f.fail("expected a file name");
  if (base_dir.empty() || name.front() == '/') return name;
  return base_dir + (base_dir.back() == '/' ? "" : "/") + name;
}

std::string FileNames::readable(const Field& f) const {
  std::string path = relative(f);
  std::string why = unreadable(path);
  if (!why.empty()) f.fail(path + ": " + why);
  return path;
}

}  // namespace rk8s::server
