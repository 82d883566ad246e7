#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# transport_test.sh BUILD_DIR: truncation and TCP at both ends of the node
# cache (an answer too big for its clients' UDP, and one too big for its own
# query upstream, retried over TCP); replies forged by a hostile upstream
# (tests/faults/hostile.py: another port, another ID, another question before
# the real reply) are never taken, nor cached. A slow TCP upstream that answers
# one query at a time (tests/node/tcp_upstream.py) gets each message in one
# piece, from the cache and from the shim, several in flight on one kept
# connection, and a new connection after it closes one. One that leaves
# Nagle on answers A and AAAA pipelined to the cache.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# 100 addresses: over the 1232 bytes the cache asks upstream for.
mapfile -t huge < <(for i in $(seq 100); do echo "huge 300 IN A 198.18.0.$i"; done)
zone "$WORK/node.test.zone" node.test "${huge[@]}"
"$NODE_ROOT/tests/faults/hostile.py" 127.0.0.66 "$WORK/hostile.log" -- sleep 600 &
poll 10 dig +time=1 +tries=1 @127.0.0.66 ok.forged.test > /dev/null
start slow "$NODE_ROOT/tests/node/tcp_upstream.py" 127.0.0.57 "$WORK/slow.log" 50
cluster_dns 53
cluster_dns 55
external_dns --zone "$WORK/node.test.zone"
# A server that leaves Nagle on (as dnsmasq's kube-dns): its A and AAAA
# replies on one connection (bench-node measures the wait; here, answers).
zone "$WORK/nagle.test.zone" nagle.test '* 60 IN A 10.8.8.8' '* 60 IN AAAA fd00::8'
start nagle "$SERVER" --listen 127.0.0.56:53 --zone "$WORK/nagle.test.zone" --delay-ms 2 --tcp-nodelay off
cache_at cache 169.254.20.10 servers="[$CLUSTER_SERVER,
  {name: nagle, zones: [nagle.test], forwardPlugin: {upstreams: [127.0.0.56], protocolStrategy: TCP}},
  {name: slow, zones: [slow.test], forwardPlugin: {upstreams: [127.0.0.57], protocolStrategy: TCP}},
  {name: hostile, zones: [forged.test], forwardPlugin: {upstreams: [127.0.0.66]}},
  {name: hostile-tcp, zones: [forged-tcp.test], forwardPlugin: {upstreams: [127.0.0.66], protocolStrategy: TCP}}]"

asked() { grep -c "^[^ ]* ${1//./\\.}\. A " "$WORK/dns54.log"; }
truncated="flags:[a-z ]* tc[ ;]"

check_match "UDP without EDNS: truncated" "$truncated" "$(q big.example.com +noedns +ignore)"
check_match "UDP with EDNS 1232: whole" "ANSWER: 40," "$(q big.example.com +bufsize=1232)"
check_match -v "UDP with EDNS 1232: not truncated" "$truncated" "$(q big.example.com +bufsize=1232)"
check_match "TCP: whole" "ANSWER: 40," "$(q big.example.com +tcp)"
check_match "without EDNS, then TCP: whole" "ANSWER: 40," "$(q big.example.com +noedns)"
check "fits the cache's UDP: asked upstream once" 1 "$(asked big.example.com)"

check_match "too big for the cache's UDP: whole over TCP" "ANSWER: 100," "$(q huge.node.test +tcp)"
check "too big for the cache's UDP: asked over UDP, then TCP" 2 "$(asked huge.node.test)"
check_match "too big: truncated to a UDP client" "$truncated" "$(q huge.node.test +bufsize=1232 +ignore)"
check_match "too big: whole from the cache" "ANSWER: 100," "$(q huge.node.test +tcp)"
check "too big: cached whole" 2 "$(asked huge.node.test)"

spoofed="6\.6\.6\.6|6666:6666"
for zone in forged.test forged-tcp.test; do
	for type in A AAAA; do
		out=$(q forged.$zone $type)
		check_match "forged.$zone $type: the real answer" "forged\.$zone\.\s+[0-9]+\s+IN\s+$type\s+(10\.1\.1\.1|fd00::1)" "$out"
		check_match -v "forged.$zone $type: nothing spoofed" "$spoofed" "$out"
		check_match -v "forged.$zone $type, cached: nothing spoofed" "$spoofed" "$(q forged.$zone $type)"
	done
	check "forged.$zone: asked once a type" 2 "$(grep -c "^forged\.$zone " "$WORK/hostile.log")"
done
# The reply for another question came from the right address with the right ID.
out=$(q evil.example)
check_match "the other question: asked upstream" "status: NXDOMAIN" "$out"
check_match -v "the other question: not cached" "$spoofed" "$out"
check "the other question: asked upstream" 1 "$(asked evil.example)"

# Connections counted from here: the loop probe's, made at start, may have
# closed idle (10 s) before.
accepted_before=$(logged "$WORK/slow.log" '^accept')
slow_answers="a.slow.test.: inet6 stream 6 fd00::7 0
a.slow.test.: inet stream 6 10.7.7.7 0"
check "slow TCP upstream, through the cache: the answers" "${slow_answers//a./b.}" \
	"$(pod shop "$PROBE_GLIBC" -t stream b.slow.test.)"
check "slow TCP upstream, through the cache with the shim: the answers" "${slow_answers//a./c.}" \
	"$(pod shop env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -t stream c.slow.test.)"
for n in 1 2 3 4 5 6; do q "d$n.slow.test" > /dev/null; done
# A connection per worker loop (one per core), kept for every query after.
workers=$(nproc)
accepted=$(($(logged "$WORK/slow.log" '^accept') - accepted_before))
check "slow TCP upstream: connections kept and reused" 0 "$((accepted > workers))" "$(cat "$WORK/slow.log")"
check_match "slow TCP upstream: a query sent while another was in flight" "waiting=[1-9]" "$(cat "$WORK/slow.log")"
check "slow TCP upstream: asked once a name and type (the loop probe's HINFO aside)" 10 "$(logged "$WORK/slow.log" '^query [^ ]* ([^1]|1[^3])')"
# slam.. closes a connection that has served under the query: it goes again
# on a new one.
out=$(for n in 1 2 3 4; do q "slam$n.slow.test"; done)
check "an upstream that closes under queries: every one answered" 4 \
	"$(grep -Ec '^slam[1-4]\.slow\.test\.\s+[0-9]+\s+IN\s+A\s+10\.7\.7\.7' <<<"$out")" "$out"
check_match "an upstream that closes under queries: it did" "slammed" "$(cat "$WORK/slow.log")"
accepted=$(($(logged "$WORK/slow.log" '^accept') - accepted_before))
# Each close.. name closes its connection after the reply: a query the cache
# sends next on that loop needs a new one, and nothing fails for it.
out=$(for n in 1 2 3 4 5 6; do q "close$n.slow.test"; done)
check "an upstream that closes: every query answered" 6 "$(grep -Ec '^close[1-6]\.slow\.test\.\s+[0-9]+\s+IN\s+A\s+10\.7\.7\.7' <<<"$out")" "$out"
check "an upstream that closes: new connections" 0 \
	"$(($(logged "$WORK/slow.log" '^accept') < accepted + 6 - workers))" "$(cat "$WORK/slow.log")"
printf 'nameserver 169.254.20.10\n' > "$WORK/nagle.conf"
out=$(pod nagle "$PROBE_GLIBC" -t stream $(seq -f 'n%g.nagle.test.' 20))
check "an upstream that leaves Nagle on: A and AAAA of 20 names through the cache, pipelined" "20 20" \
	"$(grep -c ' 10\.8\.8\.8 ' <<<"$out") $(grep -c ' fd00::8 ' <<<"$out")" "$out"
# The shim's own TCP (use-vc): the A and AAAA queries on one connection.
printf 'nameserver 127.0.0.57\noptions use-vc\n' > "$WORK/vc.conf"
check "slow TCP upstream, the shim over TCP: the answers" "$slow_answers" \
	"$(pod vc env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -t stream a.slow.test.)"
check "slow TCP upstream: every message in one piece" 0 "$(logged "$WORK/slow.log" '^split')"
summary
