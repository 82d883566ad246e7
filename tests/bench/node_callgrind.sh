#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# node_callgrind.sh BUILD_DIR: the instructions the node cache runs per
# cache hit (issue 58), counted by callgrind in the node sandbox
# (tests/node/lib.sh: the cluster DNS replicas and the external upstream
# behind the cache at 169.254.20.10, query log off). Each round runs the
# cache under callgrind twice, warms it with one pass of the mix, then
# sends SHORT and LONG passes of it (dnsperf, one client, 20 in flight): the
# difference between the two runs' counts over the difference between their
# queries is what a hit costs, start-up and shutdown cancelling out. Writes
# BUILD_DIR/bench-node-callgrind.md: the median of ROUNDS rounds, and by
# function (the last round's; callgrind counts the same each time, give or
# take a few instructions a query). Reports; asserts nothing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../node/lib.sh"
source "$here/lib.sh"

ROUNDS=${BENCH_ROUNDS:-3}
SHORT=${BENCH_SHORT:-2} LONG=${BENCH_LONG:-12}  # passes of the mix
OUT=$BUILD/bench-node-callgrind.md
cluster_dns 53
cluster_dns 55
external_dns
node_config "$WORK/cache.yaml" 169.254.20.10
# The cache-hit mix: a cluster name (forwarded to cluster DNS) and an
# external one, 200 of each per pass.
for _ in $(seq 200); do echo "web.shop.svc.cluster.local A"; echo "www.example.com A"; done > "$WORK/hits"

# run PASSES: the callgrind output in $WORK/cg.PASSES; prints the queries answered.
run() {
	valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.$1" "$SERVER" --config "$WORK/cache.yaml" \
		2> "$WORK/valgrind.$1" &
	local pid=$!
	poll 60 dig @169.254.20.10 +time=1 +tries=1 web.shop.svc.cluster.local > /dev/null
	dnsperf -s 169.254.20.10 -d "$WORK/hits" -n 1 > /dev/null
	dnsperf -s 169.254.20.10 -d "$WORK/hits" -n "$1" -c 1 -q 20 | awk '/Queries completed/ { print $3 }'
	kill -TERM $pid
	wait $pid
}

totals=()
for _ in $(seq "$ROUNDS"); do
	short=$(run "$SHORT")
	long=$(run "$LONG")
	"$here/callgrind_hits.py" "$WORK/cg.$SHORT" "$WORK/cg.$LONG" $((long - short)) > "$WORK/round"
	totals+=("$(awk '/^total/ { print $2 }' "$WORK/round")")
done
{
	echo "# Instructions per cache hit (callgrind)"
	echo
	echo "$(machine). $ROUNDS rounds of $SHORT against $LONG passes of $(wc -l < "$WORK/hits") queries" \
		"(dnsperf -c 1 -q 20); each round's figure: ${totals[*]}."
	echo
	echo "**$(printf '%s\n' "${totals[@]}" | median) instructions per hit** (user space: the server's" \
		"threads, libevent and the libc; the kernel's share is not counted)."
	echo
	grep -v '^total' "$WORK/round"
} > "$OUT"
cat "$OUT"
