#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cluster_test.sh BUILD_DIR: the chart in a real cluster (cluster.sh up):
# helm installs it, the real kube-apiserver calls its webhook for the pods
# created in a labelled namespace, kubelet runs the init container, and
# each probe (probes.sh: glibc, musl, musl static with libresolv-k8s.a, Go's
# own resolver, Python, res_search's SRV, and the Kubernetes e2e DNS
# checks' pod specs) resolves the fixture's names (objects.yaml) through
# the node cache with answers equal to the same pod's uninjected, which
# asks CoreDNS itself; cluster DNS's queries counted for both; again with
# the cache's autopath cuts on. The node cache SIGKILLed and rolled under a
# pod's lookups. Then helm uninstall: nothing of the chart's left on
# either node, pods resolving through kube-dns.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: cluster_test.sh BUILD_DIR}" && pwd)
source "$root/tests/lib/assert.sh"
[[ $(id -u) == 0 ]] || { skip "cluster: needs root"; summary; exit; }

"$here/cluster.sh" up "$build" || { tally "the cluster comes up" 1; summary; exit 1; }
trap '"$here/cluster.sh" down "$build"' EXIT
source "$here/probes.sh"

check "both nodes Ready, kubelet v1.37.2" "node-a True v1.37.2 node-b True v1.37.2" \
	"$(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status} {.status.nodeInfo.kubeletVersion} {end}' | xargs)"

kubectl apply -f - < "$here/objects.yaml" > /dev/null
kubectl -n shop rollout status deployment/web --timeout=60s > /dev/null
kubectl -n shop wait --for=condition=Ready pod/db-0 --timeout=60s > /dev/null
db_ip=$(kubectl -n shop get pod db-0 -o jsonpath='{.status.podIP}')
names+=("${db_ip//./-}.shop.pod.cluster.local")

helm_install=(install resolv-k8s "$root/container/chart" -n kube-system --wait --timeout 120s
	--set "images.node.pullPolicy=Never,images.webhook.pullPolicy=Never"
	--set "webhook.nameservers={169.254.53.10,10.96.0.10}")
check "helm install: the chart's DaemonSet and webhook up" 0 \
	"$(in_cluster "$build/bin/helm" "${helm_install[@]}" > /dev/null 2>&1; echo $?)"
# helm's --wait takes a DaemonSet as ready with maxUnavailable's share
# missing: its rollout, whole.
node_cache_rolled
check "the node cache on both nodes" 2 \
	"$(kubectl -n kube-system get daemonset resolv-k8s-node -o jsonpath='{.status.numberReady}')"

injecting_namespace() {
	kubectl create namespace "$1" > /dev/null
	kubectl label namespace "$1" resolv-k8s.io/inject=enabled > /dev/null
}
kubectl create namespace plain > /dev/null
injecting_namespace apps
before_plain=$(coredns_queries)
plain=$(probe_pods plain)
middle=$(coredns_queries)
injected=$(probe_pods apps)
after=$(coredns_queries)

check_match "the plain pods resolve the fixture's names" \
	"web.shop: inet stream 6 10\.96\..*db-0.db.shop.svc.cluster.local: inet stream 6 10\.244\..*nope.example.com: error EAI_NONAME.*_http._tcp.web.shop: 0 100 80 web.shop.svc.cluster.local.*_tcp.web.shop.svc.cluster.local: h_errno 1" \
	"$plain"
check "injected pods answer as the plain ones, CoreDNS itself" \
	"$(without e2e-long-search-musl <<<"$plain")" "$(without e2e-long-search-musl <<<"$injected")"
check_match "musl skips a search line over 255 bytes: short names as they are" \
	"web.shop: error EAI_NONAME" "$(section e2e-long-search-musl <<<"$plain")"
check "the library reads it (README, \"What differs from musl\"): answers as with the cluster's alone" \
	"$(section probe-musl <<<"$plain" | sed 1d)" "$(section e2e-long-search-musl <<<"$injected" | sed 1d)"
for pod in "${probes[@]}"; do
	check "$pod: injected by the API server's call to the webhook (the init container)" \
		"resolv-k8s-init" "$(kubectl -n apps get pod "$pod" -o jsonpath='{.spec.initContainers[0].name}')"
done
check "e2e-dns-none: its DNS as its spec says, injected or not" \
	"$(pod_dns plain e2e-dns-none)" "$(pod_dns apps e2e-dns-none)"
echo "cluster DNS's queries: plain pods $((middle - before_plain)), injected $((after - middle))"
check "cluster DNS asked fewer times for the injected pods" 1 "$(((after - middle) < (middle - before_plain)))"

# The cuts (docs/operator-guide.md, "Taking the search walks off cluster
# DNS"): every answer still CoreDNS's.
check "helm upgrade: the autopath cuts on" 0 \
	"$(in_cluster "$build/bin/helm" upgrade resolv-k8s "$root/container/chart" -n kube-system --reuse-values --wait \
		--set nodeCache.config.autopath.schemaCut=true,nodeCache.config.autopath.rfc8020Cut=true > /dev/null 2>&1; echo $?)"
node_cache_rolled
injecting_namespace cut
before=$(coredns_queries)
check "with the cuts, injected pods answer as the plain ones" \
	"$(without e2e-long-search-musl <<<"$plain")" "$(probe_pods cut | without e2e-long-search-musl)"
echo "cluster DNS's queries: injected with the cuts $(($(coredns_queries) - before))"

# NodeLocal DNSCache's way: the cache on kube-dns's address on every node,
# ahead of kube-proxy's rules for it, so that pods it never injected ask it.
check "helm upgrade: the cache on kube-dns's address" 0 \
	"$(in_cluster "$build/bin/helm" upgrade resolv-k8s "$root/container/chart" -n kube-system --reuse-values --wait \
		--set nodeCache.kubeDNSAddress=10.96.0.10 > /dev/null 2>&1; echo $?)"
node_cache_rolled
kubectl create namespace plain-cached > /dev/null
before=$(coredns_queries)
check "uninjected pods answered through it as by CoreDNS" "$plain" "$(probe_pods plain-cached)"
asked=$(($(coredns_queries) - before))
echo "cluster DNS's queries: uninjected pods through the cache on kube-dns's address $asked"
check "cluster DNS asked fewer times for them" 1 "$((asked < middle - before_plain))"

# The node cache ended under a pod's lookups, by SIGKILL (kubelet restarts
# it) and by a rollout: every lookup answered, by kube-dns meanwhile.
# under_load WHAT POD COMMAND: COMMAND NODE CACHE_POD while POD, on NODE,
# looks a name up every 20 ms for 15 s.
under_load() {
	local what=$1 pod=$2 count=750 node cache lines
	shift 2
	kubectl -n apps run "$pod" --image rk8s.test/app-glibc:1 --image-pull-policy Never --restart Never \
		-- -t stream -L -i 20 $(printf 'web.shop %.0s' $(seq $count)) > /dev/null
	poll 60 test "$(kubectl -n apps get pod "$pod" -o jsonpath='{.status.phase}')" = Running
	node=$(kubectl -n apps get pod "$pod" -o jsonpath='{.spec.nodeName}')
	cache=$(kubectl -n kube-system get pods -l k8s-app=resolv-k8s-node \
		--field-selector "spec.nodeName=$node" -o jsonpath='{.items[0].metadata.name}')
	sleep 2
	"$@" "$node" "$cache"
	poll 60 test "$(kubectl -n apps get pod "$pod" -o jsonpath='{.status.phase}')" = Succeeded
	lines=$(kubectl -n apps logs "$pod" -c "$pod")
	check "$what: every lookup answered" "$count $count" \
		"$(grep -c '^web.shop: ' <<<"$lines") $(grep -c '^web.shop: inet stream 6 10\.96\.' <<<"$lines")"
	echo "$what: lookups over 100 ms: $(grep -E '^[0-9]+$' <<<"$lines" | awk '$1 > 100000' | wc -l) of $count," \
		"slowest $(grep -E '^[0-9]+$' <<<"$lines" | sort -n | tail -1) us"
}
sigkill() {
	local id
	id=$(kubectl -n kube-system get pod "$2" -o jsonpath='{.status.containerStatuses[0].containerID}')
	on_node "$1" ctr -n k8s.io tasks kill -s SIGKILL "${id#containerd://}" 2> /dev/null
	poll 60 test "$(kubectl -n kube-system get pod "$2" \
		-o jsonpath='{.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].ready}')" = "1 true"
	check "the SIGKILLed cache restarted by kubelet" "1 true" "$(kubectl -n kube-system get pod "$2" \
		-o jsonpath='{.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].ready}')"
}
roll() {
	kubectl -n kube-system rollout restart daemonset/resolv-k8s-node > /dev/null
	node_cache_rolled
}
under_load "the node cache SIGKILLed" load-kill sigkill
under_load "the node cache rolled" load-roll roll

check "helm uninstall" 0 "$(in_cluster "$build/bin/helm" uninstall resolv-k8s -n kube-system --wait > /dev/null 2>&1; echo $?)"
# Each node's last instance removes them at its exit, after the uninstall.
for node in node-a node-b; do
	eventually "$node: no interface of the chart's" \
		in_cluster nsenter --net=/run/netns/rk8s-$node sh -c '! ip -o link show resolv-k8s 2> /dev/null | grep -q .'
	eventually "$node: no nftables table of the chart's" \
		in_cluster nsenter --net=/run/netns/rk8s-$node sh -c '! nft list tables | grep -q resolv'
done
check "no webhook configuration left" "" "$(kubectl get mutatingwebhookconfigurations -o name | grep resolv)"
injecting_namespace after
check "after uninstall, pods in a labelled namespace resolve through kube-dns" "$plain" "$(probe_pods after)"
summary
