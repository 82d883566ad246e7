# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# The real kube-apiserver in a sandbox, holding a kubectl dump's objects
# created through its API; source it in a sandbox (only loopback
# reachable) with BUILD set to the build directory (`make cluster`'s
# programs in BUILD/cluster/bin).
#
#   kube_api_start DIR CLUSTER  etcd, kube-apiserver (on 198.51.100.1:6443,
#                 an address of the sandbox's own on an interface of its own:
#                 kubeadm and the API server refuse a loopback one) and
#                 kube-controller-manager, their certificates, kubeconfigs and
#                 command lines kubeadm's (tests/cluster/control_plane.sh), run
#                 in a mount namespace with an /etc and an empty /etc/kubernetes
#                 of its own (the host's may be there: make cluster's); then CLUSTER's
#                 objects created (tests/fixtures/cluster.json), each Pod's
#                 status written through its status subresource, as kubelet
#                 writes it. DIR (made) holds their data, their logs and
#                 DIR/super-admin.conf (kubeadm's kubeconfig of system:masters);
#                 the programs end with the sandbox.
KUBE_API_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

kube_api_start() {
	mkdir -p "$1"
	kube_api_up "$1" && kube_api_load "$1/super-admin.conf" "$2" > "$1/load.log" 2>&1 && return
	echo "FAIL - the API server did not start or refused $2" >&2
	sed 's/^/    | /' "$1"/*.log >&2
	exit 1
}

# kube_api_up DIR: the address, then the control plane.
kube_api_up() {
	{ ip link add kube-api type veth peer name kube-api-peer && ip link set kube-api-peer up &&
		ip addr add 198.51.100.1/32 dev kube-api && ip link set kube-api up; } > "$1/net.log" 2>&1 || return
	# kubeadm's defaults but for the address, etcd's data and the Services'
	# ranges of the dump (dual-stack).
	cat > "$1/kubeadm.yaml" <<-END
		apiVersion: kubeadm.k8s.io/v1beta4
		kind: InitConfiguration
		localAPIEndpoint: {advertiseAddress: 198.51.100.1, bindPort: 6443}
		nodeRegistration: {name: control-plane}
		---
		apiVersion: kubeadm.k8s.io/v1beta4
		kind: ClusterConfiguration
		kubernetesVersion: v1.37.2
		networking: {dnsDomain: cluster.local, serviceSubnet: "10.96.0.0/16,fd00:10:96::/112"}
		etcd: {local: {dataDir: $1/etcd}}
	END
	# shellcheck disable=SC2016 # the inner shell's
	PATH=$BUILD/cluster/bin:$PATH unshare --mount --propagation private /bin/bash -c 'source "$1"; own_etc
		mkdir -p /etc/kubernetes && mount -t tmpfs kube-api /etc/kubernetes && "$2" "$3/kubeadm.yaml" "$3" etcd kube-apiserver kube-controller-manager &&
		cp /etc/kubernetes/super-admin.conf "$3/"' unshare "$KUBE_API_ROOT/tests/lib/own_etc.sh" \
		"$KUBE_API_ROOT/tests/cluster/control_plane.sh" "$1"
}

# kube_api_load KUBECONFIG CLUSTER: CLUSTER's objects created (again while
# the API server refuses some: a Pod until kube-controller-manager has made
# its namespace's default service account), then its Pods' status.
kube_api_load() {
	local kubectl=("$BUILD/cluster/bin/kubectl" --kubeconfig "$1") ns name status
	poll 30 "${kubectl[@]}" apply --server-side --force-conflicts -f "$2" || return
	while IFS=$'\t' read -r ns name status; do
		"${kubectl[@]}" -n "$ns" patch pod "$name" --subresource=status --type=merge -p "$status" || return
	done < <(/usr/bin/python3 -c 'import json, sys
for o in json.load(open(sys.argv[1]))["items"]:
    if o["kind"] == "Pod" and "status" in o:
        print(o["metadata"]["namespace"], o["metadata"]["name"], json.dumps({"status": o["status"]}), sep="\t")' "$2")
}
