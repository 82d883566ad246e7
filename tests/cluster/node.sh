#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# node.sh BUILD_DIR STATE_DIR NODE: a node (node-a or node-b), started by
# boot.sh in the node's network namespace and a mount namespace of its own,
# in which the node's paths are its own, as on a machine of its own:
# /var/lib/{kubelet,containerd,cni}, /etc/kubernetes, /etc/cni/net.d,
# /opt/cni/bin, /var/log/{pods,containers}, /etc/resolv.conf and a /run.
# Runs containerd (its images imported from STATE_DIR/images), kubelet and
# kube-proxy (nftables mode on node-a, iptables on node-b).
set -euo pipefail
build=${1:?usage: node.sh BUILD_DIR STATE_DIR NODE}
state=${2:?}
node=${3:?}
bin=$build/cluster/bin
export PATH=$bin:$PATH
case $node in
node-a) ip=10.200.0.11 pods=10.244.1.0/24 proxy_mode=nftables ;;
node-b) ip=10.200.0.12 pods=10.244.2.0/24 proxy_mode=iptables ;;
esac
say() { echo "$node: $(date +%T) $*"; }
dir=$state/$node
echo $$ > "$dir/pid"

mount --make-rshared /
mount -t tmpfs tmpfs /run
mkdir -p /run/netns
for path in var/lib/kubelet var/lib/containerd var/lib/cni etc/kubernetes etc/cni/net.d \
	var/log/pods var/log/containers; do
	mkdir -p "$dir/$path" "/$path"
	mount --bind "$dir/$path" "/$path"
done
mkdir -p /opt/cni/bin && mount --bind "$bin/cni" /opt/cni/bin
# The node's resolv.conf, which kubelet gives dnsPolicy Default's pods
# (CoreDNS's, the node cache's): the upstream stand-in, a search domain
# of the node's own as a cloud's nodes have.
printf 'nameserver 10.200.0.53\nsearch rk8s.internal\n' > "$dir/resolv.conf"
mount --bind "$dir/resolv.conf" /etc/resolv.conf
sysctl -q -w net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 net.bridge.bridge-nf-call-ip6tables=1

cp "$state/etc/pki/ca.crt" /etc/kubernetes/ca.crt
cp "$dir/kubelet.conf" "$state/kube-proxy.conf" /etc/kubernetes/

# containerd: its CRI on runc (Debian's) with the cgroupfs driver; the
# sandbox cannot raise an OOM score (no CAP_SYS_RESOURCE), so containers
# keep their parent's where a pod asks for a lower one.
cat > /etc/kubernetes/containerd.toml <<EOF
version = 3
root = "/var/lib/containerd"
state = "/run/containerd"
[grpc]
  address = "/run/containerd/containerd.sock"
[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = true
  [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
    runtime_type = 'io.containerd.runc.v2'
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
      BinaryName = '/usr/sbin/runc'
      SystemdCgroup = false
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ['/opt/cni/bin']
    conf_dir = '/etc/cni/net.d'
[plugins.'io.containerd.cri.v1.images']
  snapshotter = 'overlayfs'
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = 'registry.k8s.io/pause:3.10.2'
EOF
# The pods' network: a bridge on the node, addresses from its range.
cat > /etc/cni/net.d/10-rk8s.conflist <<EOF
{"cniVersion": "1.0.0", "name": "rk8s", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "$pods"}]], "routes": [{"dst": "0.0.0.0/0"}]}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
EOF

say containerd
containerd --config /etc/kubernetes/containerd.toml > "$dir/containerd.log" 2>&1 &
for _ in $(seq 100); do ctr version > /dev/null 2>&1 && break; sleep 0.2; done
for image in "$state"/images/*.tar; do
	ctr -n k8s.io images import "$image" > /dev/null
done
# A name without a registry is Docker Hub's to kubelet, as the chart's
# images are named with `registry: ""`.
for name in $(ctr -n k8s.io images ls -q | grep -v '/\|^sha256:'); do
	ctr -n k8s.io images tag "$name" "docker.io/library/$name" > /dev/null
done

say kubelet
# cgroup v1 on this machine: kubelet refuses it unless told; each node's
# pods under a cgroup root of its own, named by the cluster's state
# directory (cluster.sh removes them) as the machine's cgroups are shared.
cgroup=rk8s-$(echo -n "$state" | md5sum | cut -c1-8)-$node
for controller in /sys/fs/cgroup/*/; do
	mkdir -p "$controller/$cgroup"
done
cat /sys/fs/cgroup/cpuset/cpuset.cpus > "/sys/fs/cgroup/cpuset/$cgroup/cpuset.cpus" 2> /dev/null || true
cat /sys/fs/cgroup/cpuset/cpuset.mems > "/sys/fs/cgroup/cpuset/$cgroup/cpuset.mems" 2> /dev/null || true
cat > /etc/kubernetes/kubelet.yaml <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: /etc/kubernetes/ca.crt}
authorization: {mode: Webhook}
cgroupDriver: cgroupfs
cgroupRoot: /$cgroup
failCgroupV1: false
failSwapOn: false
clusterDNS: [10.96.0.10]
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
rotateCertificates: false
# The machine's disk is shared by everything on it: no eviction for it.
evictionHard: {memory.available: "100Mi", nodefs.available: "0%", imagefs.available: "0%", nodefs.inodesFree: "0%"}
imageGCHighThresholdPercent: 100
EOF
kubelet --config /etc/kubernetes/kubelet.yaml --kubeconfig /etc/kubernetes/kubelet.conf \
	--hostname-override "$node" --node-ip "$ip" > "$dir/kubelet.log" 2>&1 &

say kube-proxy
cat > /etc/kubernetes/kube-proxy.yaml <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: /etc/kubernetes/kube-proxy.conf}
mode: $proxy_mode
hostnameOverride: $node
bindAddress: $ip
clusterCIDR: 10.244.0.0/16
# The machine's conntrack table is not the node's to size.
conntrack: {maxPerCore: 0}
EOF
kube-proxy --config /etc/kubernetes/kube-proxy.yaml > "$dir/kube-proxy.log" 2>&1 &
wait
