// SPDX-License-Identifier: Apache-2.0
#include "tools/diagnose/api_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <new>

namespace rk8s::tools {

const rk8s_conf* load_conf(const std::string& path, int dialect) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    fprintf(stderr, "resolv-k8s: %s: %s\n", path.c_str(), strerror(errno));
    return nullptr;
  }
  std::string s{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  char host[256] = {};
  bool have_host = gethostname(host, sizeof host - 1) == 0;
  void* mem = operator new(rk8s_conf_size(), std::align_val_t(rk8s_conf_align()));
  return rk8s_conf_parse(mem, rk8s_conf_size(), dialect, s.data(), s.size(), secure_getenv("LOCALDOMAIN"),
                         secure_getenv("RES_OPTIONS"), have_host ? host : nullptr);
}

}  // namespace rk8s::tools
