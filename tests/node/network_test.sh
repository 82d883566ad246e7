#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# network_test.sh BUILD_DIR: the cache's nodeSetup as NodeLocal DNSCache's,
# on a node whose kube-proxy (iptables mode) DNATs the kube-dns ClusterIP
# 10.96.0.10 to the kube-dns pod 10.244.0.53, with a pod behind a veth.
# While the cache runs: its interface holds 169.254.25.10 and the
# ClusterIP, NOTRACK rules keep its queries out of conntrack, so the pod's
# queries to the ClusterIP reach the cache, not kube-dns; what is removed
# comes back. After SIGTERM the ClusterIP and its rules are gone, so it
# reaches kube-dns again, and the link-local address stays (keepLinkLocal),
# where a query is refused at once; with keepLinkLocal false nothing is
# left. The other fallback: a cache on the link-local address alone and
# kube-dns second in the pod's resolv.conf; when the cache dies the shim
# goes on to kube-dns, as glibc does.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

kube_proxy_node
resolv_conf "$WORK/second.conf" 169.254.25.10 shop
sed -i 's/^options .*/& timeout:1 attempts:1\nnameserver 10.96.0.10/' "$WORK/second.conf"

# from_pod ARGS...: dig in the pod.
from_pod() { pod clusterip dig +nocookie +time=2 +tries=1 "$@" 2>&1; }
answered_by() { # LOG NAME: how many queries for NAME the server of LOG got
	logged "$WORK/$1.log" " ${2//./\\.}\. "
}
has_addresses() { [[ $(ip -br addr show dev nodecache 2>/dev/null) =~ 169.254.25.10.*10.96.0.10 ]]; }
has_rules() { [[ $(nft list table inet resolv_k8s 2>/dev/null | grep -c notrack) -ge 4 ]]; }
no_interface() { ! ip link show dev nodecache >/dev/null 2>&1; }
no_rules() { ! nft list table inet resolv_k8s >/dev/null 2>&1; }
setup='nodeSetup={interface: nodecache, checkInterval: 1s, lockFile: '"$WORK/node.lock"'}'
cluster_to_kubedns="servers=[{name: cluster, zones: [cluster.local, in-addr.arpa, ip6.arpa],
  forwardPlugin: {upstreams: [10.244.0.53]}}]"

check_match "no cache: the ClusterIP reaches kube-dns" "$(ans kubernetes.default.svc.cluster.local A 10.96.0.1)" \
	"$(from_pod @10.96.0.10 kubernetes.default.svc.cluster.local)"
check "no cache: kube-dns answered" 1 "$(answered_by kubedns kubernetes.default.svc.cluster.local)"
conntrack -F 2>/dev/null

node_config "$WORK/cache.yaml" 169.254.25.10 "$setup" "$cluster_to_kubedns"
sed -i 's/^listen: .*/listen: ["169.254.25.10:53", "10.96.0.10:53"]/' "$WORK/cache.yaml"
start cache "$SERVER" --config "$WORK/cache.yaml" --query-log "$WORK/cache.log"
tally "running: the interface holds both addresses" "$(has_addresses; echo $?)" ||
	ip addr show dev nodecache | sed 's/^/    | /'
tally "running: NOTRACK for UDP and TCP 53, both ways" "$(has_rules; echo $?)" ||
	nft list ruleset | sed 's/^/    | /'
check_match "running: the pod asks the ClusterIP" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" \
	"$(from_pod @10.96.0.10 web.shop.svc.cluster.local)"
check "running: the cache took it" 1 "$(logged "$WORK/cache.log" '^10\.0\.0\.2[^ ]* web\.shop\.svc\.cluster\.local\. A ')"
check "running: kube-dns heard only the cache's forward" 1 "$(answered_by kubedns web.shop.svc.cluster.local)"
check "running: nothing of it in conntrack" 0 \
	"$(conntrack -L -p udp --dport 53 2>/dev/null | grep -c 'dst=10\.96\.0\.10')"
check_match "running: the shim in the pod, autopath through the cache" "10\.96\.1\.10" \
	"$(pod clusterip env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -f inet web)"
check "running: one autopath query for it" 1 "$(logged "$WORK/cache.log" '^10\.0\.0\.2[^ ]* web\.shop\.svc\.cluster\.local\. A .*autopath=MATCHED')"

ip addr del 10.96.0.10/32 dev nodecache
nft delete table inet resolv_k8s
eventually "removed by hand: the addresses come back" has_addresses
eventually "removed by hand: the rules come back" has_rules

kill -TERM "${PID[cache]}"
wait "${PID[cache]}"
check "SIGTERM: exit status" 0 $?
check "SIGTERM: the link-local address stays, the ClusterIP is gone" "169.254.25.10/32" \
	"$(ip -4 -br addr show dev nodecache 2>/dev/null | awk '{ $1 = $2 = ""; print }' | xargs)"
check "SIGTERM: the NOTRACK rules of the link-local address alone" "6 0" \
	"$(nft list table inet resolv_k8s 2>/dev/null | grep -c '169\.254\.25\.10.*notrack') $(nft list table inet resolv_k8s 2>/dev/null | grep -c '10\.96\.0\.10')"
check_match "SIGTERM: a query to the link-local address is refused at once" "connection refused" \
	"$(from_pod @169.254.25.10 web.shop.svc.cluster.local)"
check_match "after: the ClusterIP reaches kube-dns again" "$(ans db-0.db.shop.svc.cluster.local A 10.244.1.5)" \
	"$(from_pod @10.96.0.10 db-0.db.shop.svc.cluster.local)"
check "after: kube-dns answered" 1 "$(answered_by kubedns db-0.db.shop.svc.cluster.local)"
check_match "after: the shim in the pod still resolves" "10\.96\.1\.10" \
	"$(pod clusterip env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -f inet web)"

# keepLinkLocal false (the rollback's last step): nothing left at exit.
node_config "$WORK/cleanup.yaml" 169.254.25.10 \
	'nodeSetup={interface: nodecache, checkInterval: 1s, keepLinkLocal: false, lockFile: '"$WORK/node.lock"'}' \
	"$cluster_to_kubedns"
start cleanup "$SERVER" --config "$WORK/cleanup.yaml"
kill -TERM "${PID[cleanup]}"
wait "${PID[cleanup]}"
check "keepLinkLocal false, SIGTERM: no interface, no rules" "0 0 0" \
	"$? $(no_interface; echo $?) $(no_rules; echo $?)"

# The link-local address alone (kube-proxy in IPVS mode), kube-dns second.
node_config "$WORK/linklocal.yaml" 169.254.25.10 "$setup" "$cluster_to_kubedns"
start linklocal "$SERVER" --config "$WORK/linklocal.yaml" --query-log "$WORK/linklocal.log"
names=(web kubernetes.default www.example.com nosuch)
for name in "${names[@]}"; do
	check "second nameserver, cache up: the shim as glibc: $name" \
		"$(pod second "$PROBE_GLIBC" "$name")" "$(pod second env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" "$name")"
done
stop linklocal
for name in "${names[@]}"; do
	want=$(pod second "$PROBE_GLIBC" "$name")
	check_match "second nameserver, cache killed: glibc resolves $name" "inet|EAI_NONAME" "$want"
	check "second nameserver, cache killed: the shim as glibc: $name" \
		"$want" "$(pod second env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" "$name")"
done
summary
