#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# autopath_test.sh BUILD_DIR: every autopath status of the node cache, its
# candidates asked of the upstreams (the query logs count what a walk
# cost), and no answer leaking to another name or namespace (CoreDNS's
# autopath leaks, coredns#778 and #1139).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

cluster_dns 53
cluster_dns 55
external_dns --rcode broken.example.com=SERVFAIL
cache_at cache 169.254.20.10

k8s=(shop.svc.cluster.local svc.cluster.local cluster.local .)
pod_list=(shop.svc.cluster.local svc.cluster.local cluster.local corp.example .)
STOP_ON_EXISTS=4 BOTH=8

# status NAME STATUS-REGEX [REGEX...] -- DIG-ARGS: dig's output holds each.
status() {
	local name=$1 out re
	shift
	local -a res=()
	while [[ $1 != -- ]]; do res+=("$1"); shift; done
	shift
	out=$(q "$@")
	for re in "${res[@]}"; do check_match "$name: $re" "$re" "$out"; done
}
# cost BASE: what the walk of BASE under any suffix cost the upstreams.
cost() {
	local re=" ${1//./\\.}\.[a-z.]* "
	echo "cluster $(cat "$WORK"/dns5[35].log | grep -Ec "$re") external $(grep -Ec "$re" "$WORK/dns54.log")"
}

status "MATCHED 0" "$(reply 0 0)" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" -- \
	web.shop.svc.cluster.local "$(opt 0 "${k8s[@]}")"
check "MATCHED 0: one query" "cluster 1 external 0" "$(cost web)"

status "MATCHED 3" "$(reply 0 3)" \
	"ANSWER SECTION:.$(ans www.example.com.shop.svc.cluster.local CNAME www.example.com.).$(ans www.example.com A 93.184.216.34)" -- \
	www.example.com.shop.svc.cluster.local "$(opt 0 "${k8s[@]}")"
check "MATCHED 3: a query per candidate" "cluster 3 external 1" "$(cost www.example.com)"

# What the library sends once it knows the server: candidate 0's AAAA with
# its A, later candidates asked ahead (the A of each, then the AAAA of the
# last), never more than the classic walk's A and AAAA of 4 candidates.
status "MATCHED 3, BOTH" "$(reply 0 3 $BOTH)" \
	"$(ans example.org.shop.svc.cluster.local CNAME example.org.corp.example.)" -- \
	example.org.shop.svc.cluster.local "$(opt $((STOP_ON_EXISTS | BOTH)) "${pod_list[@]}")"
check "MATCHED 3, BOTH: candidates asked ahead, the AAAA of the match" "cluster 4 external 4" \
	"$(cost example.org)"

status "EXHAUSTED" "$(reply 1 255)" "status: NXDOMAIN" "AUTHORITY SECTION:.cluster\.local\.\s+[0-9]+\s+IN\s+SOA" -- \
	nope.shop.svc.cluster.local "$(opt 0 "${k8s[@]}")"
check "EXHAUSTED: every candidate asked" "cluster 3 external 1" "$(cost nope)"

status "SERVFAIL_SEEN" "$(reply 2 255)" "status: SERVFAIL" -- \
	broken.example.com.shop.svc.cluster.local "$(opt 0 shop.svc.cluster.local .)"
check "SERVFAIL_SEEN: both candidates asked" "cluster 1 external 1" "$(cost broken.example.com)"

status "REJECTED: a suffix not ending QNAME" "$(reply 3 255)" "$(ans db-0.db.shop.svc.cluster.local A 10.244.1.5)" -- \
	db-0.db.shop.svc.cluster.local "$(opt 0 example.com .)"
status "REJECTED: version 2" "$(reply 3 255)" "$(ans db-1.db.shop.svc.cluster.local A 10.244.2.6)" -- \
	db-1.db.shop.svc.cluster.local "+ednsopt=65431:0201$(wire shop.svc.cluster.local)"
check "REJECTED: QNAME alone asked" "cluster 1 external 0" "$(cost db-0.db)"

# The alias is made for the walk's reply only: QNAME itself does not exist.
for t in A AAAA CNAME; do
	status "no leak: plain $t of the walk's QNAME" "status: NXDOMAIN" "ANSWER: 0" -- \
		www.example.com.shop.svc.cluster.local $t
done
status "no leak: the walk again" "$(reply 0 3)" "$(ans www.example.com A 93.184.216.34)" -- \
	www.example.com.shop.svc.cluster.local "$(opt 0 "${k8s[@]}")"

# A pod of namespace default asks `web` after shop's pods did.
check_match "shop's pod: shop's web" "10\.96\.1\.10" "$(pod shop env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" web)"
default_web=$(pod default env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" web)
check "default's pod: default's answer" "$(pod default "$PROBE_GLIBC" web)" "$default_web"
check_match -v "default's pod: not shop's web" "10\.96\.1\.10|fd00:10:96::110" "$default_web"
status "default's walk for web" "$(reply 0 3)" "$(ans web.corp.example A 10.1.1.1)" -- \
	web.default.svc.cluster.local \
	"$(opt 0 default.svc.cluster.local svc.cluster.local cluster.local corp.example .)"
# The cuts: the same walks through a fresh cache without them (plain, at
# .10), then one with the schema cut and one with RFC 8020's (each in turn
# at .11): the same replies, but for the id, the time and the TTLs; the
# external names' candidates in shop never asked of cluster DNS by a cut
# one.
stop cache
cache_at plain 169.254.20.10
marker=search.shop.cluster.local.ap.k8s.io
walks=(
	"a Service|web.shop.svc.cluster.local $(opt 0 "${k8s[@]}")"
	"a headless endpoint|db-0.db.shop.svc.cluster.local $(opt 0 "${k8s[@]}")"
	"SRV|_http._tcp.web.shop.svc.cluster.local SRV $(opt 0 "${k8s[@]}")"
	"an external name|www.example.com.shop.svc.cluster.local $(opt 0 "${k8s[@]}")"
	"an external name, AAAA|www.example.com.shop.svc.cluster.local AAAA $(opt $STOP_ON_EXISTS "${pod_list[@]}")"
	"an external name, BOTH|www.example.org.shop.svc.cluster.local $(opt $((STOP_ON_EXISTS | BOTH)) "${pod_list[@]}")"
	"an NXDOMAIN name|nope.example.com.shop.svc.cluster.local $(opt 0 "${k8s[@]}")"
	"the marker path|www.example.com.$marker"
)
# walk_all NAME SERVER: each walk's reply at SERVER in WORK/NAME.I, the
# queries cluster DNS got meanwhile in WORK/NAME.asked.
walk_all() {
	local i before
	before=$(cat "$WORK"/dns5[35].log | wc -l)
	for i in "${!walks[@]}"; do
		# shellcheck disable=SC2086 # the walk's dig arguments
		ask "$2" ${walks[i]#*|} | sed -E -e 's/id: [0-9]+//' -e '/<<>> DiG|Query time|SERVER:|WHEN:|MSG SIZE/d' \
			-e 's/^([^;][^[:space:]]*)[[:space:]]+[0-9]+[[:space:]]+IN/\1 IN/' > "$WORK/$1.$i"
	done
	sleep 0.2  # the last replies logged
	cat "$WORK"/dns5[35].log | tail -n +$((before + 1)) > "$WORK/$1.asked"
}
walk_all plain 169.254.20.10
candidate0=' www\.example\.(com|org)\.shop\.svc\.cluster\.local\. '
check "plain asked the external names' candidates in shop" 1 "$(($(logged "$WORK/plain.asked" "$candidate0") >= 3))"
cut_total=resolv_k8s_autopath_candidates_cut_total
# check_cut NAME AUTOPATH: a cache at .11 with these autopath settings walks
# as plain did; what it counted, by cut, in WORK/NAME.counted.
check_cut() {
	local i asked
	cache_at "$1" 169.254.20.11 autopath="$2"
	walk_all "$1" 169.254.20.11
	for i in "${!walks[@]}"; do
		check "$1 cut: the same reply: ${walks[i]%%|*}" "$(cat "$WORK/plain.$i")" "$(cat "$WORK/$1.$i")"
	done
	check_match "$1 cut: the replies hold answers" "www\.example\.com\.\s+IN\s+A\s+93\.184\.216\.34" \
		"$(cat "$WORK/$1".[0-9])"
	check_match "$1 cut: and NXDOMAIN" "status: NXDOMAIN" "$(cat "$WORK/$1".[0-9])"
	check "$1 cut: never asked those candidates" 0 "$(logged "$WORK/$1.asked" "$candidate0")"
	asked=$(wc -l < "$WORK/$1.asked")
	check "$1 cut: fewer queries at cluster DNS" 1 "$((asked < $(wc -l < "$WORK/plain.asked")))" "cut: $asked"
	echo "schema $(metric "$cut_total{cut=\"schema\"}" 169.254.20.11)" \
		"rfc8020 $(metric "$cut_total{cut=\"rfc8020\"}" 169.254.20.11)" > "$WORK/$1.counted"
}
check_cut schema '{clusterDomain: cluster.local, schemaCut: true}'
stop schema
check_cut rfc8020 '{rfc8020Cut: true}'
# A client's own walk (past a marker name that did not match) asks plainly:
# the probes' NXDOMAINs answer its candidates below them too.
before=$(cat "$WORK"/dns5[35].log | wc -l)
for name in www.example.com.svc.cluster.local nope.example.com.cluster.local; do
	out=$(ask 169.254.20.11 "$name")
	check_match "rfc8020 cut: a plain $name: NXDOMAIN" "status: NXDOMAIN" "$out"
	check_match "rfc8020 cut: a plain $name: the SOA" "cluster\.local\.\s+[0-9]+\s+IN\s+SOA" "$out"
done
sleep 0.2  # anything asked logged
check "rfc8020 cut: cluster DNS not asked for them" "$before" "$(cat "$WORK"/dns5[35].log | wc -l)"
check "rfc8020 cut: counted" 2 "$(metric resolv_k8s_cache_below_nxdomain_total 169.254.20.11)"
stop rfc8020
own=' nope\.example\.com\.shop\.svc\.cluster\.local\. A '
check "schema cut: QNAME's own asked for the NXDOMAIN walk" 1 "$(logged "$WORK/schema.asked" "$own")"
check "rfc8020 cut: QNAME's own answered by its probe" 0 "$(logged "$WORK/rfc8020.asked" "$own")"
check "rfc8020 cut: the probe asked once for all the walks" 1 \
	"$(logged "$WORK/rfc8020.asked" ' com\.shop\.svc\.cluster\.local\. A ')"
check "cuts counted: plain" 0 "$(metric $cut_total)"
check "cuts counted: schema" "schema 4 rfc8020 0" "$(cat "$WORK/schema.counted")"
check "cuts counted: rfc8020" "schema 0 rfc8020 15" "$(cat "$WORK/rfc8020.counted")"
summary
