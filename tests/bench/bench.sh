#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench.sh BUILD_DIR: plain glibc, plain musl, the glibc shim against a server
# without autopath (--autopath off) and with it, all measured in one run, in
# pod sandboxes (ndots:5, 4 search domains). Prints a Markdown table and
# writes it to BUILD_DIR/bench.md. Reports; asserts nothing.
# Times are of the lookups alone, inside the process: gai-probe -T for the
# 20 ms rows; for lookups per second of a first-candidate Service (no delay),
# lookup-bench (Google Benchmark, wall clock), and for musl, which Google
# Benchmark cannot be linked against, gai-probe -T over HITS lookups; the
# median of RUNS rounds.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
source "$(dirname "$0")/lib.sh"
pod_init "${1:?usage: bench.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
STORM=$build/tests/lookup-storm
BENCH=$build/tests/lookup-bench
REPEAT=${BENCH_REPEAT:-5}      # passes over NAMES for the query counts
HITS=${BENCH_HITS:-3000}       # lookups of a first-candidate Service (musl)
RUNS=${BENCH_RUNS:-5}          # rounds of lookups/s measures, median taken
VARIANTS=(glibc musl shim-off autopath)
# The external and missing names (NAMES from the sixth on): glibc tries all 5
# candidates for each, one round trip each, against one for autopath.
WALK=("${NAMES[@]:5}")
# The mix and names costing more than one query before the PAST_NODATA flag
# and BOTH for single candidates: NODATA names (MX only; a namespace), FQDNs,
# names at or above ndots (5 dots).
WIDE=("${NAMES[@]}" mail.example.com shop.svc.cluster.local www.example.com. mail.example.com.
	a.b.c.d.wild.example.com a.b.c.d.e.f)
CONF=$WORK/bench.conf
pod_conf 127.0.0.53 > "$CONF"

# variant V: sets mode (the server's --autopath), cmd (the lookup program)
# and gbench (lookup-bench the same way; none for musl).
variant() {
	case $1 in
	glibc) mode=off cmd=("$PROBE") gbench=("$BENCH") ;;
	musl) mode=off cmd=("$build/tests/gai-probe-musl") gbench=() ;;
	shim-off) mode=off cmd=(env LD_PRELOAD="$SHIM" "$PROBE") gbench=(env LD_PRELOAD="$SHIM" "$BENCH") ;;
	autopath) mode=on cmd=(env LD_PRELOAD="$SHIM" "$PROBE") gbench=(env LD_PRELOAD="$SHIM" "$BENCH") ;;
	musl-autopath) mode=on cmd=(env LD_PRELOAD="$SHIM" "$build/tests/gai-probe-musl")
		gbench=() ;;
	esac
}

# in_pod V [FAULT...] -- CMD...: CMD's output, in a pod serving variant V.
in_pod() {
	variant "$1"
	shift
	pod "$WORK/log" "$mode" "$CONF" "$@"
}

# query_counts V NAME...: "PER_LOOKUP AFTER_THE_FIRST", the queries per
# lookup of REPEAT passes over the names in one process, and the same with
# the first lookup's queries left out.
query_counts() {
	local v=$1 total first all=() i
	shift
	for ((i = 0; i < REPEAT; i++)); do all+=("$@"); done
	variant "$v"
	in_pod "$v" -- "${cmd[@]}" "${all[@]}" > /dev/null
	total=$(wc -l < "$WORK/log")
	in_pod "$v" -- "${cmd[@]}" "$1" > /dev/null
	first=$(wc -l < "$WORK/log")
	echo "$(bc <<<"scale=2; $total / ${#all[@]}") $(bc <<<"scale=2; ($total - $first) / (${#all[@]} - 1)")"
}

declare -A q qafter qwide ms mswalk lps
for v in "${VARIANTS[@]}" musl-autopath; do
	read -r q[$v] qafter[$v] <<<"$(query_counts "$v" "${NAMES[@]}")"
	read -r _ qwide[$v] <<<"$(query_counts "$v" "${WIDE[@]}")"
done
for v in "${VARIANTS[@]}"; do
	variant "$v"
	us=$(in_pod "$v" --delay-ms=20 -- "${cmd[@]}" -T "${NAMES[@]}" 2>&1 > /dev/null)
	ms[$v]=$(bc <<<"scale=1; $us / 1000 / ${#NAMES[@]}")
	us=$(in_pod "$v" --delay-ms=20 -- "${cmd[@]}" -T "${WALK[@]}" 2>&1 > /dev/null)
	mswalk[$v]=$(bc <<<"scale=1; $us / 1000 / ${#WALK[@]}")
done

# Lookups per second: the variants take turns, RUNS rounds, so that a slow
# spell of the shared machine falls on all of them alike.
declare -A runs
for ((r = 0; r < RUNS; r++)); do
	for v in "${VARIANTS[@]}"; do
		variant "$v"
		if ((${#gbench[@]})); then
			x=$(in_pod "$v" -- "${gbench[@]}" --benchmark_format=json web | bench_lps)
		else
			us=$(in_pod "$v" -- "${cmd[@]}" -T -n "$HITS" web 2>&1 > /dev/null)
			x=$((HITS * 1000000 / us))
		fi
		runs[$v]+="$x "
	done
done
for v in "${VARIANTS[@]}"; do lps[$v]=$(tr ' ' '\n' <<<"${runs[$v]}" | grep . | median); done

rss() { pod "$WORK/log" on "$CONF" -- env ${1:+LD_PRELOAD=$1} "$STORM" -m -n 200 www.example.com |
	awk '/VmRSS/ { print $2 }'; }
rss_plain=$(rss "")
rss_shim=$(rss "$SHIM")

load=$(SECONDS_EACH=${BENCH_LOAD_SECONDS:-5} "$POD_ROOT/tests/server/load.sh" "$POD_SERVER" |
	awk '/Queries per second/ { printf "%d\n", $4 }' | tr '\n' ' ')
read -r qps_plain qps_auto <<<"$load"

{
	machine
	echo "Names (${#NAMES[@]}): ${NAMES[*]}; search: 4 domains, ndots:5, AF_UNSPEC"
	echo
	row measure glibc musl "shim, server without autopath" "shim, autopath" "glibc / autopath"
	row --- --- --- --- --- ---
	row "queries per lookup ($REPEAT passes)" "${q[glibc]}" "${q[musl]}" "${q[shim-off]}" "${q[autopath]}" "$(ratio "${q[glibc]}" "${q[autopath]}")"
	row "queries per lookup after the first" "${qafter[glibc]}" "${qafter[musl]}" "${qafter[shim-off]}" "${qafter[autopath]}" "$(ratio "${qafter[glibc]}" "${qafter[autopath]}")"
	row "ms per lookup, server delay 20 ms, all names" "${ms[glibc]}" "${ms[musl]}" "${ms[shim-off]}" "${ms[autopath]}" "$(ratio "${ms[glibc]}" "${ms[autopath]}")x faster"
	row "ms per lookup, server delay 20 ms, names walking the whole list" "${mswalk[glibc]}" "${mswalk[musl]}" "${mswalk[shim-off]}" "${mswalk[autopath]}" "$(ratio "${mswalk[glibc]}" "${mswalk[autopath]}")x faster"
	row "lookups/s, first-candidate Service" "${lps[glibc]}" "${lps[musl]}" "${lps[shim-off]}" "${lps[autopath]}" "$(ratio "${lps[autopath]}" "${lps[glibc]}")x"
	row "RSS after 200 lookups (KiB)" "$rss_plain" - - "$rss_shim" "+$((rss_shim - rss_plain)) KiB"
	row "server queries/s (dnsperf, plain / autopath)" - - "$qps_plain" "$qps_auto" "$(ratio "$qps_auto" "$qps_plain")"
	echo
	row "queries per lookup after the first" glibc "glibc shim, autopath" musl "musl shim, autopath"
	row --- --- --- --- ---
	row "the names above" "${qafter[glibc]}" "${qafter[autopath]}" "${qafter[musl]}" "${qafter[musl-autopath]}"
	row "wider mix: + NODATA names, FQDNs, names at ndots" "${qwide[glibc]}" "${qwide[autopath]}" "${qwide[musl]}" "${qwide[musl-autopath]}"
	echo
	echo "Names walking the whole list: ${WALK[*]}. Wider mix: ${WIDE[*]}."
	echo "Lookups/s of web, one process, no delay: glibc and shim columns, lookup-bench (Google Benchmark," \
		"wall clock); musl, gai-probe-musl -T -n $HITS; median of $RUNS rounds, the variants taking turns."
} | tee "$build/bench.md"
