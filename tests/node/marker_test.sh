#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# marker_test.sh BUILD_DIR: the marker path of "DNS Autopath in PodSpec"
# with clients the shim never touches. A pod whose resolv.conf has the
# marker first, the classic list after it, and the cache then cluster DNS as
# nameservers; each client (glibc, musl, Go without cgo, c-ares, dnspython,
# Ruby, glibc's res_search, and the glibc shim under getaddrinfo and
# res_search) looks up Services, another
# namespace, a headless Service, an ExternalName, an external name, a name
# of the node's search domain and a missing name. Asserts the answers of
# the same client's classic walk (the list without the marker, through a
# cache with autopath off), one query per family asked for every name that
# exists, and, with the cache stopped, the answers through cluster DNS.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Cluster DNS as CoreDNS is: it knows no marker.
cluster_dns 53 --autopath off
cluster_dns 55 --autopath off
external_dns
cache_at cache 169.254.20.10 autopath='{hostSearch: [example.org]}'
cache_at off 169.254.20.11 autopath='{enabled: false}'

list="shop.svc.cluster.local svc.cluster.local cluster.local example.org"
printf 'nameserver 169.254.20.11\nsearch %s\noptions ndots:5\n' "$list" > "$WORK/classic.conf"
# timeout:1: with the cache stopped, a client that sends from an unconnected
# socket (dnspython) never hears the port is closed and waits out each try.
printf 'nameserver 169.254.20.10\nnameserver 127.0.0.53\nsearch search.shop.cluster.local.ap.k8s.io %s\noptions ndots:5 timeout:1\n' \
	"$list" > "$WORK/marker.conf"
# The cache alone, for counting what the pod asks it: musl asks every
# nameserver at once and takes the first reply, and on a loaded machine
# cluster DNS's NXDOMAIN for the marker name can come first, sending musl on
# down the list.
grep -v '^nameserver 127' "$WORK/marker.conf" > "$WORK/marker-cache.conf"

found=(web db kubernetes.default payments www.example.com two)
names=("${found[@]}" nosuch)
clients=(glibc musl go c-ares dnspython ruby res_search shim res_search+shim)
declare -A cmd=(
	[glibc]="$PROBE_GLIBC"
	[musl]="$PROBE_MUSL"
	[go]="$BUILD/tests/go-probe"
	[c-ares]="$BUILD/tests/ares-probe"
	[dnspython]="/usr/bin/python3 $NODE_ROOT/tests/node/clients/dnspython_probe.py"
	[ruby]="ruby $NODE_ROOT/tests/node/clients/ruby_probe.rb"
	[res_search]="$BUILD/tests/res-probe"
	[shim]="env LD_PRELOAD=$SHIM $PROBE_GLIBC"
	[res_search+shim]="env LD_PRELOAD=$SHIM $BUILD/tests/res-probe"
)
# Queries each sends for a name: both families, but dnspython and res-probe
# ask for A alone and Ruby asks for AAAA only on a host with an IPv6 address; the
# shim sends one (BOTH) once the cache has shown support, two before.
declare -A families=([glibc]=2 [musl]=2 [go]=2 [c-ares]=2 [dnspython]=1 [ruby]=1 [res_search]=1 [shim]=1
	[res_search+shim]=1)
declare -A first=([shim]=1)

# quiet LOG: until LOG has not grown for half a second. A query's line is
# written with its reply, which may come after the client has gone: musl
# asks every nameserver at once and takes the first reply.
quiet() {
	local n=-1
	until [[ $n == $(wc -l < "$1") ]]; do
		n=$(wc -l < "$1")
		sleep 0.5
	done
}

declare -A classic
for c in "${clients[@]}"; do
	read -ra run <<<"${cmd[$c]}"
	classic[$c]=$(pod classic "${run[@]}" "${names[@]}" 2>&1)
	check_match "$c: the classic walk finds web" "web" "${classic[$c]}"
	check "$c, marker first: the classic walk's answers" "${classic[$c]}" \
		"$(pod marker "${run[@]}" "${names[@]}" 2>&1)"
	# Once more, the answers cached: what the pod asks the cache.
	quiet "$WORK/cache.log"
	before=$(wc -l < "$WORK/cache.log")
	pod marker-cache "${run[@]}" "${found[@]}" > /dev/null 2>&1
	quiet "$WORK/cache.log"
	check "$c: one query per family for each name that exists" \
		"$((${#found[@]} * ${families[$c]} + ${first[$c]:-0}))" "$(($(wc -l < "$WORK/cache.log") - before))" \
		"$(tail -n +$((before + 1)) "$WORK/cache.log" | cut -d' ' -f2-)"
	# The shim walks the list behind the marker itself (one query, the option).
	[[ $c == *shim ]] && check "$c: the marker left out of its walk" 0 \
		"$(tail -n +$((before + 1)) "$WORK/cache.log" | grep -c 'ap\.k8s\.io\. ')"
done

# The marker's answer itself.
out=$(q payments.search.shop.cluster.local.ap.k8s.io A)
check_match "payments: the marker name aliased to the Service" \
	"payments.search.shop.cluster.local.ap.k8s.io.\s+[0-9]+\s+IN\s+CNAME\s+payments.shop.svc.cluster.local." "$out"
check_match "payments: then the Service's chain" "payments.example.com.\s+[0-9]+\s+IN\s+A\s+192.0.2.50" "$out"
out=$(q nosuch.search.shop.cluster.local.ap.k8s.io A)
check_match "nosuch: NXDOMAIN" "status: NXDOMAIN" "$out"
check_match "nosuch: the marker zone's SOA" "cluster.local.ap.k8s.io.\s+[0-9]+\s+IN\s+SOA" "$out"
check_match "db AAAA (A only): NODATA" "status: NOERROR.*ANSWER: 0" "$(q db.search.shop.cluster.local.ap.k8s.io AAAA | tr '\n' ' ')"
check_match "another namespace: kubernetes in default" "CNAME\s+kubernetes.default.svc.cluster.local." \
	"$(q kubernetes.search.default.cluster.local.ap.k8s.io A)"
has() { (($(metric "$1") > 0)) && echo yes || echo "no ($1)"; }
check "metrics: marker names matched and not, and the queries the matches saved" "yes yes yes" \
	"$(has 'resolv_k8s_marker_total{status="matched"}') $(has 'resolv_k8s_marker_total{status="exhausted"}') $(has resolv_k8s_marker_queries_saved_total)"

# The cache stopped: cluster DNS, the second nameserver, answers the marker
# NXDOMAIN and the classic walk goes on.
stop cache
cluster_names=(web db kubernetes.default)
for c in glibc musl go c-ares dnspython ruby res_search; do
	read -ra run <<<"${cmd[$c]}"
	check "$c, the cache stopped: the cluster's answers through cluster DNS" \
		"$(pod classic "${run[@]}" "${cluster_names[@]}" 2>&1)" \
		"$(pod marker "${run[@]}" "${cluster_names[@]}" 2>&1)"
done
summary
