# SPDX-License-Identifier: Apache-2.0
# cluster_gen.py OUT SEED NAMESPACES PODS LOOKUPS: the generated cluster of
# `make bench-cluster` and its workload, the same for a SEED.
#
#   OUT/cluster.json       NAMESPACES namespaces ns00.. (and default,
#                          kube-system), each with Services api, web
#                          (dual-stack) and cache, a headless db with three
#                          hostnamed endpoints, an ExternalName ext to
#                          api.example.net
#   OUT/example.net.zone   the external names, at TTLs from 5 s to 300 s,
#                          a CNAME, a wildcard; a negative TTL of 60 s
#   OUT/seq/P              pod P's LOOKUPS names, one a line, never the same
#                          twice in a row; pod P is in namespace P mod
#                          NAMESPACES
import json
import os
import random
import sys

out, seed, namespaces, pods, lookups = sys.argv[1], int(sys.argv[2]), *map(int, sys.argv[3:6])
ns_names = [f"ns{i:02d}" for i in range(namespaces)]


def service(ns, name, spec):
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "namespace": ns}, "spec": spec}


def cluster_ip(*ips):
    return {"type": "ClusterIP", "clusterIP": ips[0], "clusterIPs": list(ips),
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}]}


def db_endpoints(ns, i):
    return {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": "db-abcde", "namespace": ns, "labels": {"kubernetes.io/service-name": "db"}},
            "addressType": "IPv4",
            "endpoints": [{"addresses": [f"10.244.{100 + i}.{k + 10}"], "conditions": {"ready": True},
                           "hostname": f"db-{k}"} for k in range(3)],
            "ports": [{"name": "postgres", "port": 5432, "protocol": "TCP"}]}


def namespace_items(i, ns):
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}},
        service(ns, "api", cluster_ip(f"10.96.{10 + i}.1")),
        service(ns, "web", cluster_ip(f"10.96.{10 + i}.2", f"fd00:10:96::{i:x}:2")),
        service(ns, "cache", cluster_ip(f"10.96.{10 + i}.3")),
        service(ns, "db", {"clusterIP": "None", "clusterIPs": ["None"]}),
        db_endpoints(ns, i),
        service(ns, "ext", {"type": "ExternalName", "externalName": "api.example.net"}),
    ]


def write_cluster():
    items = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}} for n in ("default", "kube-system")]
    items += [service("default", "kubernetes", cluster_ip("10.96.0.1")),
              service("kube-system", "kube-dns", cluster_ip("10.96.0.10"))]
    for i, ns in enumerate(ns_names):
        items += namespace_items(i, ns)
    with open(f"{out}/cluster.json", "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f, indent=1)


ZONE = """$ORIGIN example.net.
$TTL 300
@      3600 IN SOA ns1 hostmaster 2024010101 7200 1800 604800 60
       IN NS ns1
ns1    A     192.0.2.1
api    60   A     198.51.100.10
auth   300  A     198.51.100.20
auth   300  AAAA  2001:db8::20
s3     5    A     198.51.100.31
s3     5    A     198.51.100.32
metrics 30  A     198.51.100.40
cdn    300  CNAME edge.cdn
edge.cdn 20 A     198.51.100.50
*.wild 60   A     198.51.100.77
"""


# The mix a pod of namespace NS draws from: (weight, name or a function of
# the random source giving one).
def mix(ns):
    other = lambda r: r.choice(ns_names)
    return [
        (30, lambda r: r.choice(["api", "web", "cache", "db"])),
        (5, lambda r: f"db-{r.randrange(3)}.db"),
        (12, lambda r: f"{r.choice(['api', 'web'])}.{other(r)}"),
        (4, lambda r: f"cache.{other(r)}.svc.cluster.local"),
        (4, lambda r: "kubernetes.default"),
        (4, lambda r: "ext"),
        (3, lambda r: "nosuch"),
        (25, lambda r: f"{r.choice(['api', 'auth', 's3', 'metrics', 'cdn'])}.example.net"),
        (5, lambda r: f"missing-{r.randrange(20)}.example.net"),
        (8, lambda r: f"u{r.randrange(10**9)}.wild.example.net"),
    ]


def write_sequences():
    os.makedirs(f"{out}/seq", exist_ok=True)
    for p in range(pods):
        r = random.Random(seed * 100003 + p)
        choices = mix(ns_names[p % namespaces])
        weights = [w for w, _ in choices]
        names, last = [], None
        while len(names) < lookups:
            name = r.choices(choices, weights)[0][1](r)
            if name != last:
                names.append(name)
                last = name
        with open(f"{out}/seq/{p}", "w") as f:
            f.write("\n".join(names) + "\n")


write_cluster()
with open(f"{out}/example.net.zone", "w") as f:
    f.write(ZONE)
write_sequences()
