#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# answers_test.sh BUILD_DIR: the closed world (resolv-k8s-server --cluster)
# answers as CoreDNS's kubernetes plugin does, CoreDNS itself the oracle:
# kubeadm's CoreDNS (tests/lib/coredns.sh) on 127.0.0.10 and the closed
# world on 127.0.0.53, both from tests/fixtures/cluster.json, asked every
# shape of the Kubernetes DNS schema and the names around it. Compared:
# the rcode, the AA flag, the answer's records (sorted, TTLs aside: kubeadm
# sets 30, the closed world CoreDNS's default 5) and a negative answer's
# SOA (its owner, MNAME, RNAME, refresh, retry, expire: the serial is
# CoreDNS's start time, the minimum its TTL). A name CoreDNS does not
# answer itself (`fallthrough` of a reverse name to the upstream) is
# compared on its rcode and answer alone; the differences the closed
# world keeps (server/data/README.md) are checked to be still there.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:?usage: $(basename "$0") BUILD_DIR}" && pwd)
if [[ -z ${COREDNS_SANDBOX:-} ]]; then
	COREDNS_SANDBOX=1 exec timeout 120 "$ROOT/tests/pod/sandbox.sh" -- "$(realpath "$0")" "$BUILD" < /dev/null
fi
source "$ROOT/tests/lib/assert.sh"
source "$ROOT/tests/lib/coredns.sh"
WORK=$(mktemp -d)

# The upstream: example.com, where payments' ExternalName points. CoreDNS
# chases an ExternalName's target through its own forward
# (plugin/backend_lookup.go); the closed world chases it into the zones it
# holds: the same zone, as a CoreDNS whose upstream holds it. legacy's
# target is in neither: both answer its bare CNAME.
ZONE=$ROOT/tests/fixtures/example.com.zone
"$BUILD/bin/resolv-k8s-server" --listen 127.0.0.54:53 --zone "$ZONE" 2> "$WORK/upstream.err" &
"$BUILD/bin/resolv-k8s-server" --listen 127.0.0.53:53 --cluster "$ROOT/tests/fixtures/cluster.json" \
	--zone "$ZONE" 2> "$WORK/closed.err" &
coredns_start 127.0.0.10 127.0.0.54
poll 10 grep -qs listening "$WORK/upstream.err" && poll 10 grep -qs listening "$WORK/closed.err"

# view SERVER NAME TYPE: the reply as compared, one line per part.
view() {
	dig @"$1" +norecurse +tries=1 +time=2 "$2" "$3" | awk '
		/->>HEADER<<-/ { sub(/,$/, "", $6); print "rcode " $6 }
		/^;; flags:/ { print "aa " ($0 ~ /flags:[a-z ]* aa[ ;]/ ? "yes" : "no") }
		/^;; ANSWER SECTION:/ { s = "ans" } /^;; AUTHORITY SECTION:/ { s = "auth" }
		/^;; ADDITIONAL SECTION:/ || /^$/ { s = "" }
		s == "ans" && $4 == "SOA" { $7 = $11 = "" }
		s == "ans" && !/^;/ { $2 = ""; print "ans " tolower($0) }
		s == "auth" && $4 == "SOA" { print "soa " tolower($1 " " $5 " " $6 " " $8 " " $9 " " $10) }
	' | sort
}

compare() { # NAME TYPE
	local core ours
	core=$(view 127.0.0.10 "$1" "$2")
	ours=$(view 127.0.0.53 "$1" "$2")
	if ! grep -qx 'aa yes' <<<"$core"; then
		core=$(grep -v '^aa \|^soa ' <<<"$core")
		ours=$(grep -v '^aa \|^soa ' <<<"$ours")
	fi
	check "$1 $2" "$core" "$ours"
}

# The differences server/data/README.md keeps: still there.
differs() { # NAME TYPE
	[[ $(view 127.0.0.10 "$1" "$2") != "$(view 127.0.0.53 "$1" "$2")" ]]
	tally "$1 $2 differs" $?
}

Z=svc.cluster.local
cases=(
	# ClusterIP Services: addresses, SRV of every port and of one, TXT.
	"web.shop.$Z A" "web.shop.$Z AAAA" "web.shop.$Z SRV" "web.shop.$Z TXT"
	"kubernetes.default.$Z A" "kube-dns.kube-system.$Z SRV"
	"_http._tcp.web.shop.$Z SRV" "_http._tcp.web.shop.$Z A" "_http._udp.web.shop.$Z SRV"
	"_dns._udp.kube-dns.kube-system.$Z SRV" "_dns-tcp._tcp.kube-dns.kube-system.$Z SRV"
	# One label below a Service: an endpoint's name, never an empty
	# non-terminal; two: a port and protocol; more: too long.
	"_tcp.web.shop.$Z A" "_tcp.web.shop.$Z SRV" "_http.web.shop.$Z SRV"
	"10-244-1-10.web.shop.$Z A" "x.y.web.shop.$Z A" "a.b.c.web.shop.$Z A"
	# Headless Services: endpoints ready or not, by hostname or address.
	"db.shop.$Z A" "db.shop.$Z AAAA" "db.shop.$Z SRV" "_postgres._tcp.db.shop.$Z SRV"
	"db-0.db.shop.$Z A" "db-0.db.shop.$Z AAAA" "db-0.db.shop.$Z SRV" "db-2.db.shop.$Z A"
	"10-244-1-9.db.shop.$Z A" "_tcp.db.shop.$Z SRV"
	"queue.shop.$Z A" "workers.shop.$Z A" "w1.workers.shop.$Z A" "w2.workers.shop.$Z A"
	# ExternalName.
	"payments.shop.$Z A" "payments.shop.$Z AAAA" "payments.shop.$Z CNAME" "legacy.default.$Z A"
	"x.payments.shop.$Z A" "_http._tcp.payments.shop.$Z SRV"
	# Missing Services and namespaces, namespace-only names, the apexes.
	"nosuch.shop.$Z A" "web.nosuch.$Z A" "shop.$Z A" "shop.$Z SRV" "empty.$Z A" "nosuch.$Z A"
	"$Z A" "$Z SOA" "pod.cluster.local A" "cluster.local A" "cluster.local SOA"
	"dns-version.cluster.local TXT" "nosuch.cluster.local A" "web.shop.cluster.local A"
	"x.web.shop.nosuch.cluster.local A"
	# Pods (pods insecure): any address in a namespace that exists.
	"10-244-1-10.shop.pod.cluster.local A" "10-244-1-10.shop.pod.cluster.local AAAA"
	"fd00-10-244-1--a.shop.pod.cluster.local AAAA"
	"10-244-1-10.nosuch.pod.cluster.local A" "notanip.shop.pod.cluster.local A"
	"shop.pod.cluster.local A"
	# Case.
	"WEB.Shop.$Z A" "DB-0.db.SHOP.$Z A"
	# Reverse: a Service's address (both families), an endpoint's, a pod's.
	"10.1.96.10.in-addr.arpa PTR" "0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa PTR"
	"5.1.244.10.in-addr.arpa PTR" "9.1.244.10.in-addr.arpa PTR" "30.2.244.10.in-addr.arpa PTR"
	"1.0.96.10.in-addr.arpa PTR" "99.99.99.10.in-addr.arpa PTR"
)
for c in "${cases[@]}"; do
	# shellcheck disable=SC2086 # NAME TYPE
	compare $c
done
for c in "payments.shop.$Z SRV" "10-244-9-9.shop.pod.cluster.local A" "x.10-244-1-10.shop.pod.cluster.local A"; do
	# shellcheck disable=SC2086 # NAME TYPE
	differs $c
done
rm -rf "$WORK"
summary
