#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# uninstall_test.sh BUILD_DIR: the node after the chart's uninstall path.
# The cache runs as the chart runs it (nodeSetup with keepLinkLocal and
# daemonSet, the link-local address and kube-dns's ClusterIP), in front of
# a stand-in API server (TLS on the sandbox's loopback, the ServiceAccount's
# token and CA where kubelet mounts them). A rolling update (its DaemonSet
# there) keeps the link-local address and its rules for the next instance;
# `helm uninstall` or `kubectl delete -k` (the DaemonSet gone, or being
# deleted, or the question refused, 401 or 403: the uninstall deletes the
# ServiceAccount and the Role with it) leaves no interface, address or
# nftables table of ours. What says nothing of the DaemonSet keeps the
# address, as before: an API server that does not answer, or trickles its
# answer (the request's deadline).
# A crash asks nothing: the supervisor starts the server again before any
# question, whatever the API server does.
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
# (present, deleting, gone, forbidden, unauthorized, trickle), each request's path
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
kept_rules() {
	echo "$(nft list table inet resolv_k8s 2>/dev/null | grep -c '169\.254\.53\.10.*notrack')" \
		"$(nft list table inet resolv_k8s 2>/dev/null | grep -c '10\.96\.0\.10')"
}
nothing_left() {
	echo "$(ip link show dev resolv-k8s > /dev/null 2>&1 && echo interface) $(nft list table inet resolv_k8s > /dev/null 2>&1 && echo table)" | xargs
}
# up NAME: the cache, set up.
up() {
	node_config "$WORK/$1.yaml" 169.254.53.10 "$setup" 'listen=["169.254.53.10:53", "10.96.0.10:53"]'
	start "$1" "$SERVER" --config "$WORK/$1.yaml"
	eventually "$1: the addresses on the node's interface" both_held
}
# run NAME: the cache, then SIGTERM, as the kubelet stops it; its exit status.
run() {
	up "$1"
	kill -TERM "${PID[$1]}"
	wait "${PID[$1]}"
}

run rollout
check "rolling update: exit status" 0 $?
check "rolling update (the DaemonSet there): the link-local address kept, the ClusterIP gone" "169.254.53.10/32" "$(addresses)"
check "rolling update: ... with its NOTRACK rules alone" "6 0" "$(kept_rules)"
check "rolling update: the API server asked once for the DaemonSet, with the ServiceAccount's token" \
	"GET /apis/apps/v1/namespaces/kube-system/daemonsets/resolv-k8s-node Bearer token-of-the-cache" "$(cat "$WORK/api.log")"

for state in gone deleting unauthorized forbidden; do
	ds "$state"
	run "$state"
	check "uninstall ($state): exit status" 0 $?
	check "uninstall ($state): no interface, address or nftables table of ours" "" "$(nothing_left)"
	check_match "uninstall ($state): said" "the DaemonSet kube-system/resolv-k8s-node is gone \(" "$(cat "$WORK/$state.err")"
done

answers() { [[ $(ask 169.254.53.10 +short kubernetes.default.svc.cluster.local) == 10.96.0.1 ]]; }
for state in present trickle; do
	ds "$state"
	: > "$WORK/api.log"
	name=crash-$state
	up "$name"
	killed=$(now)
	kill -KILL "$(pgrep -P "${PID[$name]}")"
	eventually "crash ($state): the supervisor says so" grep -qs "killed by signal 9" "$WORK/$name.err"
	eventually "crash ($state): the restarted server answers on the link-local address" answers
	back=$(since "$killed")
	check "crash ($state): ... before any request to the API server" "" "$(cat "$WORK/api.log")"
	eventually "crash ($state): ... and holds the ClusterIP again" both_held
	echo "crash ($state API server): the server answering again ${back} s after its SIGKILL"
	stopped=$(now)
	kill -TERM "${PID[$name]}"
	wait "${PID[$name]}"
	check "crash ($state), then SIGTERM: exit status, the link-local address kept" "0 169.254.53.10/32" \
		"$? $(addresses)"
	echo "crash ($state API server): the supervisor's exit $(since "$stopped") s after its SIGTERM"
done
check_match "trickle: said, within the request's deadline" \
	"the DaemonSet kube-system/resolv-k8s-node is not known to be gone \(no whole answer within 3 s\): 169\.254\.53\.10 kept" \
	"$(cat "$WORK/crash-trickle.err")"

ds present
stop api
run noapi
check "no API server: exit status" 0 $?
check "no API server: the link-local address kept, as without daemonSet" "169.254.53.10/32" "$(addresses)"
check_match "no API server: said" "is not known to be gone \(connect 127.0.0.1:6443: Connection refused\): 169.254.53.10 kept" \
	"$(cat "$WORK/noapi.err")"
summary
