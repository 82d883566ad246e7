// SPDX-License-Identifier: Apache-2.0
#include "tools/usage/usage.h"

#include <stdio.h>
#include <stdlib.h>

#include "resolv-k8s.h"

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

void print_help() { fputs(kHelp, stdout); }

void usage_error(const std::string& what) {
  fprintf(stderr, "resolv-k8s: %s (resolv-k8s --help)\n", what.c_str());
  exit(2);
}

}  // namespace cli
