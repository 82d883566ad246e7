#include "server/config/system_resolv_conf.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "conf/resolv_conf.h"
#include "files/watched_file.h"
#include "server/config/address.h"

namespace rk8s::server {

std::vector<Upstream> system_resolv_conf_upstreams(const std::string& path) {
  FileBytes file;
  if (!read_file(path.c_str(), file)) throw std::runtime_error(path + ": " + strerror(errno));
  auto conf = std::make_unique<Config>();  // its search list is 4 KiB
  parse_conf(Dialect::glibc, file.data, file.size, ConfEnv{}, *conf);
  free(file.data);
  std::vector<Upstream> upstreams;
  for (const IpAddr& ns : conf->ns) upstreams.push_back(upstream_at(ns, 53));
  return upstreams;
}

}  // namespace rk8s::server
