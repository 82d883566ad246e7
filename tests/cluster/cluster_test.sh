#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cluster_test.sh BUILD_DIR: the chart in a real cluster (cluster.sh up):
# helm installs it, the real kube-apiserver calls its webhook for the pods
# created in a labelled namespace, kubelet runs the init container, and
# each probe image (glibc, musl, musl static with libresolv-k8s.a, Go's own
# resolver) resolves the fixture's names (tests/cluster/objects.yaml)
# through the node cache with answers equal to the same pod's uninjected,
# which asks CoreDNS itself; cluster DNS's queries counted for both. Then
# helm uninstall: nothing of the chart's left on either node, pods
# resolving through kube-dns.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: cluster_test.sh BUILD_DIR}" && pwd)
source "$root/tests/lib/assert.sh"
[[ $(id -u) == 0 ]] || { skip "cluster: needs root"; summary; exit; }

"$here/cluster.sh" up "$build" || { tally "the cluster comes up" 1; summary; exit 1; }
trap '"$here/cluster.sh" down "$build"' EXIT
in_cluster() { "$here/cluster.sh" run "$build" "$@"; }
kubectl() { in_cluster kubectl "$@"; }

check "both nodes Ready, kubelet v1.37.2" "node-a True v1.37.2 node-b True v1.37.2" \
	"$(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status} {.status.nodeInfo.kubeletVersion} {end}' | xargs)"

kubectl apply -f - < "$here/objects.yaml" > /dev/null
kubectl -n shop rollout status deployment/web --timeout=60s > /dev/null
kubectl -n shop wait --for=condition=Ready pod/db-0 --timeout=60s > /dev/null

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

names=(web.shop web.shop.svc.cluster.local db-0.db.shop.svc.cluster.local ext.shop www.example.com
	kubernetes.default nope.example.com)
apps=(glibc musl musl-static go)
# probe_pods NAMESPACE: a pod per probe image in NAMESPACE resolving the
# names; each one's output once all have ended.
probe_pods() {
	local ns=$1 app
	for app in "${apps[@]}"; do
		kubectl -n "$ns" run "probe-$app" --image "rk8s.test/app-$app:1" --image-pull-policy Never \
			--restart Never -- "${names[@]}" > /dev/null
	done
	for app in "${apps[@]}"; do
		poll 90 test "$(kubectl -n "$ns" get pod "probe-$app" -o jsonpath='{.status.phase}')" = Succeeded
		echo "== $app"
		kubectl -n "$ns" logs "probe-$app" -c "probe-$app"
	done
}

helm_install=(install resolv-k8s "$root/container/chart" -n kube-system --wait --timeout 120s
	--set "images.node.pullPolicy=Never,images.webhook.pullPolicy=Never"
	--set "webhook.nameservers={169.254.53.10,10.96.0.10}")
check "helm install: the chart's DaemonSet and webhook up" 0 \
	"$(in_cluster "$build/bin/helm" "${helm_install[@]}" > /dev/null 2>&1; echo $?)"
# helm's --wait takes a DaemonSet as ready with maxUnavailable's share
# missing: its rollout, whole.
kubectl -n kube-system rollout status daemonset/resolv-k8s-node --timeout=90s > /dev/null
check "the node cache on both nodes" 2 \
	"$(kubectl -n kube-system get daemonset resolv-k8s-node -o jsonpath='{.status.numberReady}')"

kubectl create namespace plain > /dev/null
kubectl create namespace apps > /dev/null
kubectl label namespace apps resolv-k8s.io/inject=enabled > /dev/null
before=$(coredns_queries)
plain=$(probe_pods plain)
middle=$(coredns_queries)
injected=$(probe_pods apps)
after=$(coredns_queries)

check_match "the plain pods resolve the fixture's names" \
	"web.shop: inet stream 6 10\.96\..*db-0.db.shop.svc.cluster.local: inet stream 6 10\.244\..*nope.example.com: error EAI_NONAME" \
	"$plain"
check "injected pods answer as the plain ones, CoreDNS itself" "$plain" "$injected"
for app in "${apps[@]}"; do
	check "probe-$app: injected by the API server's call to the webhook (the init container)" \
		"resolv-k8s-init" "$(kubectl -n apps get pod "probe-$app" -o jsonpath='{.spec.initContainers[0].name}')"
done
echo "cluster DNS's queries: plain pods $((middle - before)), injected $((after - middle))"
check "cluster DNS asked fewer times for the injected pods" 1 "$(((after - middle) < (middle - before)))"

check "helm uninstall" 0 "$(in_cluster "$build/bin/helm" uninstall resolv-k8s -n kube-system --wait > /dev/null 2>&1; echo $?)"
# Each node's last instance removes them at its exit, after the uninstall.
for node in node-a node-b; do
	eventually "$node: no interface of the chart's" \
		in_cluster nsenter --net=/run/netns/rk8s-$node sh -c '! ip -o link show resolv-k8s 2> /dev/null | grep -q .'
	eventually "$node: no nftables table of the chart's" \
		in_cluster nsenter --net=/run/netns/rk8s-$node sh -c '! nft list tables | grep -q resolv'
done
check "no webhook configuration left" "" "$(kubectl get mutatingwebhookconfigurations -o name | grep resolv)"
kubectl delete namespace apps --wait > /dev/null
kubectl create namespace apps > /dev/null
kubectl label namespace apps resolv-k8s.io/inject=enabled > /dev/null
check "after uninstall, pods in the labelled namespace resolve through kube-dns" "$plain" "$(probe_pods apps)"
summary
