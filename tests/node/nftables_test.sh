#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# nftables_test.sh BUILD_DIR: the cache on kube-dns's ClusterIP on a node
# whose kube-proxy runs in nftables mode: kube-proxy's own table `ip
# kube-proxy` as it writes it (kube-proxy-nftables.sh), DNATing 10.96.0.10
# to the kube-dns pod 10.244.0.53, a pod behind a veth. While the cache runs
# (nodeSetup: its interface holds the ClusterIP, its NOTRACK table `inet
# resolv_k8s`), the pod's queries to the ClusterIP, UDP and TCP, and the
# node's own (a hostNetwork pod's), reach the cache and none is DNATed:
# kube-dns hears the cache's forwards alone, conntrack holds nothing for
# the ClusterIP. kube-proxy's table is left as it was; after SIGTERM the
# ClusterIP reaches kube-dns again. Then the move from NodeLocal DNSCache
# on the same node, under a stream of queries from the pod to the
# ClusterIP: NodeLocal (its interface holding 169.254.20.10 and the
# ClusterIP, its iptables NOTRACK rules, unbound bound there with
# SO_REUSEPORT), the cache beside it, NodeLocal deleted, and back; the pod
# keeps resolving and kube-dns never hears it.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

kube_proxy_node nftables
kube_proxy_table=$(nft list table ip kube-proxy)

from_pod() { pod clusterip dig +nocookie +time=2 +tries=1 "$@" 2>&1; }
# from_pod_kube_dns: the pod's queries kube-dns heard (DNATed: their source is the pod's).
from_pod_kube_dns() { logged "$WORK/kubedns.log" '^10\.0\.0\.2[^ ]* '; }
answered_by() { logged "$WORK/$1.log" " ${2//./\\.}\. "; }
# tracked: conntrack's entries for the ClusterIP, either way.
tracked() { { conntrack -L -d 10.96.0.10 2>/dev/null; conntrack -L -s 10.96.0.10 2>/dev/null; } | grep -c . ; }
setup='nodeSetup={interface: nodecache, checkInterval: 1s, lockFile: '"$WORK/node.lock"'}'
cluster_to_kubedns="servers=[{name: cluster, zones: [cluster.local, in-addr.arpa, ip6.arpa],
  forwardPlugin: {upstreams: [10.244.0.53]}}]"

check_match "no cache: kube-proxy's table DNATs the ClusterIP to kube-dns" \
	"$(ans kubernetes.default.svc.cluster.local A 10.96.0.1)" "$(from_pod @10.96.0.10 kubernetes.default.svc.cluster.local)"
check "no cache: kube-dns heard the pod" 1 "$(from_pod_kube_dns)"
check "no cache: conntrack saw it" yes "$( (($(tracked) > 0)) && echo yes)"
conntrack -F 2>/dev/null
: > "$WORK/kubedns.log"

node_config "$WORK/cache.yaml" 169.254.25.10 "$setup" "$cluster_to_kubedns"
sed -i 's/^listen: .*/listen: ["169.254.25.10:53", "10.96.0.10:53"]/' "$WORK/cache.yaml"
start cache "$SERVER" --config "$WORK/cache.yaml" --query-log "$WORK/cache.log"
check_match "running: the pod asks the ClusterIP (UDP)" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" \
	"$(from_pod @10.96.0.10 web.shop.svc.cluster.local)"
check_match "running: and over TCP" "$(ans db-0.db.shop.svc.cluster.local A 10.244.1.5)" \
	"$(from_pod +tcp @10.96.0.10 db-0.db.shop.svc.cluster.local)"
check "running: the cache took both from the pod" 2 \
	"$(logged "$WORK/cache.log" '^10\.0\.0\.2[^ ]* (web\.shop|db-0\.db\.shop)\.svc\.cluster\.local\. A ')"
check_match "running: the shim in the pod, autopath through the cache" "10\.96\.1\.10" \
	"$(pod clusterip env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -f inet web)"
check "running: one autopath query for it" 1 \
	"$(logged "$WORK/cache.log" '^10\.0\.0\.2[^ ]* web\.shop\.svc\.cluster\.local\. A .*autopath=MATCHED')"
check_match "running: a hostNetwork pod (the node's own query) reaches the cache too" \
	"$(ans kubernetes.default.svc.cluster.local A 10.96.0.1)" "$(ask 10.96.0.10 kubernetes.default.svc.cluster.local)"
check "running: ... the cache answered it" 1 \
	"$(logged "$WORK/cache.log" '^10\.96\.0\.10[^ ]* kubernetes\.default\.svc\.cluster\.local\. A ')"
check "running: none DNATed: kube-dns heard no pod, only the cache's forwards" "0 1" \
	"$(from_pod_kube_dns) $(answered_by kubedns web.shop.svc.cluster.local)"
check "running: none DNATed: conntrack holds nothing for the ClusterIP" 0 "$(tracked)" \
	"$(conntrack -L 2>&1)"
check "running: kube-proxy's table as kube-proxy wrote it" "$kube_proxy_table" "$(nft list table ip kube-proxy)"

kill -TERM "${PID[cache]}"
wait "${PID[cache]}"
check "SIGTERM: the ClusterIP and its NOTRACK rules gone (the link-local address kept), kube-proxy's kept" \
	"0 169.254.25.10/32 0 kube-proxy's" "$? $(ip -4 -br addr show dev nodecache | awk '{ $1 = $2 = ""; print }' | xargs) $(
		nft list table inet resolv_k8s 2>/dev/null | grep -c '10\.96\.0\.10') $(
		[[ $(nft list table ip kube-proxy) == "$kube_proxy_table" ]] && echo "kube-proxy's")"
check_match "after: the ClusterIP reaches kube-dns again" "$(ans db-0.db.shop.svc.cluster.local A 10.244.1.5)" \
	"$(from_pod @10.96.0.10 db-0.db.shop.svc.cluster.local)"
check "after: kube-dns heard the pod" 1 "$(from_pod_kube_dns)"
conntrack -F 2>/dev/null
: > "$WORK/kubedns.log"

# From NodeLocal DNSCache, as container/README.md orders it, with
# NodeLocal's -localip 169.254.20.10,10.96.0.10 and its iptables rules.
ip link del nodelocaldns  # lib.sh's; NodeLocal's own below
# nodelocal_on|nodelocal_off: NodeLocal (lib.sh) and its iptables rules.
nodelocal_on() { nodelocal_up 10.244.0.53 169.254.20.10 10.96.0.10 && nodelocal_rules -I 169.254.20.10 10.96.0.10; }
nodelocal_off() { nodelocal_down && nodelocal_rules -D 169.254.20.10 10.96.0.10; }
by_nodelocal() { grep -c " info: 10\.0\.0\.2 web\.shop\.svc\.cluster\.local\. A IN$" "$WORK/unbound.log"; }
by_cache() { logged "$WORK/moved.log" '^10\.0\.0\.2[^ ]* web\.shop\.svc\.cluster\.local\. A '; }
nodelocal_on
check_match "NodeLocal alone: the pod's query to the ClusterIP reaches it" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" \
	"$(from_pod @10.96.0.10 web.shop.svc.cluster.local)"
check "NodeLocal alone: it answered, kube-dns heard no pod" "1 0" "$(by_nodelocal) $(from_pod_kube_dns)"
stream 10.96.0.10 8
sleep 1
# keepLinkLocal false, as the rollback below sets it first (container/README.md).
node_config "$WORK/moved.yaml" 169.254.20.10 "$cluster_to_kubedns" \
	'nodeSetup={interface: resolv-k8s, checkInterval: 1s, keepLinkLocal: false, lockFile: '"$WORK/node.lock"'}'
sed -i 's/^listen: .*/listen: ["169.254.20.10:53", "10.96.0.10:53"]/' "$WORK/moved.yaml"
start moved "$SERVER" --config "$WORK/moved.yaml" --query-log "$WORK/moved.log"
nodelocal_before=$(by_nodelocal) cache_before=$(by_cache)
both() { (($(by_nodelocal) > nodelocal_before + 50 && $(by_cache) > cache_before + 50)); }
eventually "applied beside NodeLocal: both answer the ClusterIP's queries" both
sleep 1
nodelocal_off
check "NodeLocal deleted: the ClusterIP stays, on the cache's interface" yes \
	"$([[ $(ip -br addr show dev resolv-k8s 2>/dev/null) == *10.96.0.10/32* ]] && echo yes)"
few_lost "NodeLocal to the cache"
check "NodeLocal to the cache: kube-dns never heard the pod" 0 "$(from_pod_kube_dns)"

nodelocal_on
stream 10.96.0.10 6
sleep 2
kill -TERM "${PID[moved]}"
wait "${PID[moved]}"
check "rolled back: the cache's SIGTERM ends it, and only its interface and table go" \
	"0 no interface, no table, nodelocaldns, kube-proxy's" \
	"$? $(ip link show dev resolv-k8s > /dev/null 2>&1 || echo no interface), $(
		nft list table inet resolv_k8s > /dev/null 2>&1 || echo no table), $(
		ip -br link show dev nodelocaldns | cut -d' ' -f1), $(
		[[ $(nft list table ip kube-proxy) == "$kube_proxy_table" ]] && echo "kube-proxy's")"
few_lost "the cache back to NodeLocal"
check "the cache back to NodeLocal: kube-dns never heard the pod" 0 "$(from_pod_kube_dns)"
summary
