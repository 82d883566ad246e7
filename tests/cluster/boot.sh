#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# boot.sh BUILD_DIR STATE_DIR: the cluster, started by cluster.sh up as PID
# 1 of a mount and PID namespace of its own (every process of the cluster
# ends with it). The network, all in namespaces made here:
#   rk8s-lan      the switch (bridge lan0, 10.200.0.254) and the upstream
#                 stand-in, "the internet" (resolv-k8s-server on 10.200.0.53
#                 serving example.com, corp.example, the nodes' rk8s.internal,
#                 NXDOMAIN for the rest)
#   rk8s-cp       10.200.0.1: etcd, kube-apiserver, kube-controller-manager,
#                 kube-scheduler, as kubeadm's static pod manifests run them
#   rk8s-node-a   10.200.0.11, pods 10.244.1.0/24, kube-proxy in nftables mode
#   rk8s-node-b   10.200.0.12, pods 10.244.2.0/24, kube-proxy in iptables mode
# Certificates, kubeconfigs and the control plane's command lines are
# kubeadm's (kubeadm.yaml), CoreDNS kubeadm's addon. STATE_DIR/ready once
# both nodes are Ready and CoreDNS runs; STATE_DIR/failed if not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:?usage: boot.sh BUILD_DIR STATE_DIR}
state=${2:?}
bin=$build/cluster/bin
export PATH=$bin:$PATH
source "$root/tests/lib/assert.sh"  # poll
trap '[[ -e $state/ready ]] || touch "$state/failed"' EXIT
say() { echo "boot: $(date +%T) $*"; }

# The mounts of this namespace: shared among the nodes' (kubelet wants its
# root shared), the network namespaces' files, kubeadm's paths.
mount --make-rshared /
mkdir -p /run/netns "$state/etc" "$state/etcd" "$state/log"
mount -t tmpfs tmpfs /run/netns
mkdir -p /etc/kubernetes /var/lib/etcd
mount --bind "$state/etc" /etc/kubernetes
mount --bind "$state/etcd" /var/lib/etcd

in_net() { local ns=$1; shift; nsenter --net=/run/netns/"$ns" -- "$@"; }

say network
for ns in rk8s-lan rk8s-cp rk8s-node-a rk8s-node-b; do
	ip netns add $ns
	in_net $ns ip link set lo up
done
in_net rk8s-lan ip link add lan0 type bridge
in_net rk8s-lan ip addr add 10.200.0.254/24 dev lan0
in_net rk8s-lan ip addr add 10.200.0.53/24 dev lan0
in_net rk8s-lan ip link set lan0 up
# wire NS ADDRESS: NS's eth0 on the switch.
wire() {
	in_net rk8s-lan ip link add "p-${1#rk8s-}" type veth peer name eth0 netns "$1"
	in_net rk8s-lan ip link set "p-${1#rk8s-}" master lan0 up
	in_net "$1" ip addr add "$2/24" dev eth0
	in_net "$1" ip link set eth0 up
	in_net "$1" ip route add default via 10.200.0.254
}
wire rk8s-cp 10.200.0.1
wire rk8s-node-a 10.200.0.11
wire rk8s-node-b 10.200.0.12
# Each node's pods are reached through it (the switch's too: a cloud's
# route table, no masquerading).
for ns in rk8s-lan rk8s-cp rk8s-node-b; do in_net $ns ip route add 10.244.1.0/24 via 10.200.0.11; done
for ns in rk8s-lan rk8s-cp rk8s-node-a; do in_net $ns ip route add 10.244.2.0/24 via 10.200.0.12; done

say "upstream stand-in"
mkdir -p "$state/upstream"
cp "$root"/tests/fixtures/{example.com,corp.example}.zone "$here"/{root,rk8s.internal}.zone "$state/upstream/"
cat > "$state/upstream/config.yaml" <<'EOF'
listen: ["10.200.0.53:53"]
autopath: {enabled: false}
servers:
  - name: internet
    zones: [., example.com, corp.example, rk8s.internal]
    zoneFiles: [root.zone, example.com.zone, corp.example.zone, rk8s.internal.zone]
EOF
(cd "$state/upstream" && in_net rk8s-lan "$build/bin/resolv-k8s-server" --config config.yaml \
	> "$state/log/upstream.log" 2>&1 &)

say "control plane (kubeadm's certificates, kubeconfigs and command lines)"
config=$here/kubeadm.yaml
in_net rk8s-cp "$here/control_plane.sh" "$config" "$state/log" \
	etcd kube-apiserver kube-controller-manager kube-scheduler
for node in node-a node-b; do
	mkdir -p "$state/$node"
	kubeadm kubeconfig user --config "$config" --client-name "system:node:$node" \
		--org system:nodes > "$state/$node/kubelet.conf"
done
kubeadm kubeconfig user --config "$config" --client-name system:kube-proxy \
	> "$state/kube-proxy.conf"
kubectl=(kubectl --kubeconfig /etc/kubernetes/super-admin.conf)
cp /etc/kubernetes/admin.conf "$state/admin.conf"

say images
"$here/images.sh" "$build" "$state/images" > "$state/log/images.log" 2>&1

say nodes
for node in node-a node-b; do
	in_net "rk8s-$node" unshare --mount "$here/node.sh" "$build" "$state" "$node" \
		> "$state/log/$node.log" 2>&1 &
done
both_ready() { [[ $(in_net rk8s-cp "${kubectl[@]}" get nodes --no-headers 2>/dev/null | grep -c ' Ready ') == 2 ]]; }
poll 120 both_ready

say "kubeadm's objects and CoreDNS (its addon)"
# The bootstrap-token phase also binds the API server's kubelet client to
# system:kubelet-api-admin (logs, exec).
for step in "upload-config all" bootstrap-token "addon coredns"; do
	# shellcheck disable=SC2086 # PHASE [SUBPHASE]
	in_net rk8s-cp kubeadm init phase $step --config "$config" >> "$state/log/kubeadm.log"
done
in_net rk8s-cp "${kubectl[@]}" -n kube-system rollout status deployment/coredns --timeout=120s

say ready
touch "$state/ready"
# PID 1: reaps what the namespace's orphans leave.
while :; do sleep 3600 & wait $! || true; done
