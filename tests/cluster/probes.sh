# SPDX-License-Identifier: Apache-2.0
# probes.sh, sourced by cluster_test.sh: kubectl where the API server is,
# and the probe pods, each a program resolving the fixture's names
# (objects.yaml), started in a namespace and read once all have ended.

in_cluster() { "$here/cluster.sh" run "$build" "$@"; }
on_node() { "$here/cluster.sh" on "$build" "$@"; }
kubectl() { in_cluster kubectl "$@"; }

names=(web.shop web.shop.svc.cluster.local db-0.db.shop.svc.cluster.local ext.shop www.example.com
	kubernetes.default kubernetes.default.svc nope.example.com)
srv_names=(_http._tcp.web.shop _http._tcp.web.shop.svc _http._tcp.web.shop.svc.cluster.local _pg._tcp.db.shop
	_tcp.web.shop.svc.cluster.local _http._udp.web.shop)
# The pod specs of the Kubernetes e2e DNS checks (test/e2e/network/dns.go):
# a resolv.conf of the pod's own ("should support configurable pod
# resolv.conf", its nameserver kube-dns here), the node's network with
# cluster DNS, six search domains of 260 characters after the cluster's
# (on glibc, and on musl, which skips a resolv.conf line over 255 bytes
# where the library reads it: README, "What differs from musl").
e2e_dns_none='{"spec": {"dnsPolicy": "None", "dnsConfig": {"nameservers": ["10.96.0.10"],
	"searches": ["resolv.conf.local"], "options": [{"name": "ndots", "value": "2"}]}}}'
e2e_host_network='{"spec": {"hostNetwork": true, "dnsPolicy": "ClusterFirstWithHostNet"}}'
e2e_long_search=$(printf '"%038d.k8s.io",' 1 2 3 4 5 6)
e2e_long_search='{"spec": {"dnsConfig": {"searches": ['"${e2e_long_search%,}"']}}}'

probes=(probe-glibc probe-musl probe-musl-static probe-go probe-python probe-srv
	e2e-dns-none e2e-host-network e2e-long-search e2e-long-search-musl)
# probe NAMESPACE POD IMAGE OVERRIDES ARG...: POD started.
probe() {
	kubectl -n "$1" run "$2" --image "$3" --image-pull-policy Never --restart Never --overrides "$4" \
		-- "${@:5}" > /dev/null
}
# probe_pods NAMESPACE: every probe in NAMESPACE; each one's output once all
# have ended (without the Python probe's lines of microseconds).
probe_pods() {
	local ns=$1 app pod
	for app in glibc musl musl-static go python; do
		probe "$ns" "probe-$app" "rk8s.test/app-$app:1" '{}' "${names[@]}"
	done
	kubectl -n "$ns" run probe-srv --image rk8s.test/app-glibc:1 --image-pull-policy Never --restart Never \
		--command -- /usr/bin/res-probe -t srv "${srv_names[@]}" > /dev/null
	probe "$ns" e2e-dns-none rk8s.test/app-glibc:1 "$e2e_dns_none" "${names[@]}"
	probe "$ns" e2e-host-network rk8s.test/app-glibc:1 "$e2e_host_network" "${names[@]}"
	probe "$ns" e2e-long-search rk8s.test/app-glibc:1 "$e2e_long_search" "${names[@]}"
	probe "$ns" e2e-long-search-musl rk8s.test/app-musl:1 "$e2e_long_search" "${names[@]}"
	for pod in "${probes[@]}"; do
		poll 120 test "$(kubectl -n "$ns" get pod "$pod" -o jsonpath='{.status.phase}')" = Succeeded
		echo "== $pod"
		kubectl -n "$ns" logs "$pod" -c "$pod" | grep -Ev '^[0-9]+$'
	done
}
# section POD, without POD: probe_pods' output (stdin) for POD, or for the
# others.
section() { awk -v pod="== $1" '/^== / { on = $0 == pod } on'; }
without() { awk -v pod="== $1" '/^== / { on = $0 != pod } on'; }
# pod_dns NAMESPACE POD: the DNS POD's spec gives kubelet.
pod_dns() { kubectl -n "$1" get pod "$2" -o jsonpath='{.spec.dnsPolicy} {.spec.dnsConfig}'; }

# CoreDNS's count of the queries it answered, over its pods.
coredns_queries() {
	local ip sum=0 n
	for ip in $(kubectl -n kube-system get pods -l k8s-app=kube-dns -o jsonpath='{.items[*].status.podIP}'); do
		n=$(in_cluster curl -s "http://$ip:9153/metrics" |
			awk '/^coredns_dns_requests_total/ {s += $2} END {printf "%d", s}')
		sum=$((sum + n))
	done
	echo $sum
}

node_cache_rolled() { kubectl -n kube-system rollout status daemonset/resolv-k8s-node --timeout=90s > /dev/null; }
