// SPDX-License-Identifier: Apache-2.0
// resolv-k8s: what the library makes of resolv.conf, of a name, of a lookup,
// and of the counters the preload wrote; and manifests given the library.
#include <ares.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <new>

#include "tools/cli.h"

namespace cli {

namespace {

const char kHelp[] =
    "usage: resolv-k8s COMMAND [ARGS]\n"
    "\n"
    "  conf [--musl] [FILE]          the parsed resolv.conf (default /etc/resolv.conf):\n"
    "                                options, nameservers, search list, autopath, warnings\n"
    "  plan [--musl] [--conf FILE] [-f FAMILY] NAME\n"
    "                                the candidate names in order and the autopath query\n"
    "  lookup [--conf FILE] [-f FAMILY] NAME...\n"
    "                                resolve as the preload's getaddrinfo does (FILE as\n"
    "                                resolv.conf, default /etc/resolv.conf), showing\n"
    "                                every query, reply and outcome, then the counters\n"
    "  stats FILE                    the counters a preloaded process wrote to\n"
    "                                RESOLV_K8S_STATS=FILE\n"
    "  inject [--libc auto|glibc|musl] [--image IMAGE] [--nameserver IP ...]\n"
    "         [--cluster-domain DOMAIN] [--namespace NS] [--init-cpu Q] [--init-memory Q] FILE|-\n"
    "                                Kubernetes YAML (- for stdin) on stdout, with the\n"
    "                                library in every Pod, Deployment, StatefulSet,\n"
    "                                DaemonSet, ReplicaSet, Job and CronJob: an init\n"
    "                                container (IMAGE, default libresolv-k8s-init:" RK8S_VERSION ")\n"
    "                                fills a volume, LD_PRELOAD names the library (auto,\n"
    "                                the default: the build of the libc each program\n"
    "                                runs with), the k8s-autopath option is on;\n"
    "                                with --nameserver (the node-local cache, then up to\n"
    "                                two to fall back to, kube-dns's ClusterIP), dnsPolicy\n"
    "                                None and the DNS kubelet would write for the\n"
    "                                object's namespace (else NS; without one, refused)\n"
    "                                in DOMAIN (default cluster.local). The init\n"
    "                                container asks --init-cpu (10m) and --init-memory\n"
    "                                (16Mi), requests and limits alike. A List's items\n"
    "                                are injected; other objects pass unchanged; a second\n"
    "                                run changes nothing. A directory or an unrendered\n"
    "                                template ({{ }}) is refused and nothing written.\n"
    "  inject --remove FILE|-        the pod spec the first injection kept (annotation\n"
    "                                resolv-k8s.io/original-pod-spec) back in place\n"
    "         --autopath marker --nameserver NODE_LOCAL --nameserver KUBE_DNS\n"
    "         [--marker DOMAIN] [--host-search DOMAIN ...]\n"
    "                                the marker path instead of the library: that DNS\n"
    "                                with search.NS.DOMAIN.ap.k8s.io first, the node's\n"
    "                                search domains after the cluster's; NS from the\n"
    "                                object or --namespace (no default)\n"
    "\n"
    "  webhook --cert FILE --key FILE [--listen ADDR:PORT] [--log-level Normal|Debug]\n"
    "          [inject's flags but --namespace]\n"
    "                                the mutating admission webhook over HTTPS (default\n"
    "                                :8443): POST /mutate patches each pod created as inject\n"
    "                                would change it; GET /healthz, GET /metrics. Pods\n"
    "                                annotated resolv-k8s.io/inject: disabled are left alone;\n"
    "                                resolv-k8s.io/autopath and resolv-k8s.io/libc override\n"
    "                                --autopath and --libc. --log-level Debug: a line per\n"
    "                                request (uid, pod, what was done, seconds)\n"
    "  --version                     the version, as the images and pkg-config have it\n"
    "\n"
    "FAMILY: inet, inet6 or unspec (default). Exit status: 0, 1 when a lookup or\n"
    "a file failed (or inject's input is malformed), 2 on bad usage.\n";

}  // namespace

void usage_error(const std::string& what) {
  fprintf(stderr, "resolv-k8s: %s (resolv-k8s --help)\n", what.c_str());
  exit(2);
}

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

int parse_family(const std::string& word) {
  if (word == "inet") return AF_INET;
  if (word == "inet6") return AF_INET6;
  if (word == "unspec") return AF_UNSPEC;
  usage_error("unknown family '" + word + "': inet, inet6 or unspec");
}

const char* family_name(int family) {
  return family == AF_INET ? "inet" : family == AF_INET6 ? "inet6" : "unspec";
}

const char* eai_name(int code) {
  switch (code) {
    case 0: return "0";
    case EAI_NONAME: return "EAI_NONAME";
    case EAI_NODATA: return "EAI_NODATA";
    case EAI_AGAIN: return "EAI_AGAIN";
    case EAI_FAIL: return "EAI_FAIL";
    case EAI_FAMILY: return "EAI_FAMILY";
    case EAI_SERVICE: return "EAI_SERVICE";
    case EAI_BADFLAGS: return "EAI_BADFLAGS";
    case EAI_MEMORY: return "EAI_MEMORY";
    case EAI_SYSTEM: return "EAI_SYSTEM";
    default: return "EAI_?";
  }
}

}  // namespace cli

int main(int argc, char** argv) {
  cli::Args args(argv + 1, argv + argc);
  if (args.empty()) cli::usage_error("a command is needed");
  std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    fputs(cli::kHelp, stdout);
    return 0;
  }
  if (cmd == "--version") {
    puts("resolv-k8s " RK8S_VERSION);
    return 0;
  }
  // `resolv-k8s COMMAND --help`: the help, which covers every command.
  if (std::find(args.begin(), args.end(), "--help") != args.end()) {
    fputs(cli::kHelp, stdout);
    return 0;
  }
  // The trace goes to stderr: our lines must come out in order with it.
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (cmd == "conf") return cli::conf_command(args);
  if (cmd == "plan") return cli::plan_command(args);
  if (cmd == "lookup") {
    ares_library_init(ARES_LIB_INIT_ALL);
    return cli::lookup_command(args);
  }
  if (cmd == "stats") return cli::stats_command(args);
  if (cmd == "inject") return cli::inject_command(args);
  if (cmd == "webhook") return cli::webhook_command(args);
  cli::usage_error("unknown command '" + cmd + "'");
}
