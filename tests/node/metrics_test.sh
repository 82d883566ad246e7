#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# metrics_test.sh BUILD_DIR: the node cache's /metrics serves what the
# CoreDNS dashboards and the coredns-mixin's alerts read of NodeLocal
# DNSCache (tests/fixtures/coredns-mixin-alerts.yaml, checked by
# mixin_check.py: every series and label of their expressions), counted from
# real queries: a cache hit, a miss, an upstream's SERVFAIL, an NXDOMAIN;
# and the process_* series. With corednsMetrics: false the coredns_* series
# are gone and the same check fails.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

RULES=$NODE_ROOT/tests/fixtures/coredns-mixin-alerts.yaml
CHECK=$NODE_ROOT/tests/node/mixin_check.py
scrape() { curl -s --max-time 5 "http://169.254.20.10:9253/metrics" > "$WORK/$1"; }

# Both replicas answer one name SERVFAIL, as a broken cluster DNS would.
cluster_dns 53 --rcode broken.shop.svc.cluster.local=SERVFAIL
cluster_dns 55 --rcode broken.shop.svc.cluster.local=SERVFAIL
external_dns
cache_at cache 169.254.20.10

q web.shop.svc.cluster.local > /dev/null
q web.shop.svc.cluster.local > /dev/null
q www.example.com > /dev/null
q +tcp www.example.com AAAA > /dev/null
q nothing.example.com > /dev/null
check_match "an upstream's SERVFAIL" "status: SERVFAIL" "$(q broken.shop.svc.cluster.local)"

scrape on.txt
out=$(/usr/bin/python3 "$CHECK" "$RULES" "$WORK/on.txt" 2>&1)
check "the mixin's alerts find every series and label" 0 "$?" "$out"
echo "$out" | sed 's/^/    /'
check "a cache hit" 1 "$(metric 'coredns_cache_hits_total{server="dns://169.254.20.10:53",type="success"}')"
check "cluster.local. over UDP, IPv4, A: web twice, broken" 3 \
	"$(metric 'coredns_dns_requests_total{server="dns://169.254.20.10:53",zone="cluster.local.",proto="udp",family="1",type="A"}')"
check "the rest: the zone . over TCP" 1 \
	"$(metric 'coredns_dns_requests_total{server="dns://169.254.20.10:53",zone=".",proto="tcp",family="1",type="AAAA"}')"
check "SERVFAIL, written by forward" 1 \
	"$(metric 'coredns_dns_responses_total{server="dns://169.254.20.10:53",zone="cluster.local.",rcode="SERVFAIL",plugin="forward"}')"
# The start's loop probes (HINFO, as CoreDNS's loop plugin) are queries too.
probes=$(logged "$WORK/cache.log" ' HINFO ')
check "NXDOMAIN from the external upstream: nothing.example.com and its probes" $((1 + $(logged "$WORK/dns54.log" ' HINFO '))) \
	"$(metric 'coredns_forward_responses_total{rcode="NXDOMAIN",to="127.0.0.54:53"}')"
check "every query answered in the histogram" $((6 + probes)) "$(metric coredns_dns_request_duration_seconds_count)"
check "every upstream has a health check series" 3 "$(grep -c '^coredns_forward_healthcheck_failures_total{' "$WORK/on.txt")"
rss=$(metric process_resident_memory_bytes)
check "process_resident_memory_bytes: the cache's RSS" yes "$( ((rss > 1000000)) && echo yes)" "$rss"
for m in process_cpu_seconds_total process_virtual_memory_bytes process_open_fds process_max_fds process_start_time_seconds; do
	check "$m served" 1 "$(grep -c "^$m " "$WORK/on.txt")"
done
check "ours beside them, the same queries" $((6 + probes)) "$(metric resolv_k8s_queries_total)"

stop cache
cache_at cache 169.254.20.10 corednsMetrics=false
q web.shop.svc.cluster.local > /dev/null
scrape off.txt
check "corednsMetrics: false: no coredns_ series" 0 "$(grep -c '^coredns_' "$WORK/off.txt")"
check "corednsMetrics: false: process_ still" 1 "$(grep -c '^process_resident_memory_bytes ' "$WORK/off.txt")"
out=$(/usr/bin/python3 "$CHECK" "$RULES" "$WORK/off.txt" 2>&1)
check "corednsMetrics: false: the mixin check fails" 1 "$?" "$out"

summary
