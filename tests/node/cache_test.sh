#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cache_test.sh BUILD_DIR: the node cache answers a question asked before
# without asking upstream (the query logs), with TTLs counting down;
# NXDOMAIN and NODATA are kept for negativeTTL (2 s here), then asked
# again; 500 names fit in a capacity of 50 by eviction. Without prefetch,
# which would fetch a negative answer anew in its last second, half its
# life here (prefetch_test.sh has it).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

node_start cache='{capacity: 50, positiveTTL: 1h, negativeTTL: 2s, prefetch: false}'

upstream() { # NAME TYPE: how often the upstreams were asked, in any case
	cat "$WORK"/dns5[345].log | grep -ci " ${1//./\\.}\. $2 "
}
ttl() { q +noall +answer "$@" | awk '{ print $2; exit }'; }

first=$(q www.example.com)
check_match "asked: the answer" "$(ans www.example.com A 93.184.216.34)" "$first"
check_match "again: the answer" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"
check_match "another case: the answer" "$(ans WWW.Example.COM A 93.184.216.34)" "$(q WWW.Example.COM)"
check "asked three times, forwarded once" 1 "$(upstream www.example.com A)"
q web.shop.svc.cluster.local > /dev/null
q web.shop.svc.cluster.local > /dev/null
check "a cluster name: forwarded once" 1 "$(upstream web.shop.svc.cluster.local A)"

ttl1=$(ttl www.example.com)
check "TTL at most the zone's" yes "$( ((ttl1 > 0 && ttl1 <= 120)) && echo yes)" "$ttl1"
below() { (($(ttl www.example.com) < ttl1)); }
eventually "TTL counts down" below

forwarded_again() { q "$1" "$2" > /dev/null; (($(upstream "$1" "$2") == 2)); }
# negative NAME TYPE STATUS: kept, then asked again once negativeTTL is past.
negative() {
	local name=$1 type=$2 status=$3 out
	out=$(q "$name" "$type")
	check_match "$name $type: $status with an SOA" "status: $status.*AUTHORITY SECTION:.*SOA" "$out"
	check_match "$name $type: negative TTL at most negativeTTL" "AUTHORITY SECTION:.[^[:space:]]+\s+[012]\s+IN\s+SOA" "$out"
	q "$name" "$type" > /dev/null
	check "$name $type: asked twice, forwarded once" 1 "$(upstream "$name" "$type")"
	eventually "$name $type: asked again after negativeTTL" forwarded_again "$name" "$type"
}
negative nxd.example.com A NXDOMAIN
negative v4only.example.com AAAA NOERROR
negative shop.svc.cluster.local A NOERROR
negative nope.shop.svc.cluster.local A NXDOMAIN
# An NXDOMAIN answers its own type alone (as CoreDNS's cache and unbound),
# but for autopath.rfc8020Cut's names (below).
check_match "NXDOMAIN for another type" "status: NXDOMAIN" "$(q nope.shop.svc.cluster.local AAAA)"
check "NXDOMAIN answers its own type alone: the other forwarded" 1 "$(upstream nope.shop.svc.cluster.local AAAA)"

# An upstream that says NXDOMAIN for one type of a name with another
# (split_upstream.py: a GSLB's AAAA, CoreDNS's reverse names but PTR):
# while a pod asks the type that is NXDOMAIN, another pod's question for
# the other type is answered, 20 of 20, with the RFC 8020 cut on; there an
# NXDOMAIN answers every type only for a Service's name or above.
start split /usr/bin/python3 "$NODE_ROOT/tests/node/split_upstream.py" 127.0.0.69
cache_at split 169.254.20.11 autopath='{rfc8020Cut: true}' servers="[$CLUSTER_SERVER,
  {name: split, zones: [gslb.test, 10.in-addr.arpa], forwardPlugin: {upstreams: [127.0.0.69]}}]"
answered=0 ptrs=0
for i in $(seq 20); do
	dig @169.254.20.11 -b 127.0.0.2 +short "www$i.gslb.test" AAAA > /dev/null
	[[ $(dig @169.254.20.11 -b 127.0.0.3 +short "www$i.gslb.test" A) == 192.0.2.10 ]] && ((++answered))
	dig @169.254.20.11 -b 127.0.0.2 +short "$i.0.96.10.in-addr.arpa" A > /dev/null
	[[ $(dig @169.254.20.11 -b 127.0.0.3 +short "$i.0.96.10.in-addr.arpa" PTR) == web.prod.svc.cluster.local. ]] &&
		((++ptrs))
done
check "a GSLB's AAAA NXDOMAIN: another pod's A answered" 20 "$answered"
check "a reverse name's A NXDOMAIN: another pod's PTR answered" 20 "$ptrs"
ask 169.254.20.11 nope2.shop.svc.cluster.local A > /dev/null
check_match "a Service's NXDOMAIN answers every type with the cut" "status: NXDOMAIN" \
	"$(ask 169.254.20.11 nope2.shop.svc.cluster.local AAAA)"
check "a Service's NXDOMAIN answers every type with the cut: the other not forwarded" 0 \
	"$(upstream nope2.shop.svc.cluster.local AAAA)"

evicted=$(metric resolv_k8s_cache_evictions_total)
check "500 names" "NOERROR 500" "$("$BURST" -w 50 169.254.20.10 500 'n%d.wild.example.com')"
check "capacity 50: entries" yes "$( (($(metric resolv_k8s_cache_entries) <= 50)) && echo yes)" \
	"$(metric resolv_k8s_cache_entries)"
check "capacity 50: evictions" yes "$( (($(metric resolv_k8s_cache_evictions_total) - evicted >= 450)) && echo yes)" \
	"$(metric resolv_k8s_cache_evictions_total)"
summary
