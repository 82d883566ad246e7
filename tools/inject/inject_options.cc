// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/inject_options.h"

#include <arpa/inet.h>

#include <regex>

#include "resolv-k8s.h"

namespace cli {
namespace {

bool is_ip(const std::string& text) {
  unsigned char addr[16];
  return inet_pton(AF_INET, text.c_str(), addr) == 1 || inet_pton(AF_INET6, text.c_str(), addr) == 1;
}

}  // namespace

InjectOptions default_inject_options() {
  return InjectOptions{"libresolv-k8s-init:" RK8S_VERSION, "auto", {}, "cluster.local", ""};
}

bool read_inject_flag(const char* cmd, const Args& args, size_t& i, InjectOptions& o) {
  const std::string& flag = args[i];
  auto value = [&]() -> const std::string& {
    if (i + 1 == args.size() || args[i + 1].empty()) usage_error(std::string(cmd) + ": " + flag + " needs a value");
    return args[++i];
  };
  auto bad = [&](const std::string& why) { usage_error(std::string(cmd) + ": " + why); };
  if (flag == "--image") {
    o.image = value();
  } else if (flag == "--libc") {
    o.libc = value();
    if (o.libc != "auto" && o.libc != "glibc" && o.libc != "musl") bad("--libc is auto, glibc or musl");
  } else if (flag == "--nameserver") {
    const std::string& ip = value();
    if (!is_ip(ip)) bad("--nameserver '" + ip + "' is not an IP address");
    if (o.nameservers.size() == 3) bad("at most 3 --nameserver (kubelet's limit)");
    o.nameservers.push_back(ip);
  } else if (flag == "--cluster-domain") {
    o.cluster_domain = value();
    if (o.cluster_domain.back() == '.') o.cluster_domain.pop_back();
    if (o.cluster_domain.empty()) bad("--cluster-domain is empty");
  } else if (flag == "--autopath") {
    const std::string& mode = value();
    if (mode != "option" && mode != "marker") bad("--autopath is option or marker");
    o.marker = mode == "marker";
  } else if (flag == "--marker") {
    o.marker_domain = value();
  } else if (flag == "--host-search") {
    o.host_search.push_back(value());
  } else if (flag == "--init-cpu" || flag == "--init-memory") {
    const std::string& quantity = value();
    // A Kubernetes quantity: digits, a fraction, a suffix (m, Ki, Mi, G...).
    static const std::regex kQuantity("[0-9]+(\\.[0-9]+)?(m|k|M|G|Ki|Mi|Gi)?");
    if (!std::regex_match(quantity, kQuantity)) bad(flag + " '" + quantity + "' is not a quantity such as 10m or 16Mi");
    (flag == "--init-cpu" ? o.init_cpu : o.init_memory) = quantity;
  } else {
    return false;
  }
  return true;
}

void check_inject_options(const char* cmd, const InjectOptions& o) {
  if (o.marker && o.nameservers.empty())
    usage_error(std::string(cmd) +
                ": --autopath marker needs --nameserver: the node-local cache, then kube-dns's ClusterIP");
}

}  // namespace cli
