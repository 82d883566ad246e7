#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# failover_test.sh BUILD_DIR: a cluster DNS replica killed: the other one
# answers, the dead one is health-checked until it is back, then used
# again, and the log says when it went down and when it came back; both
# killed: /ready says 503 until they return. Every upstream
# killed: a cached answer past its TTL is served stale, with TTL 30. A
# client that floods names its upstream never answers marks no upstream
# down: a bystander's misses are answered throughout.
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
# Ready once a probe is answered; a question may still meet a connection
# that was broken: answered within eventually's bound.
answers_back() { q back.shop.svc.cluster.local | grep -q "status: NXDOMAIN"; }
eventually "both back: an answer" answers_back

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

# An upstream on 127.0.0.68 that answers every name (A 192.0.2.1) but
# those of dead.test, which it never answers (a dead zone behind a healthy
# resolver), and 127.0.0.67 that answers nothing, in that order. A pod
# floods 1500 names of dead.test, 300 at a time: the timeouts only probe
# .68, which answers its probes and is never down; .67 goes down by its
# probes alone. A bystander's 20 misses meanwhile are all answered.
python3 - 127.0.0.68 > "$WORK/partial.err" <<-'END' &
	import socket, struct, sys
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.bind((sys.argv[1], 53))
	print("listening", flush=True)
	while True:
	    q, peer = s.recvfrom(4096)
	    i, labels = 12, []
	    while q[i]:
	        labels.append(q[i + 1:i + 1 + q[i]].lower())
	        i += 1 + q[i]
	    if labels[-2:] == [b"dead", b"test"]:
	        continue
	    a = q[i + 1:i + 3] == b"\0\1"
	    answer = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + bytes([192, 0, 2, 1]) if a else b""
	    s.sendto(q[:2] + struct.pack(">HHHHH", 0x8180, 1, int(a), 0, 0) + q[12:i + 5] + answer, peer)
END
poll 10 grep -qs listening "$WORK/partial.err"
silent_dns 127.0.0.67
cache_at flood 169.254.20.11 servers= upstreamResolvers='{policy: Sequential, upstreams:
  [{type: Network, address: 127.0.0.68}, {type: Network, address: 127.0.0.67}]}'
at_flood() { metric "$1" 169.254.20.11; }
"$BURST" -s 127.0.0.2 -w 300 -t 8 169.254.20.11 1500 'u%d.dead.test' > "$WORK/flood.out" &
flood=$!
timed_out() { (($(at_flood 'resolv_k8s_forward_request_duration_seconds_count{to="127.0.0.68:53",rcode="timeout"}') > 0)); }
eventually "flood: its names time out at .68" timed_out
answered=0
for i in $(seq 1 20); do
	out=$(ask 169.254.20.11 -b 127.0.0.3 "bystander$i.example.net" A +tries=2 +time=2)
	if grep -q 'status: NOERROR' <<<"$out"; then
		answered=$((answered + 1))
	else
		echo "    bystander$i: $(grep -E 'status|timed out' <<<"$out")"
	fi
	sleep 0.2
done
wait $flood
echo "    flood: $(tr '\n' ' ' < "$WORK/flood.out")"
check "flood: the bystander's misses, NOERROR" 20 "$answered"
check "flood: .68 probed" yes "$( (($(at_flood 'resolv_k8s_forward_healthchecks_total{to="127.0.0.68:53"}') > 0)) && echo yes)"
check "flood: .68 never down" "0 0" "$(at_flood 'resolv_k8s_forward_upstream_down_total{to="127.0.0.68:53"}') \
$(at_flood 'resolv_k8s_forward_healthcheck_failures_total{to="127.0.0.68:53"}')"
check "flood: .67, that answers nothing, down" "1 1" "$(at_flood 'resolv_k8s_forward_upstream_down_total{to="127.0.0.67:53"}') \
$(at_flood 'resolv_k8s_forward_upstream_down{to="127.0.0.67:53"}')"
check "flood: said for .67 alone" "0 1" "$(grep -c 'upstream 127.0.0.68:53 down' "$WORK/flood.err") \
$(grep -c 'upstream 127.0.0.67:53 down' "$WORK/flood.err")"
summary
