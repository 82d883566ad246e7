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
