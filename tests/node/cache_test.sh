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
# RFC 2308 section 5: a name that does not exist has no records of any type.
check_match "NXDOMAIN answers every type" "status: NXDOMAIN" "$(q nope.shop.svc.cluster.local AAAA)"
check "NXDOMAIN answers every type: not forwarded" 0 "$(upstream nope.shop.svc.cluster.local AAAA)"

evicted=$(metric resolv_k8s_cache_evictions_total)
check "500 names" "NOERROR 500" "$("$BURST" -w 50 169.254.20.10 500 'n%d.wild.example.com')"
check "capacity 50: entries" yes "$( (($(metric resolv_k8s_cache_entries) <= 50)) && echo yes)" \
	"$(metric resolv_k8s_cache_entries)"
check "capacity 50: evictions" yes "$( (($(metric resolv_k8s_cache_evictions_total) - evicted >= 450)) && echo yes)" \
	"$(metric resolv_k8s_cache_evictions_total)"
summary
