// SPDX-License-Identifier: Apache-2.0
#include "server/data/load.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "libresolv-k8s/files/watched_file.h"
#include "server/data/cluster_json.h"
#include "server/data/cluster_records.h"
#include "server/data/zone_file.h"
#include "server/util/dns_text.h"

namespace rk8s::server {

namespace {

// Throws std::runtime_error "path: reason" for an unreadable file.
std::string file_text(const std::string& path) {
  FileBytes file;
  if (!read_file(path.c_str(), file)) throw std::runtime_error(path + ": " + strerror(errno));
  std::string text(file.data, file.size);
  free(file.data);
  return text;
}

}  // namespace

void load_store(const std::string& cluster_file, const std::string& cluster_domain,
                const std::vector<std::string>& zone_files, const Warn& warn, Store& store) {
  if (!cluster_file.empty()) {
    Name domain;
    if (!parse_name(cluster_domain, domain) || domain.len <= 1)
      throw std::runtime_error("--cluster-domain: bad domain '" + cluster_domain + "'");
    JsonDoc doc(file_text(cluster_file), cluster_file);
    add_cluster(parse_cluster(doc, cluster_file, warn), domain, cluster_file, store);
  }
  for (const std::string& file : zone_files) load_zone(file_text(file), file, store);
}

}  // namespace rk8s::server
