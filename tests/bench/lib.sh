# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034 # NAMES, SEARCH: for the sourcing scripts
# Shared by the benchmarks (bench.sh, node_bench.sh); source it.
#
#   NAMES                 the name mix a pod of namespace "shop" looks up
#   SEARCH                its search list (4 domains)
#   pod_conf NAMESERVER   its resolv.conf (ndots:5)
#   median                the median of the integers on stdin, one a line
#   bench_lps             items_per_second in lookup-bench's JSON on stdin, or 0
#   ratio A B             A / B to 2 decimals, "-" when B is 0
#   row CELL...           a Markdown table row
#   machine               the line that says where and under what load it ran
#   unbound_nodelocal_conf ADDR PIDFILE CLUSTER UPSTREAM
#                         unbound.conf for an unbound set up as NodeLocal DNSCache is
#   nodelocal_corefile ADDR CLUSTER UPSTREAM
#                         NodeLocal DNSCache's own Corefile, for CoreDNS

# Services by short name, other namespaces, external names, missing names.
NAMES=(web db queue kubernetes.default kube-dns.kube-system www.example.com example.org
	b.three.example.org nosuch nosuch.example.com)
SEARCH='shop.svc.cluster.local svc.cluster.local cluster.local ec2.internal'

pod_conf() { printf 'search %s\nnameserver %s\noptions ndots:5\n' "$SEARCH" "$1"; }

median() { sort -n | awk '{ v[NR] = $1 } END { printf "%d\n", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'; }

# lookup-bench's error message goes to stderr.
bench_lps() {
	awk -F': ' '$1 ~ /"items_per_second"/ { lps = int($2) }
		$1 ~ /"error_message"/ && !err++ { sub(/,$/, "", $2); print "lookup-bench: " $2 > "/dev/stderr" }
		END { print lps == "" ? 0 : lps }'
}

ratio() { if [[ $(bc <<<"$2 == 0") == 1 ]]; then echo -; else bc <<<"scale=2; $1 / $2"; fi; }

row() { printf '|'; printf ' %s |' "$@"; echo; }

machine() {
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
		"load $(cut -d' ' -f1-3 /proc/loadavg)"
}

# unbound as NodeLocal DNSCache's CoreDNS is set up: cluster zones to cluster
# DNS over TCP, the rest to the upstream, its caps (cache 30 s, negatives
# 5 s), answers in the order they came (CoreDNS does not rotate them).
unbound_nodelocal_conf() {
	cat <<END
server:
  interface: $1
  access-control: 0.0.0.0/0 allow
  rrset-roundrobin: no
  chroot: ""
  username: ""
  directory: "$WORK"
  pidfile: "$2"
  use-syslog: no
  num-threads: 2
  do-not-query-localhost: no
  qname-minimisation: no
  cache-max-ttl: 30
  cache-max-negative-ttl: 5
  module-config: "iterator"
  unblock-lan-zones: yes
  insecure-lan-zones: yes
END
	local zone
	for zone in cluster.local in-addr.arpa ip6.arpa; do
		printf 'forward-zone:\n  name: "%s."\n  forward-addr: %s\n  forward-tcp-upstream: yes\n' "$zone" "$3"
	done
	printf 'forward-zone:\n  name: "."\n  forward-addr: %s\n' "$4"
}

# NodeLocal DNSCache's Corefile (the nodelocaldns addon manifest of
# kubernetes/dns), but for its health endpoint (none: nothing probes it
# here) and the address of prometheus (a shared loopback): the cluster zones
# cached 30 s (denials 5 s in cluster.local) and forwarded over TCP, the rest
# cached 30 s and forwarded over UDP.
nodelocal_corefile() {
	local zone
	for zone in cluster.local in-addr.arpa ip6.arpa .; do
		echo "$zone:53 {"
		echo "    errors"
		if [[ $zone == cluster.local ]]; then
			printf '    cache {\n        success 9984 30\n        denial 9984 5\n    }\n'
		else
			echo "    cache 30"
		fi
		echo "    reload"
		echo "    loop"
		echo "    bind $1"
		if [[ $zone == . ]]; then
			echo "    forward . $3"
		else
			printf '    forward . %s {\n        force_tcp\n    }\n' "$2"
		fi
		echo "    prometheus $1:9253"
		echo "}"
	done
}
