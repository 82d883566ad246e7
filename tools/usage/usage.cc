// SPDX-License-Identifier: Apache-2.0
#include "tools/usage/usage.h"

#include <stdio.h>
#include <stdlib.h>


namespace rk8s::tools {
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
    "  inject --image IMAGE [--libc auto|glibc|musl] [--nameserver IP[,IP] ...]\n"
    "         [--host-search DOMAIN[,DOMAIN] ...] [--cluster-domain DOMAIN] [--namespace NS]\n"
    "         [--init-cpu Q] [--init-memory Q] FILE|-\n"
    "                                Kubernetes YAML (- for stdin) on stdout, with the\n"
    "                                library in every Pod, Deployment, StatefulSet,\n"
    "                                DaemonSet, ReplicaSet, Job and CronJob: an init\n"
    "                                container (IMAGE, your registry's libresolv-k8s-init;\n"
    "                                no default) fills a volume, LD_PRELOAD names the\n"
    "                                library (auto, the default: the build of the libc\n"
    "                                each program runs with), the k8s-autopath option is on;\n"
    "                                with --nameserver (the node-local cache, then up to\n"
    "                                two to fall back to, kube-dns's ClusterIP; '' for none),\n"
    "                                dnsPolicy None and the DNS kubelet would write for the\n"
    "                                object's namespace (else NS; without one, refused)\n"
    "                                in DOMAIN (default cluster.local), the node's search\n"
    "                                domains (--host-search) after the cluster's, and\n"
    "                                timeout:1 attempts:2. The init container asks\n"
    "                                --init-cpu (10m) and --init-memory (16Mi), requests\n"
    "                                and limits alike. A List's items are injected; other\n"
    "                                objects pass unchanged. The annotation\n"
    "                                resolv-k8s.io/injected says what was asked and added:\n"
    "                                a later run keeps what it is not given, and says on\n"
    "                                stderr what it changed; run again as before, it\n"
    "                                changes nothing. A directory or an unrendered\n"
    "                                template ({{ }}) is refused and nothing written.\n"
    "  inject --remove FILE|-        what the injection added (resolv-k8s.io/injected)\n"
    "                                taken out again\n"
    "         --autopath marker --nameserver NODE_LOCAL --nameserver KUBE_DNS\n"
    "         [--marker DOMAIN] [--host-search DOMAIN ...]\n"
    "                                the marker path instead of the library (no --image):\n"
    "                                that DNS with search.NS.DOMAIN.ap.k8s.io first, the\n"
    "                                node's search domains after the cluster's; NS from the\n"
    "                                object or --namespace (no default)\n"
    "\n"
    "  webhook --cert FILE --key FILE [--listen ADDR:PORT] [--log-level Normal|Debug]\n"
    "          [--max-connections N]\n"
    "          --image IMAGE [inject's flags but --namespace]\n"
    "  webhook --tls-secret NAME [--tls-secret-interval SECONDS] [--service NAME]\n"
    "          [--webhook-configuration NAME] ...\n"
    "                                the mutating admission webhook over HTTPS (default\n"
    "                                :8443): POST /mutate patches each pod created as inject\n"
    "                                would change it; GET /healthz (alive), GET /readyz\n"
    "                                (serving the certificate wanted), GET /metrics. Pods\n"
    "                                annotated resolv-k8s.io/inject: disabled are left alone;\n"
    "                                resolv-k8s.io/autopath and resolv-k8s.io/libc override\n"
    "                                --autopath and --libc. --host-search auto: the node's\n"
    "                                search domains as kubelet gave them to the webhook's\n"
    "                                own pod. --log-level Debug: a line per request (uid,\n"
    "                                pod, what was done, seconds). At most N connections\n"
    "                                for reviews (default 8) and 4 for /healthz and /metrics\n"
    "                                alone, each closed 10 s after it came; 8 KiB of request\n"
    "                                line and headers, bodies of 2 MiB, reviews of 20000\n"
    "                                JSON keys and values. --tls-secret: its own certificate,\n"
    "                                kept in the Secret NAME of its namespace through the API\n"
    "                                server (made, renewed 90 days before it expires, read\n"
    "                                again every SECONDS, default 300), for the Service NAME\n"
    "                                (default resolv-k8s-webhook); the caBundle of webhook\n"
    "                                inject.resolv-k8s.io in the MutatingWebhookConfiguration\n"
    "                                NAME (default resolv-k8s) set to its CA\n"
    "  webhook check [--namespace NS] [--image IMAGE]\n"
    "                                that a pod created in NS (default the pod's own) is\n"
    "                                injected: a server-side dry run through the API server\n"
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

}  // namespace rk8s::tools
