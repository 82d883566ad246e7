#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# failover_test.sh BUILD_DIR: a cluster DNS replica killed: the other one
# answers, the dead one is health-checked until it is back, then used
# again, and the log says when it went down and when it came back; both
# killed: /ready says 503 until they return. Every upstream
# killed: a cached answer past its TTL is served stale, with TTL 30.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

node_start cache='{positiveTTL: 1s}'

ready() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 http://169.254.20.10:8080/ready; }
asked() { grep -c " ${2//./\\.}\. " "$WORK/$1.log"; }
n=0
# fresh LOG: a name never asked before is asked, and LOG got it.
fresh() {
	((++n))
	q "fresh$n.shop.svc.cluster.local" > /dev/null
	(($(asked "$1" "fresh$n.shop.svc.cluster.local") > 0))
}

check "build_info: the version" 1 "$(metric "resolv_k8s_build_info{version=\"$("$NODE_ROOT/mk/version.sh")\"}")"
durations() { metric 'resolv_k8s_request_duration_seconds_count{server="dns://169.254.20.10:53",rcode="NOERROR"}'; }
answered_before=$(durations)
check_match "both up: an answer" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" "$(q web.shop.svc.cluster.local)"
check "both up: the first replica asked" "1 0" \
	"$(asked dns53 web.shop.svc.cluster.local) $(asked dns55 web.shop.svc.cluster.local)"
check "request durations: counted by server and rcode" 1 "$(($(durations) - answered_before))"

stop dns53
for name in kubernetes.default.svc.cluster.local kube-dns.kube-system.svc.cluster.local; do
	check_match ".53 down: $name answered" "status: NOERROR.*ANSWER: 1," "$(q $name)"
	check ".53 down: $name from .55" 1 "$(asked dns55 $name)"
done
failures() { metric 'resolv_k8s_forward_healthcheck_failures_total{to="127.0.0.53:53"}'; }
above() { (($(failures) > $1)); }
eventually ".53 down: health checks fail" above 0
eventually ".53 down: health check failures grow" above "$(failures)"
check ".53 down: ready" 200 "$(ready)"
said() { grep -q "^resolv-k8s-server: upstream 127.0.0.53:53 $1" "$WORK/cache.err"; }
eventually ".53 down: said once, as it happened" said "down: 2 health checks in a row unanswered, asked again every 500 ms$"

cluster_dns 53
eventually ".53 back: used again" fresh dns53
eventually ".53 back: said" said "answers again$"
check "said once each" "1 1" "$(grep -c '127.0.0.53:53 down' "$WORK/cache.err") $(grep -c '127.0.0.53:53 answers again' "$WORK/cache.err")"

stop dns53
stop dns55
unready() { fresh dns55; [[ $(ready) == 503 ]]; }
eventually "both down: not ready" unready
check_match "both down: SERVFAIL" "status: SERVFAIL" "$(q nothing.shop.svc.cluster.local)"
check "both down: counted" yes "$( (($(metric resolv_k8s_forward_healthcheck_broken_total) > 0)) && echo yes)"
cluster_dns 53
cluster_dns 55
is_ready() { [[ $(ready) == 200 ]]; }
eventually "both back: ready" is_ready
check_match "both back: an answer" "status: NXDOMAIN" "$(q back.shop.svc.cluster.local)"

# Cached with TTL 1 (positiveTTL), then every upstream gone.
for name in www.example.com web.shop.svc.cluster.local; do
	check_match "$name: cached" "status: NOERROR.*ANSWER: [1-9]" "$(q $name)"
done
stop dns53
stop dns55
stop dns54
stale=$(metric resolv_k8s_cache_served_stale_total)
with_ttl_30() { [[ $(q +noall +answer "$1" | awk '{ print $2; exit }') == 30 ]]; }
for name in www.example.com web.shop.svc.cluster.local; do
	eventually "upstreams gone: $name served stale, TTL 30" with_ttl_30 $name
	check_match "upstreams gone: $name, the cached address" "$name\.\s+30\s+IN\s+A\s+(93\.184\.216\.34|10\.96\.1\.10)" \
		"$(q $name)"
done
check "served stale: counted" yes "$( (($(metric resolv_k8s_cache_served_stale_total) >= stale + 4)) && echo yes)"
summary
