#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# switch_test.sh BUILD_DIR: a node switched to the cache rendered from the
# chart with a migration values file, and back, as docs/migrate.md orders
# it, from each of what operators run: the deliveryhero node-local-dns
# chart (container/chart/migrate/deliveryhero.yaml: 169.254.20.25, its
# cache bound to 0.0.0.0) and the upstream manifest (nodelocaldns.yaml:
# 169.254.20.10, bound to its addresses). First `helm template` with each
# file: our objects, with their addresses, the Service resolv-k8s-upstream
# selecting kube-dns's pods, no port 53 declared, no webhook. Then the node
# (kube-proxy in iptables mode, the EKS-like ClusterIP 172.20.0.10, a pod
# behind a veth asking it): theirs stood in for by unbound set up as
# node-cache sets up (its interface nodelocaldns holding the link-local
# address and the ClusterIP, its iptables NOTRACK and ACCEPT rules, its own
# upstream Service); ours started as the DaemonSet runs it (the rendered
# ConfigMap, args and environment, kubelet's RESOLV_K8S_UPSTREAM_SERVICE_HOST
# our Service's address) beside it; theirs uninstalled (its teardown, its
# Service gone); theirs installed again, ours rolled with keepLinkLocal
# false and uninstalled. At each step a pod resolves a cluster name and an
# external one through the ClusterIP and a cluster name through the
# link-local address, a stream of 500 queries a second to the ClusterIP
# loses fewer than 1%, and kube-dns never hears the pod. Not shown here:
# the API server, the scheduler (that the undeclared port lets ours be
# scheduled beside theirs is read from the rendering, not seen), a real
# node-cache (unbound has its socket options, bind modes, interface and
# rules, not its code) and a DaemonSet rolling over many nodes; each node
# does what this one does.
set -uo pipefail
KUBE_DNS_IP=172.20.0.10
source "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # what tests/container/lib.sh reads
root=$NODE_ROOT build=$BUILD work=$WORK
source "$NODE_ROOT/tests/container/lib.sh"  # env_of

export HELM_CACHE_HOME=$WORK/helm HELM_CONFIG_HOME=$WORK/helm HELM_DATA_HOME=$WORK/helm
# Their upstream Service's address and ours (kubelet gives each its own).
THEIRS_UPSTREAM=172.20.53.1 OURS_UPSTREAM=172.20.53.2

# render NAME VALUES [HELM_ARGS...]: `helm template` with
# container/chart/migrate/VALUES.yaml into $WORK/NAME.yaml; the ConfigMap's
# files where the DaemonSet mounts them, moved to $WORK/NAME/, and the
# container's args (that mount moved too) in $WORK/NAME.args.
render() {
	local name=$1 values=$2
	shift 2
	"$BUILD/bin/helm" template resolv-k8s "$NODE_ROOT/container/chart" --namespace kube-system \
		-f "$NODE_ROOT/container/chart/migrate/$values.yaml" "$@" > "$WORK/$name.yaml" 2> "$WORK/$name.err" || return
	python3 - "$WORK/$name.yaml" "$WORK/$name" > "$WORK/$name.args" <<-'EOF'
		import os, sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
		ds = next(d for d in docs if d["kind"] == "DaemonSet")
		pod = ds["spec"]["template"]["spec"]
		c = pod["containers"][0]
		mount = next(m["mountPath"] for m in c["volumeMounts"] if m["name"] == "config")
		volume = next(v for v in pod["volumes"] if v["name"] == "config")
		cm = next(d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == volume["configMap"]["name"])
		os.makedirs(sys.argv[2], exist_ok=True)
		for key, text in cm["data"].items():
		    open(os.path.join(sys.argv[2], key), "w").write(text)
		print("\n".join(a.replace(mount, sys.argv[2]) for a in c["args"]))
	EOF
}
# ours NAME RENDERING: the DaemonSet's container as kubelet starts it on
# the node, its query log $WORK/NAME.log.
ours() {
	local -a env args
	mapfile -t env < <(RESOLV_K8S_UPSTREAM_SERVICE_HOST=$OURS_UPSTREAM env_of "$WORK/$2.yaml")
	mapfile -t args < "$WORK/$2.args"
	start "$1" env "${env[@]}" "$SERVER" "${args[@]}" --query-log "$WORK/$1.log"
}
# yq FILE EXPR: the Python expression EXPR of d, each object of FILE, where it is not None.
yq() {
	python3 -c 'import json, sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if not d: continue
    v = eval("(" + sys.argv[2] + ")", {"d": d, "json": json})
    if v is not None: print(v)' "$@"
}

# The renderings, and what each says of the node.
render deliveryhero deliveryhero
check "helm template with deliveryhero.yaml: renders, no warning" "0" "$?$(cat "$WORK/deliveryhero.err")"
render nodelocaldns nodelocaldns --set nodeCache.kubeDNSAddress=$KUBE_DNS_IP
check "helm template with nodelocaldns.yaml and kube-dns's ClusterIP: renders, no warning" "0" "$?$(cat "$WORK/nodelocaldns.err")"
for values in deliveryhero nodelocaldns; do
	check "$values.yaml: the cache's objects alone, no webhook" \
		"ConfigMap DaemonSet Role RoleBinding Service Service ServiceAccount" \
		"$(yq "$WORK/$values.yaml" 'd["kind"]' | sort | xargs)"
	check "$values.yaml: the upstream Service the cache reads, selecting kube-dns's pods on 53" \
		'resolv-k8s-upstream {"k8s-app": "kube-dns"} 53/UDP 53/TCP' \
		"$(yq "$WORK/$values.yaml" 'd["metadata"]["name"] + " " + json.dumps(d["spec"]["selector"]) + " " + " ".join(
			"%s/%s" % (p["port"], p["protocol"]) for p in d["spec"]["ports"]) if d["kind"] == "Service" and
			d["metadata"]["name"] == "resolv-k8s-upstream" else None')"
	check "$values.yaml: no port 53 declared (theirs has it on the node), the metrics port kept" "metrics 9254" \
		"$(yq "$WORK/$values.yaml" '" ".join("%s %s" % (p["name"], p["containerPort"])
			for p in d["spec"]["template"]["spec"]["containers"][0]["ports"]) if d["kind"] == "DaemonSet" else None')"
done
settings() { env_of "$WORK/$1.yaml" | grep -E '^(LOCAL_ADDRESS|KUBE_DNS_ADDRESS|CLUSTER_DNS)=' | xargs; }
check "deliveryhero.yaml: their addresses (-localip 169.254.20.25,172.20.0.10), the upstream from kubelet" \
	'CLUSTER_DNS=$(RESOLV_K8S_UPSTREAM_SERVICE_HOST) KUBE_DNS_ADDRESS=172.20.0.10 LOCAL_ADDRESS=169.254.20.25' \
	"$(settings deliveryhero)"
check "nodelocaldns.yaml: its addresses (-localip 169.254.20.10,KUBE_DNS), the upstream from kubelet" \
	'CLUSTER_DNS=$(RESOLV_K8S_UPSTREAM_SERVICE_HOST) KUBE_DNS_ADDRESS=172.20.0.10 LOCAL_ADDRESS=169.254.20.10' \
	"$(settings nodelocaldns)"
check "deliveryhero.yaml: config.yaml forwards the cluster's zones over TCP to that Service, the rest to the node's resolvers, 30 s and 5 s" \
	'[{"forwardPlugin": {"protocolStrategy": "TCP", "upstreams": ["${CLUSTER_DNS}"]}, "name": "cluster", "zones": ["${CLUSTER_DOMAIN}", "in-addr.arpa", "ip6.arpa"]}] {"upstreams": [{"type": "SystemResolvConf"}]} 30s 5s' \
	"$(python3 -c 'import json, sys, yaml; c = yaml.safe_load(open(sys.argv[1]))
print(json.dumps(c["servers"], sort_keys=True), json.dumps(c["upstreamResolvers"]), c["cache"]["positiveTTL"], c["cache"]["negativeTTL"])' \
		"$WORK/deliveryhero/config.yaml")"

# The node: kube-dns behind the ClusterIP, a pod behind a veth, the node's
# resolver (its resolv.conf, what theirs and ours forward other names to)
# the external upstream, the cache's lock directory in a tmpfs; the Service
# range routed, as a node's default route routes it, for the node's own
# packets to reach kube-proxy's DNAT.
kube_proxy_node
ip route add 172.20.0.0/16 dev kubedns
ip link del nodelocaldns  # lib.sh's; theirs below
echo 'nameserver 127.0.0.54' > "$WORK/node.conf"
mount --bind "$WORK/node.conf" /etc/resolv.conf
mount -t tmpfs run /run
mkdir /run/resolv-k8s
# service up|down NAME ADDRESS: an upstream Service of kube-dns's pods, as
# kube-proxy DNATs the node's own queries to it.
service() {
	if [[ $1 == up ]]; then
		nft -f - <<-END
			table ip svc-$2 {
				chain output { type nat hook output priority -100; ip daddr $3 meta l4proto { tcp, udp } th dport 53 dnat to 10.244.0.53; }
			}
		END
	else
		nft delete table ip "svc-$2"
	fi
}
service up ours $OURS_UPSTREAM
# theirs up|down LINK_LOCAL: their DaemonSet's pod on the node (or its exit,
# skipTeardown false: interface and rules gone) and their upstream Service.
theirs() {
	if [[ $1 == up ]]; then
		service up theirs $THEIRS_UPSTREAM
		nodelocal_up $THEIRS_UPSTREAM "$2" $KUBE_DNS_IP && nodelocal_rules -I "$2" $KUBE_DNS_IP
	else
		nodelocal_down && nodelocal_rules -D "$2" $KUBE_DNS_IP && service down theirs
	fi
}
from_pod_kube_dns() { logged "$WORK/kubedns.log" '^10\.0\.0\.2[^ ]* '; }
by_theirs() { grep -c " info: 10\.0\.0\.2 web\.shop\.svc\.cluster\.local\. A IN$" "$WORK/unbound.log"; }
by_ours() { logged "$WORK/$1.log" '^10\.0\.0\.2[^ ]* web\.shop\.svc\.cluster\.local\. A '; }
first() { pod "$1" getent ahostsv4 "$2" | awk 'NR == 1 { print $1 }'; }
# resolves STEP: a cluster name and an external one through the ClusterIP
# (every pod's nameserver), a cluster name through the link-local address
# (kubelet's --cluster-dns in IPVS mode).
resolves() {
	check "$1: a pod resolves kubernetes.default and www.example.com. at the ClusterIP, web at the link-local address" \
		"10.96.0.1 93.184.216.34 10.96.1.10" \
		"$(first clusterip kubernetes.default) $(first clusterip www.example.com.) $(first linklocal web)"
}
on_interface() { ip -4 -br addr show dev "$1" 2>/dev/null | awk '{ $1 = $2 = ""; print }' | xargs; }
# theirs_rules: their NOTRACK rules in the raw table.
theirs_rules() { iptables -t raw -S | grep -c NOTRACK; }

# play VALUES LINK_LOCAL [HELM_ARGS...]: the switch and the way back.
play() {
	local values=$1 link_local=$2 theirs_before ours_before
	shift 2
	resolv_conf "$WORK/linklocal.conf" "$link_local" shop
	theirs up "$link_local"
	resolves "$values: theirs alone"
	check "$values: theirs alone: ... theirs answered the pod, kube-dns never heard it" "yes 0" \
		"$( (($(grep -c ' info: 10\.0\.0\.2 ' "$WORK/unbound.log") >= 3)) && echo yes) $(from_pod_kube_dns)"

	stream $KUBE_DNS_IP 10
	sleep 1
	ours "$values-ours" "$values"
	both_hold() { [[ "$(on_interface nodelocaldns) | $(on_interface resolv-k8s)" == \
		"$link_local/32 $KUBE_DNS_IP/32 | $link_local/32 $KUBE_DNS_IP/32" ]]; }
	eventually "$values: ours beside theirs: the addresses on its own interface too" both_hold
	ours_before=$(by_ours "$values-ours")
	ours_answer() { (($(by_ours "$values-ours") > ours_before + 50)); }
	eventually "$values: ours beside theirs: ours answers the pods' queries" ours_answer
	if [[ ${NODELOCAL_WILDCARD:-} ]]; then
		theirs_before=$(by_theirs)
		sleep 1
		check "$values: ours beside theirs (bound to 0.0.0.0): the kernel gives ours, bound to the addresses, every query" \
			"$theirs_before" "$(by_theirs)"
	fi
	resolves "$values: ours beside theirs"
	sleep 1
	theirs down "$link_local"
	check "$values: theirs uninstalled: the addresses stay, on ours" "$link_local/32 $KUBE_DNS_IP/32" \
		"$(on_interface resolv-k8s)"
	resolves "$values: theirs uninstalled"
	few_lost "$values to ours"
	check "$values to ours: kube-dns never heard the pod" 0 "$(from_pod_kube_dns)"

	theirs up "$link_local"
	stream $KUBE_DNS_IP 8
	resolves "$values: back: theirs beside ours"
	render "$values-back" "$values" --set nodeCache.keepLinkLocal=false "$@"
	sleep 1
	kill -TERM "${PID[$values-ours]}"
	wait "${PID[$values-ours]}"
	ours "$values-back" "$values-back"
	sleep 1
	kill -TERM "${PID[$values-back]}"
	wait "${PID[$values-back]}"
	check "$values: back: ours rolled with keepLinkLocal false and uninstalled: nothing of ours, theirs as it was" \
		"0 no interface, no table | $link_local/32 $KUBE_DNS_IP/32 | 16 NOTRACK" \
		"$? $(ip link show dev resolv-k8s > /dev/null 2>&1 || echo no interface), $(
			nft list table inet resolv_k8s > /dev/null 2>&1 || echo no table) | $(on_interface nodelocaldns) | $(theirs_rules) NOTRACK"
	theirs_before=$(by_theirs)
	resolves "$values: back: theirs alone"
	few_lost "ours back to $values"
	check "ours back to $values: theirs answers the pod again, kube-dns never heard it" "yes 0" \
		"$( (($(by_theirs) > theirs_before)) && echo yes) $(from_pod_kube_dns)"
	theirs down "$link_local"
}

NODELOCAL_WILDCARD=1 play deliveryhero 169.254.20.25
play nodelocaldns 169.254.20.10 --set nodeCache.kubeDNSAddress=$KUBE_DNS_IP
summary
