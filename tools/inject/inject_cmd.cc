// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/inject_cmd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>

#include "resolv-k8s.h"
#include "tools/inject/inject.h"
#include "tools/usage/usage.h"

namespace cli {
namespace {

bool is_ip(const std::string& text) {
  unsigned char addr[16];
  return inet_pton(AF_INET, text.c_str(), addr) == 1 || inet_pton(AF_INET6, text.c_str(), addr) == 1;
}

InjectOptions parse_options(const Args& args, std::string& input) {
  InjectOptions o = default_inject_options();
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& flag = args[i];
    if (read_inject_flag("inject", args, i, o)) {
      continue;
    } else if (flag == "--remove") {
      o.remove = true;
    } else if (flag == "--namespace") {
      if (i + 1 == args.size() || args[i + 1].empty()) usage_error("inject: --namespace needs a value");
      o.default_namespace = args[++i];
    } else if (flag.starts_with("-") && flag != "-") {
      usage_error("inject: unknown flag '" + flag + "'");
    } else if (!input.empty()) {
      usage_error("inject: one FILE (or - for stdin) is needed");
    } else {
      input = flag;
    }
  }
  if (input.empty()) usage_error("inject: one FILE (or - for stdin) is needed");
  check_inject_options("inject", o);
  return o;
}

bool read_input(const std::string& input, std::string& text) {
  struct stat st;
  if (input != "-" && stat(input.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return false;
  }
  if (input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream f(input, std::ios::binary);
  text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return f.is_open() && !f.bad();
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

int inject_command(const Args& args) {
  std::string input, text;
  InjectOptions options = parse_options(args, input);
  if (!read_input(input, text)) {
    fprintf(stderr, "resolv-k8s: inject: %s: %s\n", input.c_str(), strerror(errno));
    return 1;
  }
  const char* name = input == "-" ? "stdin" : input.c_str();
  try {
    std::vector<StreamError> notes;
    std::string out = inject_stream(text, options, &notes);
    for (const StreamError& n : notes)
      fprintf(stderr, "resolv-k8s: inject: %s:%d: document %d: %s\n", name, n.line, n.document, n.what.c_str());
    fwrite(out.data(), 1, out.size(), stdout);
  } catch (const StreamError& e) {
    fprintf(stderr, "resolv-k8s: inject: %s:%d: document %d: %s\n", name, e.line, e.document, e.what.c_str());
    return 1;
  }
  return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

}  // namespace cli
