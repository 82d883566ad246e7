#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# uninstall_test.sh BUILD_DIR: the node after the chart's uninstall path.
# The cache runs as the chart runs it (nodeSetup with keepLinkLocal and
# daemonSet, the link-local address and kube-dns's ClusterIP), in front of
# a stand-in API server (TLS on the sandbox's loopback, the ServiceAccount's
# token and CA where kubelet mounts them). A rolling update (its DaemonSet
# there) keeps the link-local address and its rules for the next instance;
# `helm uninstall` or `kubectl delete -k` (the DaemonSet gone, being
# deleted, or the cache's ServiceAccount or Role gone with it) leaves no
# interface, address or nftables table of ours; an API server that does
# not answer keeps the address, as before.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Where kubelet mounts the ServiceAccount's token, in a tmpfs of the
# sandbox's own mount namespace.
mount -t tmpfs run /run
account=/var/run/secrets/kubernetes.io/serviceaccount
mkdir -p "$account"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=kube-apiserver \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/api.key" -out "$account/ca.crt" 2> /dev/null
echo 'token-of-the-cache' > "$account/token"
# The stand-in (tests/lib/apiserver.py): the DaemonSet as ds STATE says
# (present, deleting, gone, forbidden, unauthorized), each request's path
# and token in $WORK/api.log.
ds() { echo "{\"ds\": \"$1\"}" > "$WORK/state.json"; }
ds present
start api /usr/bin/python3 "$NODE_ROOT/tests/lib/apiserver.py" "$WORK" "$account/ca.crt" "$WORK/api.key"
export KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=6443

cluster_dns 53
cluster_dns 55
external_dns
# The chart's nodeSetup (container/chart/values.yaml), its lock in $WORK.
setup='nodeSetup={interface: resolv-k8s, checkInterval: 1s, keepLinkLocal: true, lockFile: '"$WORK/node.lock"',
  daemonSet: kube-system/resolv-k8s-node}'
addresses() { ip -4 -br addr show dev resolv-k8s 2>/dev/null | awk '{ $1 = $2 = ""; print }' | xargs; }
both_held() { [[ $(addresses) == "169.254.53.10/32 10.96.0.10/32" ]]; }
nothing_left() {
	echo "$(ip link show dev resolv-k8s > /dev/null 2>&1 && echo interface) $(nft list table inet resolv_k8s > /dev/null 2>&1 && echo table)" | xargs
}
# run NAME: the cache, then SIGTERM, as the kubelet stops it; its exit status.
run() {
	node_config "$WORK/$1.yaml" 169.254.53.10 "$setup" 'listen=["169.254.53.10:53", "10.96.0.10:53"]'
	start "$1" "$SERVER" --config "$WORK/$1.yaml"
	eventually "$1: the addresses on the node's interface" both_held
	kill -TERM "${PID[$1]}"
	wait "${PID[$1]}"
}

run rollout
check "rolling update: exit status" 0 $?
check "rolling update (the DaemonSet there): the link-local address kept, the ClusterIP gone" "169.254.53.10/32" "$(addresses)"
check "rolling update: ... with its NOTRACK rules alone" "6 0" \
	"$(nft list table inet resolv_k8s 2>/dev/null | grep -c '169\.254\.53\.10.*notrack') $(nft list table inet resolv_k8s 2>/dev/null | grep -c '10\.96\.0\.10')"
check "rolling update: the API server asked once for the DaemonSet, with the ServiceAccount's token" \
	"GET /apis/apps/v1/namespaces/kube-system/daemonsets/resolv-k8s-node Bearer token-of-the-cache" "$(cat "$WORK/api.log")"

for state in gone deleting unauthorized forbidden; do
	ds "$state"
	run "$state"
	check "uninstall ($state): exit status" 0 $?
	check "uninstall ($state): no interface, address or nftables table of ours" "" "$(nothing_left)"
	check_match "uninstall ($state): said" "the DaemonSet kube-system/resolv-k8s-node is gone \(" "$(cat "$WORK/$state.err")"
done

ds present
stop api
run noapi
check "no API server: exit status" 0 $?
check "no API server: the link-local address kept, as without daemonSet" "169.254.53.10/32" "$(addresses)"
check_match "no API server: said" "no answer from the API server \(connect 127.0.0.1:6443: Connection refused\): 169.254.53.10 kept" \
	"$(cat "$WORK/noapi.err")"
summary
