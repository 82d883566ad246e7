#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cluster_bench_test.sh BUILD_DIR: `make bench-cluster`'s harness itself, on
# a small box (2 nodes of 4 pods, 8 lookups a pod, one of each client per
# node): every stack's figures in the JSON (ours also with each of the
# walk's cuts), every answer kube-dns only's, each stack's counters
# counting. No timing is asserted.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib/assert.sh"
BUILD=$(cd "${1:?usage: cluster_bench_test.sh BUILD_DIR}" && pwd)

missing=
command -v unbound > /dev/null || missing+=" unbound"
for probe in gai-probe-glibc gai-probe-musl-static go-probe; do
	[[ -x $BUILD/tests/$probe ]] || missing+=" $probe"
done
if [[ $missing ]]; then
	skip "cluster bench harness: no$missing (mk/packages.sh, make)"
	summary
	exit
fi

NODES=2 PODS=4 LOOKUPS=8
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
BENCH_NODES=$NODES BENCH_PODS=$PODS BENCH_LOOKUPS=$LOOKUPS BENCH_INTERVAL_MS=50 BENCH_DOWN_MS=200 \
	BENCH_OUT=$out/cluster.json "$here/cluster_bench.sh" "$BUILD" > "$out/table" 2>&1
check "the harness ran" 0 $? "$(cat "$out/table")"
[[ -s $out/cluster.json ]] || { summary; exit; }
# q EXPR: the Python expression EXPR of the figures (j), as JSON.
q() {
	/usr/bin/python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2])))' \
		"$out/cluster.json" "$1"
}

fields='cluster_dns_qps upstream_qps lookups_per_s p50_ms p99_ms p999_ms errors cache_cpu_s cache_rss_mib'
for stack in kube-dns nodelocal ours ours+schema ours+rfc8020 ours+cuts; do
	for f in $fields; do
		check "$stack has $f" true "$(q "'$f' in j['$stack']")"
	done
	check "$stack: every pod's lookups counted" $((NODES * PODS * LOOKUPS)) "$(q "j['$stack']['lookups']")"
	check "$stack: every answer kube-dns only's" 0 "$(q "j['$stack']['errors']")" \
		"$(cat "$out/cluster.errors")"
	check "$stack: queries reached cluster DNS and the upstream" true \
		"$(q "j['$stack']['cluster_dns_queries'] > 0 and j['$stack']['upstream_queries'] > 0")"
	check "$stack: every client's lookups timed" true \
		"$(q "all(v > 0 for v in j['$stack']['p99_ms_by_client'].values())")"
done
for stack in nodelocal ours; do
	check "$stack: the caches' CPU and RSS read" true \
		"$(q "j['$stack']['cache_cpu_s'] > 0 and j['$stack']['cache_rss_mib'] > 0")"
	check "$stack: the killed node's lookups counted" $((PODS * LOOKUPS)) \
		"$(q "j['cache_killed']['$stack']['node_lookups']")"
	check "$stack: the other nodes' answers kube-dns only's while one cache was down" true \
		"$(q "(lambda k: k['errors_all_nodes'] == k['failed'] + k['wrong'])(j['cache_killed']['$stack'])")" \
		"$(cat "$out/cluster.errors")"
done
check "kube-dns only: no cache" 0 "$(q "j['kube-dns']['cache_rss_mib']")"
check_match "the table has every stack" 'kube-dns only.*NodeLocal.*ours' "$(cat "$out/cluster.md")"
check_match "and every cut" 'ours.*schema cut.*RFC 8020 cut.*both' "$(cat "$out/cluster.md")"
summary
