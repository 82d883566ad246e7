#include "server/load.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "server/zone_file.h"

namespace rk8s::server {

std::string read_file(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": " + strerror(errno));
  std::string text;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) text.append(buf, size_t(n));
  int error = errno;
  close(fd);
  if (n < 0) throw std::runtime_error(path + ": " + strerror(error));
  return text;
}

void load_store(const std::string& cluster_file, const std::string& cluster_domain,
                const std::vector<std::string>& zone_files, const Warn& warn, Store& store) {
  if (!cluster_file.empty()) {
    Name domain;
    if (!parse_name(cluster_domain, domain) || domain.len <= 1)
      throw std::runtime_error("--cluster-domain: bad domain '" + cluster_domain + "'");
    Json list = parse_json(read_file(cluster_file), cluster_file);
    add_cluster(parse_cluster(list, cluster_file, warn), domain, cluster_file, store);
  }
  for (const std::string& file : zone_files) load_zone(read_file(file), file, store);
}

}  // namespace rk8s::server
