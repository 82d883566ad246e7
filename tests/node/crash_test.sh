#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# crash_test.sh BUILD_DIR: a node that never goes dark. The cache holds
# kube-dns's ClusterIP (nodeSetup, kube-proxy in iptables mode) under its
# supervisor; a pod sends it a steady stream of queries (dnsperf) while the
# server is SIGKILLed. The supervisor says so and takes the ClusterIP and
# its rules away (the link-local address stays, where queries are refused
# at once), so the pod's queries reach kube-dns; then the server is back,
# with the ClusterIP, and answers again. Prints the queries lost and the seconds
# to each recovery (docs/operator-guide.md's figures, "Deploying"); asserts
# what happened, not how fast.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

kube_proxy_node
node_config "$WORK/cache.yaml" 169.254.25.10 \
	'nodeSetup={interface: nodecache, checkInterval: 1s, lockFile: '"$WORK/node.lock"'}' \
	"servers=[{name: cluster, zones: [cluster.local], forwardPlugin: {upstreams: [10.244.0.53]}}]"
sed -i 's/^listen: .*/listen: ["169.254.25.10:53", "10.96.0.10:53"]/' "$WORK/cache.yaml"
start cache "$SERVER" --config "$WORK/cache.yaml" --query-log "$WORK/cache.log"
server_pid() { pgrep -P "${PID[cache]}"; }
first=$(server_pid)
check "the server runs under its supervisor" 1 "$(wc -w <<<"$first")"

has_cluster_ip() { ip -br addr show dev nodecache 2>/dev/null | grep -q '10\.96\.0\.10'; }
only_link_local() { [[ $(ip -4 -br addr show dev nodecache 2>/dev/null | awk '{ $1 = $2 = ""; print }' | xargs) == 169.254.25.10/32 ]]; }
from_pod() { nsenter --net="$POD_NET" dig +nocookie +time=1 +tries=1 @10.96.0.10 "$@" 2>&1; }
# by LOG [NAME]: the pod's A queries for NAME (kubernetes.default's) in LOG.
by() {
	local name=${2:-kubernetes.default.svc.cluster.local}
	logged "$WORK/$1.log" "^10\.0\.0\.2[^ ]* ${name//./\\.}\. A "
}
more_streamed() { (($(by "$1" web.shop.svc.cluster.local) > $2)); }
answered() { [[ $(from_pod +short kubernetes.default.svc.cluster.local) == 10.96.0.1 ]]; }

# In the pod's network: its queries to kube-dns's address refused (the
# address local, nothing listening).
watch_pod 10.96.0.10

check "before: the cache answers the ClusterIP" "10.96.0.1 1 0" \
	"$(from_pod +short kubernetes.default.svc.cluster.local) $(by cache) $(by kubedns)"

# A steady stream from the pod, 1000 queries a second for 8 s.
for _ in $(seq 50); do echo "web.shop.svc.cluster.local A"; done > "$WORK/names"
nsenter --net="$POD_NET" dnsperf -s 10.96.0.10 -d "$WORK/names" -l 8 -Q 1000 -c 4 -t 1 \
	> "$WORK/perf.txt" 2>&1 &
perf=$!
sleep 2
# The supervisor starts the server again a second after its teardown: what
# happens in between is watched as it happens, on the stream's queries.
kubedns_before=$(by kubedns web.shop.svc.cluster.local)
killed=$(now)
kill -KILL "$first"
eventually "killed: the supervisor takes the ClusterIP away, the link-local address stays" only_link_local
fallback=$(since "$killed")
eventually "killed: the pod's queries reach kube-dns" more_streamed kubedns "$kubedns_before"
refused_before=$(watched refusals)
check_match "killed: the supervisor says so" \
	"supervisor: the server was killed by signal 9; its interface and NOTRACK rules removed but for 169.254.25.10, kept to refuse queries at once" \
	"$(cat "$WORK/cache.err")"

eventually "restarted: the ClusterIP is back" has_cluster_ip
cache_before=$(by cache)
eventually "restarted: the pod's queries reach the cache again" answered
check "restarted: no query to kube-dns's address refused (the address the cache's once it listens)" 0 \
	"$(($(watched refusals) - refused_before))"
back=$(since "$killed")
check "restarted: ... the cache answered" yes "$( (($(by cache) > cache_before)) && echo yes)"
check "restarted: a new server under the same supervisor" yes \
	"$([[ -n $(server_pid) && $(server_pid) != "$first" ]] && echo yes)"

wait "$perf"
sent=$(awk '/Queries sent:/ { print $3 }' "$WORK/perf.txt")
lost=$(awk '/Queries lost:/ { print $3 }' "$WORK/perf.txt")
check_match "dnsperf ran" '^[0-9]+ [0-9]+' "$sent $lost" "$(cat "$WORK/perf.txt")"
echo "crash: SIGKILL under $sent queries from a pod: $lost lost; through kube-dns after ${fallback} s, through the restarted cache after ${back} s"

kill -TERM "${PID[cache]}"
wait "${PID[cache]}"
check "SIGTERM to the supervisor: an orderly exit, the link-local address alone left" "0 kept" \
	"$? $(only_link_local && echo kept)"
summary
