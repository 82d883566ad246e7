#!/bin/bash
# transport_test.sh BUILD_DIR: truncation and TCP at both ends of the node
# cache (an answer too big for its clients' UDP, and one too big for its own
# query upstream, retried over TCP); replies forged by a hostile upstream
# (tests/faults/hostile.py: another port, another ID, another question before
# the real reply) are never taken, nor cached.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# 100 addresses: over the 1232 bytes the cache asks upstream for.
mapfile -t huge < <(for i in $(seq 100); do echo "huge 300 IN A 198.18.0.$i"; done)
zone "$WORK/node.test.zone" node.test "${huge[@]}"
"$NODE_ROOT/tests/faults/hostile.py" 127.0.0.66 "$WORK/hostile.log" -- sleep 600 &
poll 10 dig +time=1 +tries=1 @127.0.0.66 ok.forged.test > /dev/null
cluster_dns 53
cluster_dns 55
external_dns --zone "$WORK/node.test.zone"
cache_at cache 169.254.20.10 servers="[$CLUSTER_SERVER,
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
summary
