# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# The network of `make bench-cluster`'s cluster in a box; source it inside a
# sandbox (tests/pod/sandbox.sh: its own network and mount namespaces).
#
#   box_net NODES PODS   the namespaces below, each pod's link up and routed
#   node_ns I, pod_ns I J  the names of node I's and its pod J's namespaces
#
# Namespace cl, the cluster's side: cluster DNS (CLUSTER_DNS, the kube-dns
# Service IP) and the upstream (UPSTREAM) on its loopback. Node I (1..N):
# namespace nI, a veth uplink to cl (10.1.I.2 to 10.1.I.1, its default route), the
# node cache's link-local address (NODE_CACHE) on its loopback, as NodeLocal
# DNSCache binds it, and a bridge br0 (10.244.I.1/24) with a veth to each of
# its pods, forwarding. Pod J of node I: namespace nI-pJ, 10.244.I.(J+1)/24,
# its default route the node. No netem in this kernel: the delay to cluster
# DNS is the stand-in's own (--delay-ms).
CLUSTER_DNS=10.96.0.10 UPSTREAM=203.0.113.53 NODE_CACHE=169.254.20.10

node_ns() { echo "n$1"; }
pod_ns() { echo "n$1-p$2"; }

# box_node I: node I's namespace, its link to cl, its bridge.
box_node() {
	local n
	n=$(node_ns "$1")
	ip netns add "$n"
	ip link add name "$n" netns cl type veth peer name uplink netns "$n"
	ip -n cl addr add "10.1.$1.1/24" dev "$n"
	ip -n cl link set "$n" up
	ip -n cl route add "10.244.$1.0/24" via "10.1.$1.2"
	ip -n "$n" -batch - <<END
link set lo up
addr add $NODE_CACHE/32 dev lo
addr add 10.1.$1.2/24 dev uplink
link set dev uplink up
route add default via 10.1.$1.1
link add name br0 type bridge
addr add 10.244.$1.1/24 dev br0
link set br0 up
END
	ip netns exec "$n" sysctl -qw net.ipv4.ip_forward=1
}

# box_pod I J: pod J of node I, on node I's bridge.
box_pod() {
	local n p
	n=$(node_ns "$1") p=$(pod_ns "$1" "$2")
	ip netns add "$p"
	ip link add name "p$2" netns "$n" type veth peer name eth0 netns "$p"
	ip -n "$n" link set dev "p$2" master br0 up
	ip -n "$p" -batch - <<END
link set lo up
addr add 10.244.$1.$(($2 + 1))/24 dev eth0
link set eth0 up
route add default via 10.244.$1.1
END
}

# Stops at the first command that fails, false then.
box_net() (
	set -e
	local i j
	# ip netns keeps its names under /run/netns: a tmpfs of the sandbox's own.
	mount -t tmpfs box /run
	mkdir /run/netns
	ip netns add cl
	ip -n cl link set lo up
	ip -n cl addr add $CLUSTER_DNS/32 dev lo
	ip -n cl addr add $UPSTREAM/32 dev lo
	for ((i = 1; i <= $1; i++)); do
		box_node "$i"
		for ((j = 1; j <= $2; j++)); do box_pod "$i" "$j"; done
	done
)
