#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# control_plane.sh CONFIG LOG_DIR COMPONENT...: a control plane as kubeadm
# makes one, in this network namespace: its phases write the certificates,
# the kubeconfigs and the static pod manifests of CONFIG (an
# InitConfiguration and a ClusterConfiguration) under /etc/kubernetes, and
# each COMPONENT (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, in that order) runs its manifest's command line as
# kubelet would, in the background, its log LOG_DIR/COMPONENT.log. Returns
# once the API server is ready. The caller's mount namespace gives it
# /etc/kubernetes and etcd's dataDir; PATH has Kubernetes' programs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
config=${1:?usage: control_plane.sh CONFIG LOG_DIR COMPONENT...}
logs=${2:?}
shift 2
source "$root/tests/lib/assert.sh"  # poll
for step in "certs all" "kubeconfig all" "etcd local" "control-plane all"; do
	# shellcheck disable=SC2086 # PHASE [SUBPHASE]
	kubeadm init phase $step --config "$config" >> "$logs/kubeadm.log"
done
for component in "$@"; do
	mapfile -t argv < <(/usr/bin/python3 -c 'import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))["spec"]["containers"][0]
print("\n".join(c["command"] + c.get("args", [])))' "/etc/kubernetes/manifests/$component.yaml")
	"$(command -v "${argv[0]}")" "${argv[@]:1}" > "$logs/$component.log" 2>&1 &
	[[ $component != etcd ]] || sleep 1
done
poll 60 kubectl --kubeconfig /etc/kubernetes/super-admin.conf get --raw /readyz > /dev/null 2>&1
