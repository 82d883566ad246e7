// SPDX-License-Identifier: Apache-2.0
#include "server/settings/system_resolv_conf.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "libresolv-k8s/conf/resolv_conf.h"
#include "libresolv-k8s/files/watched_file.h"

namespace rk8s::server {

namespace {

// `path` read as glibc reads it; null when it does not exist and `missing_ok`.
std::unique_ptr<Config> read_conf(const std::string& path, bool missing_ok) {
  FileBytes file;
  if (!read_file(path.c_str(), file)) {
    if (missing_ok && errno == ENOENT) return nullptr;
    throw std::runtime_error(path + ": " + strerror(errno));
  }
  auto conf = std::make_unique<Config>();  // its search list is 4 KiB
  parse_conf(Dialect::glibc, file.data, file.size, ConfEnv{}, *conf);
  free(file.data);
  return conf;
}

}  // namespace

std::vector<IpAddr> system_resolv_conf_nameservers(const std::string& path) {
  std::unique_ptr<Config> conf = read_conf(path, false);
  return std::vector<IpAddr>(conf->ns.begin(), conf->ns.end());
}

std::vector<dns::Name> system_resolv_conf_search(const std::string& path) {
  std::unique_ptr<Config> conf = read_conf(path, true);
  std::vector<dns::Name> search;
  for (size_t i = 0; conf && i < conf->search_count(); i++) {
    dns::Name n;
    if (dns::name_from_text(conf->search(i), n) && n.len > 1) search.push_back(n);
  }
  return search;
}

}  // namespace rk8s::server
