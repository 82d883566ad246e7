#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cluster.sh up|down|run BUILD_DIR [COMMAND...]: the cluster of `make
# cluster` (README.md): a control plane and two nodes in network namespaces
# of their own, inside one mount and PID namespace held by boot.sh, its
# state (certificates, kubeconfigs, etcd's data, logs) in BUILD_DIR/cluster.
#   up    starts it, returns when both nodes are Ready and CoreDNS answers,
#         printing "kubeconfig: PATH";
#   down  stops every process of it (the PID namespace ends) and removes
#         the cgroups its kubelets made;
#   run   COMMAND in the control plane's network (where the kubeconfig's
#         API server is), in the cluster's mount namespace, KUBECONFIG set;
#   on    NODE COMMAND: COMMAND on node-a or node-b, in its network and
#         mount namespaces (its containerd's socket, its /run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: cluster.sh up|down|run|on BUILD_DIR [NODE] [COMMAND...]"
verb=${1:?$usage}
build=$(cd "${2:?$usage}" && pwd)
shift 2
state=$build/cluster/state
unshared=$build/cluster/unshare.pid
kernel_defaults="vm.overcommit_memory kernel.panic kernel.panic_on_oops"
# The start of the nodes' cgroup roots (node.sh): this cluster's alone.
cgroups=/sys/fs/cgroup/*/rk8s-$(echo -n "$state" | md5sum | cut -c1-8)-node-*

# The PID of boot.sh, PID 1 of the cluster's namespace (unshare's child),
# if it runs.
held() {
	local pid
	pid=$(cat "$unshared" 2>/dev/null) && pgrep -P "$pid"
}

case $verb in
up)
	if held > /dev/null; then echo "kubeconfig: $state/admin.conf"; exit; fi
	rm -rf "$state" && mkdir -p "$state"
	# kubelet sets these machine-wide (its kernel defaults); down puts back
	# the machine's own.
	sysctl -e $kernel_defaults > "$build/cluster/sysctls"
	# --kill-child: the namespace's processes end with unshare.
	setsid unshare --mount --pid --fork --mount-proc --kill-child \
		"$here/boot.sh" "$build" "$state" > "$state/boot.log" 2>&1 < /dev/null &
	echo $! > "$unshared"
	for _ in $(seq 600); do
		[[ -e $state/ready || -e $state/failed ]] && break
		kill -0 "$(cat "$unshared")" 2>/dev/null || break
		sleep 0.5
	done
	if [[ ! -e $state/ready ]]; then
		echo "cluster: did not come up (logs in $state):" >&2
		tail -n 30 "$state/boot.log" >&2
		"$0" down "$build"
		exit 1
	fi
	echo "kubeconfig: $state/admin.conf"
	;;
down)
	# unshare ignores SIGTERM while it waits; its child, killed with it, is
	# PID 1 of the namespace, which ends with every process in it.
	pid=$(cat "$unshared" 2>/dev/null) && kill -KILL "$pid" 2>/dev/null || true
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	rm -f "$unshared"
	# What kubelet and runc made under the nodes' cgroup roots, deepest
	# first; a cgroup empties a little after its last process ends.
	for _ in $(seq 50); do
		left=$(find $cgroups -depth -type d 2>/dev/null | head -n 1 || true)
		[[ -z $left ]] && break
		find $cgroups -depth -type d -exec rmdir {} + 2>/dev/null || sleep 0.2
	done
	if [[ -s $build/cluster/sysctls ]]; then
		sed 's/ = /=/' "$build/cluster/sysctls" | xargs sysctl -q -w
		rm "$build/cluster/sysctls"
	fi
	;;
run)
	pid=$(held) || { echo "cluster: not running (make cluster)" >&2; exit 1; }
	exec nsenter -t "$pid" --mount --pid -- nsenter --net=/run/netns/rk8s-cp -- \
		env KUBECONFIG="$state/admin.conf" PATH="$build/cluster/bin:$PATH" "$@"
	;;
on)
	pid=$(held) || { echo "cluster: not running (make cluster)" >&2; exit 1; }
	node=${1:?$usage}
	shift
	# node.sh's PID, as the cluster's namespace numbers it.
	exec nsenter -t "$pid" --mount --pid -- /bin/sh -c 'exec nsenter -t "$(cat "$0")" --mount --net -- "$@"' \
		"$state/$node/pid" env PATH="$build/cluster/bin:$PATH" "$@"
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
