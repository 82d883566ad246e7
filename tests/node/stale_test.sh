#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# stale_test.sh BUILD_DIR: serve-stale as RFC 8767 says, with its knobs
# (cache.serveStale): an expired answer served, with staleTTL, when its
# upstream outlasts clientTimeout; after the upstreams failed, served
# without asking them again for failureRecheck; in Immediate mode at once,
# fetched anew behind it; with maxStale 0, never. Each counted by why.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# stale.test's upstream: a name with a TTL of 1 s; restarted with --drop
# to play an upstream that stopped answering.
zone "$WORK/stale.test.zone" stale.test 'www 1 IN A 192.0.2.1' 'imm 1 IN A 192.0.2.2' 'none 1 IN A 192.0.2.3'
upstream() { start dns66 "$SERVER" --listen 127.0.0.66:53 --zone "$WORK/stale.test.zone" --query-log "$WORK/dns66.log" "$@"; }
upstream
stale_server() { echo "[{name: stale, zones: [stale.test], forwardPlugin: {upstreams: [127.0.0.66]}}]"; }
cache_at verify 169.254.20.10 servers="$(stale_server)" \
	cache='{serveStale: {staleTTL: 10s, clientTimeout: 300ms, failureRecheck: 30s}}'
cache_at immediate 169.254.20.11 servers="$(stale_server)" cache='{serveStale: {mode: Immediate}}'
node_config "$WORK/never.yaml" 169.254.20.12 servers="$(stale_server)" cache='{serveStale: {maxStale: 0s}}'
ip addr add 169.254.20.12/32 dev nodelocaldns
start never "$SERVER" --config "$WORK/never.yaml"

asked() { grep -c " $1\.stale\.test\. " "$WORK/dns66.log"; }
ttl_of() { ask "$1" +noall +answer +time=2 +tries=1 "$2.stale.test" | awk '{ print $2; exit }'; }
stale_count() { metric "resolv_k8s_cache_served_stale_total{reason=\"$1\"}" "$2"; }

for addr in 169.254.20.10 169.254.20.11 169.254.20.12; do
	for name in www imm none; do ask "$addr" "$name.stale.test" > /dev/null; done
done
sleep 1.5  # every answer expired
stop dns66
upstream --drop www.stale.test --drop imm.stale.test --drop none.stale.test

# Verify: the upstream first; stale once clientTimeout (300 ms) is over,
# well before dig gives up (2 s, the upstream's read timeout: only
# clientTimeout's stale answer comes in time).
before=$(asked www)
check "Verify: served stale, with staleTTL, while the upstream is silent" 10 "$(ttl_of 169.254.20.10 www)"
check "Verify: the upstream was asked" yes "$( (($(asked www) > before)) && echo yes)"
check "Verify: counted, clientTimeout" 1 "$(stale_count timeout 169.254.20.10)"
# The question fails after the upstream's read timeout (2 s): then stale
# without asking again, for failureRecheck.
timed_out() { (($(metric 'resolv_k8s_forward_request_duration_seconds_count{to="127.0.0.66:53",rcode="timeout"}') > 0)); }
eventually "Verify: the upstream's silence found" timed_out
before=$(asked www)
check "failureRecheck: served stale at once" 10 "$(ttl_of 169.254.20.10 www)"
check "failureRecheck: the upstream not asked again" "$before" "$(asked www)"
check "failureRecheck: counted" 1 "$(stale_count recheck 169.254.20.10)"

# Immediate: stale at once, the question sent behind it.
before=$(asked imm)
check "Immediate: served stale at once, TTL 30" 30 "$(ttl_of 169.254.20.11 imm)"
check "Immediate: counted" 1 "$(stale_count immediate 169.254.20.11)"
sent() { (($(asked imm) > before)); }
eventually "Immediate: fetched anew behind it" sent

# maxStale 0: nothing past its TTL.
check_match "maxStale 0s: SERVFAIL once the upstream fails" "status: SERVFAIL" \
	"$(ask 169.254.20.12 +time=4 +tries=1 none.stale.test)"
summary
