#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# coredns_test.sh BUILD_DIR: the node cache with both of autopath's cuts
# in front of CoreDNS itself (kubeadm's, tests/lib/coredns.sh, the sample
# cluster's objects), where CoreDNS answers NXDOMAIN for a name with names
# below it: `_tcp.web.shop.svc.cluster.local`, read as endpoint `_tcp`,
# while `_http._tcp.web.shop.svc.cluster.local` has its SRV record. While
# one pod asks the first, another pod's SRV lookups of the second are
# answered, 20 of 20; and pods' lookups through the library and the cache
# give the answers glibc gives asking CoreDNS itself.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source "$NODE_ROOT/tests/lib/coredns.sh"

external_dns
coredns_start 127.0.0.53 127.0.0.54
cache_at cache 169.254.20.10 autopath='{clusterDomain: cluster.local, schemaCut: true, rfc8020Cut: true}' \
	servers='[{name: cluster, zones: [cluster.local, in-addr.arpa, ip6.arpa], forwardPlugin:
	  {upstreams: [127.0.0.53], protocolStrategy: TCP}}]'

Z=shop.svc.cluster.local
check_match "CoreDNS: an endpoint-shaped name is NXDOMAIN" "status: NXDOMAIN" "$(ask 127.0.0.53 "_tcp.web.$Z" A)"
srv=0
for i in $(seq 20); do
	dig @169.254.20.10 -b 127.0.0.2 +short "_tcp.web.$Z" A > /dev/null
	dig @169.254.20.10 -b 127.0.0.2 +short "_tcp.web.$Z" SRV > /dev/null
	[[ $(dig @169.254.20.10 -b 127.0.0.3 +short "_http._tcp.web.$Z" SRV) == *" web.$Z." ]] && ((++srv))
done
check "a bystander's SRV below another pod's NXDOMAIN: answered" 20 "$srv"

# Lookups through the library and the cache, cuts on, against glibc asking
# CoreDNS itself with the same search list.
resolv_conf "$WORK/coredns.conf" 127.0.0.53 shop
for name in web web.shop db-0.db _http._tcp.web _tcp.web x.y.web kubernetes.default www.example.com \
	www.example.com.shop nosuch; do
	want=$(pod coredns "$PROBE_GLIBC" "$name" 2>&1)
	check "$name: glibc through the library and the cache as glibc against CoreDNS" "$want" \
		"$(pod shop env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" "$name" 2>&1)"
done
check_match "the cuts took candidates off CoreDNS" '[1-9]' \
	"$(metric resolv_k8s_autopath_candidates_cut_total)"
summary
