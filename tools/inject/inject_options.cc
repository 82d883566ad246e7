// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/inject_options.h"

#include <arpa/inet.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace rk8s::tools {
namespace {

bool is_ip(const std::string& text) {
  unsigned char addr[16];
  return inet_pton(AF_INET, text.c_str(), addr) == 1 || inet_pton(AF_INET6, text.c_str(), addr) == 1;
}

// "a,b" -> {a, b}; "" -> {}.
std::vector<std::string> list_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

bool read_inject_flag(const char* cmd, const Args& args, size_t& i, InjectOptions& o) {
  const std::string& flag = args[i];
  auto value = [&]() -> const std::string& {
    if (i + 1 == args.size() || args[i + 1].empty()) usage_error(std::string(cmd) + ": " + flag + " needs a value");
    return args[++i];
  };
  // A list flag: repeatable, comma-separated, '' for none.
  auto list = [&]() {
    if (i + 1 == args.size()) usage_error(std::string(cmd) + ": " + flag + " needs a value ('' for none)");
    return list_of(args[++i]);
  };
  auto bad = [&](const std::string& why) { usage_error(std::string(cmd) + ": " + why); };
  if (flag == "--image") {
    o.image = value();
    o.given.image = true;
  } else if (flag == "--libc") {
    o.libc = value();
    if (o.libc != "auto" && o.libc != "glibc" && o.libc != "musl") bad("--libc is auto, glibc or musl");
    o.given.libc = true;
  } else if (flag == "--nameserver") {
    for (const std::string& ip : list()) {
      if (!is_ip(ip)) bad("--nameserver '" + ip + "' is not an IP address");
      if (o.nameservers.size() == 3) bad("at most 3 --nameserver (kubelet's limit)");
      o.nameservers.push_back(ip);
    }
    o.given.nameservers = true;
  } else if (flag == "--cluster-domain") {
    o.cluster_domain = value();
    if (o.cluster_domain.back() == '.') o.cluster_domain.pop_back();
    if (o.cluster_domain.empty()) bad("--cluster-domain is empty");
    o.given.cluster_domain = true;
  } else if (flag == "--autopath") {
    const std::string& mode = value();
    if (mode != "option" && mode != "marker") bad("--autopath is option or marker");
    o.marker = mode == "marker";
    o.given.marker = true;
  } else if (flag == "--marker") {
    o.marker_domain = value();
  } else if (flag == "--host-search") {
    for (const std::string& d : list()) o.host_search.push_back(d);
    o.given.host_search = true;
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
  if (std::string(cmd) != "webhook" && o.host_search == std::vector<std::string>{"auto"})
    usage_error(std::string(cmd) + ": --host-search auto is the webhook's (its own pod's resolv.conf): name the domains");
  if (o.image.empty() && !o.remove && !o.marker)
    usage_error(std::string(cmd) +
                ": --image is needed: the init image from your registry, such as "
                "registry.example.com/dns/libresolv-k8s-init:TAG (make push writes it)");
}

std::vector<std::string> node_search_of(const std::string& path, const std::string& cluster_domain) {
  std::ifstream in(path);
  std::vector<std::string> search;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || (word != "search" && word != "domain")) continue;
    search.clear();  // the last line counts, as the libcs read it
    while (words >> word) search.push_back(word.back() == '.' ? word.substr(0, word.size() - 1) : word);
  }
  const std::string svc = "svc." + cluster_domain;
  if (search.size() < 3 || !search[0].ends_with("." + svc) || search[1] != svc || search[2] != cluster_domain)
    return {};
  return std::vector<std::string>(search.begin() + 3, search.end());
}

}  // namespace rk8s::tools
