#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# migration_test.sh BUILD_DIR: a node moved from NodeLocal DNSCache to the
# cache and back, in the order container/README.md gives, under a steady
# stream of queries to 169.254.20.10 (kubelet's --cluster-dns there).
# NodeLocal is its interface nodelocaldns holding 169.254.20.10 and a cache
# bound there with SO_REUSEPORT (unbound, forwarding as NodeLocal does).
# The cache, as overlays/from-nodelocaldns sets it (that address on its own
# interface resolv-k8s, health 9255, metrics 9254), starts beside it and
# shares the address's queries; NodeLocal deleted takes its interface and
# its cache away, and the address keeps answering. Rolling back: NodeLocal
# again, then the cache's SIGTERM removes only what is the cache's. Prints
# the queries lost at each step; asserts that the pods kept resolving.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

ip link del nodelocaldns  # lib.sh's; NodeLocal's own below
cluster_dns 53
cluster_dns 55
external_dns

# by_nodelocal|by_cache [NAME]: the A queries for NAME (the stream's) it answered.
by_nodelocal() {
	local name=${1:-web.shop.svc.cluster.local}
	grep -c " info: [^ ]* ${name//./\\.}\\. A IN$" "$WORK/unbound.log"
}
by_cache() {
	local name=${1:-web.shop.svc.cluster.local}
	logged "$WORK/cache.log" " ${name//./\\.}\\. A "
}
# A pod's lookup (glibc, its search list) beside the stream.
resolves() { [[ $(pod shop getent ahostsv4 kubernetes.default) == "10.96.0.1 "*kubernetes.default.svc.cluster.local* ]]; }
asked=kubernetes.default.svc.cluster.local
has_address() { [[ $(ip -br addr show dev resolv-k8s 2>/dev/null) == *169.254.20.10/32* ]]; }
nodelocal_up 127.0.0.53 169.254.20.10
check "NodeLocal alone: a pod resolves through it" "0 1" "$(resolves; echo $?) $(by_nodelocal $asked)"

stream 169.254.20.10 8
sleep 1
# keepLinkLocal false, as the rollback below sets it first (container/README.md).
cache_at cache 169.254.20.10 health='"0.0.0.0:9255"' metrics='"0.0.0.0:9254"' \
	'nodeSetup={interface: resolv-k8s, checkInterval: 1s, keepLinkLocal: false, lockFile: '"$WORK/node.lock"'}'
check "applied beside NodeLocal: the address on the cache's own interface too" 0 "$(has_address; echo $?)"
nodelocal_before=$(by_nodelocal) cache_before=$(by_cache)
both() { (($(by_nodelocal) > nodelocal_before + 50 && $(by_cache) > cache_before + 50)); }
eventually "applied beside NodeLocal: both answer the address's queries" both
sleep 1
nodelocal_down
check "NodeLocal deleted: the address stays, on the cache's interface" 0 "$(has_address; echo $?)"
check "NodeLocal deleted: a pod resolves, through the cache" "0 1" "$(resolves; echo $?) $(by_cache $asked)"
few_lost "NodeLocal to the cache"

nodelocal_up 127.0.0.53 169.254.20.10
stream 169.254.20.10 6
sleep 2
kill -TERM "${PID[cache]}"
wait "${PID[cache]}"
check "rolled back: the cache's SIGTERM ends it, and only its interface and rules go" "0 no interface, no rules, nodelocaldns" \
	"$? $(ip link show dev resolv-k8s > /dev/null 2>&1 || echo no interface), $(nft list table inet resolv_k8s > /dev/null 2>&1 || echo no rules), $(ip -br link show dev nodelocaldns | cut -d' ' -f1)"
nodelocal_before=$(by_nodelocal $asked)
check "rolled back: a pod resolves, through NodeLocal" "0 1" "$(resolves; echo $?) $(($(by_nodelocal $asked) - nodelocal_before))"
few_lost "the cache back to NodeLocal"
summary
