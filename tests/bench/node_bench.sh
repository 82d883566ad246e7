#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# node_bench.sh BUILD_DIR: the node-local cache against unbound and CoreDNS,
# the way NodeLocal DNSCache runs them (issues 11, 55). Prints a Markdown table and writes it
# to BUILD_DIR/bench-node.md. Reports; asserts nothing.
#
# One sandbox (tests/pod/sandbox.sh: loopback only) is the node:
#   127.0.0.53  cluster DNS: resolv-k8s-server, tests/fixtures/cluster.json and
#               the upstream's zones (it chases an ExternalName into them, as
#               CoreDNS through its forward), --delay-ms 2
#   127.0.0.54  upstream: resolv-k8s-server, the zone fixtures and a root with
#               an SOA (root.zone: NXDOMAIN as a recursive resolver sends it),
#               --delay-ms 20
#   127.0.0.10  ours: resolv-k8s-server --config (cluster.local, in-addr.arpa,
#               ip6.arpa to cluster DNS over TCP, the rest to the upstream over
#               UDP; positiveTTL 30s, negativeTTL 5s; default capacity)
#   127.0.0.11  unbound -d, the same forward zones and caps (cache-max-ttl 30,
#               cache-max-negative-ttl 5), num-threads 2, no validation and
#               answers in the order received (as CoreDNS), private reverse
#               zones forwarded, other keys default (bench/lib.sh)
#   127.0.0.12  CoreDNS (BUILD/bin/coredns) with NodeLocal DNSCache's own
#               Corefile (bench/lib.sh): the first table's third column
#   127.0.0.60  a DoT server (unbound, tls-service-key) in front of the
#               stand-ins, for the misses over TLS (BENCH_ONLY=tls: those alone)
# Both stand-ins keep a query log: what reaches them is counted per lookup.
# A pod is a process in its own mount namespace whose /etc/resolv.conf names
# one cache (ndots:5, shop's four search domains, as bench.sh): glibc's
# gai-probe through unbound and CoreDNS against the same with the shim through
# ours. Rounds take turns between them; medians of RUNS rounds are reported.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../pod/lib.sh"
source "$here/lib.sh"
source "$here/../lib/dot.sh"

if [[ ${1:-} != --inside ]]; then
	for tool in unbound dnsperf curl openssl nft; do
		command -v $tool > /dev/null || { echo "node_bench: no $tool (mk/packages.sh)" >&2; exit 1; }
	done
	[[ ${BENCH_ONLY:-} == tls || -x $1/bin/coredns ]] || { echo "node_bench: no $1/bin/coredns (make bench-node)" >&2; exit 1; }
	# shellcheck disable=SC2034 # pod_init's: no pod looks up in that section
	[[ ${BENCH_ONLY:-} == tls ]] && POD_SHIM=
	pod_init "${1:?usage: node_bench.sh BUILD_DIR}"
	BUILD=$(cd "$1" && pwd)
	MACHINE=$(machine)  # the load before the run
	export BUILD WORK PROBE SHIM POD_SERVER MACHINE BENCH_ONLY
	echo 'nameserver 127.0.0.10' > "$WORK/node.conf"  # not the host's, should anything read it
	"$POD_ROOT/tests/pod/sandbox.sh" --resolv "$WORK/node.conf" --hosts "$WORK/hosts" \
		--nsswitch "$WORK/nsswitch.conf" -- "$0" --inside
	exit
fi

RUNS=${BENCH_RUNS:-5}             # rounds, median taken
WARM_N=${BENCH_WARM_N:-20}        # warm passes: each name looked up WARM_N times
PROCS=${BENCH_PROCS:-4}           # pods looking up in parallel (lookups/s)
PROC_N=${BENCH_PROC_N:-50}        # ... each name PROC_N times per pod
QPS_SECONDS=${BENCH_QPS_SECONDS:-2}  # dnsperf -l, per round
FILL=${BENCH_FILL:-12000}         # distinct names to fill our cache
CLUSTER=127.0.0.53 UPSTREAM=127.0.0.54
declare -A addr=([ours]=127.0.0.10 [unbound]=127.0.0.11 [coredns]=127.0.0.12) pid=()
F=$POD_ROOT/tests/fixtures

cat > "$WORK/ours.yaml" <<END
listen: ["${addr[ours]}:53"]
metrics: "${addr[ours]}:9253"
cache: {positiveTTL: 30s, negativeTTL: 5s}
servers:
  - name: cluster
    zones: [cluster.local, in-addr.arpa, ip6.arpa]
    forwardPlugin: {upstreams: ["$CLUSTER"], protocolStrategy: TCP}
upstreamResolvers:
  upstreams: [{type: Network, address: $UPSTREAM}]
autopath: {hostSearch: [${SEARCH##* }]}
END
unbound_nodelocal_conf "${addr[unbound]}" "$WORK/unbound.pid" "$CLUSTER" "$UPSTREAM" > "$WORK/unbound.conf"
nodelocal_corefile "${addr[coredns]}" "$CLUSTER" "$UPSTREAM" > "$WORK/Corefile"
for c in ours unbound coredns; do pod_conf "${addr[$c]}" > "$WORK/$c.resolv.conf"; done

# serve NAME CMD...: CMD in the background, its stderr in WORK/NAME.err, once
# it says it is serving.
serve() {
	local name=$1 tries=0
	shift
	"$@" 2> "$WORK/$name.err" &
	pid[$name]=$!
	until grep -qsE 'listening|start of service|^CoreDNS-' "$WORK/$name.err"; do
		if ! kill -0 "${pid[$name]}" 2>/dev/null || ((++tries > 200)); then
			echo "node_bench: $name did not start:" >&2
			cat "$WORK/$name.err" >&2
			exit 1
		fi
		sleep 0.05
	done
}

# restart CACHE [VARIANT]: the cache, empty (with its VARIANT config).
restart() {
	if [[ ${pid[$1]:-} ]]; then
		kill -KILL "${pid[$1]}"
		wait "${pid[$1]}" 2>/dev/null
	fi
	case $1 in
	ours) serve ours "$POD_SERVER" --config "$WORK/ours${2:+-$2}.yaml" ;;
	unbound) serve unbound unbound -d -c "$WORK/unbound${2:+-$2}.conf" ;;
	# shellcheck disable=SC2016 # the inner shell's; its banner to stderr
	coredns) serve coredns sh -c 'exec "$0" -conf "$1" >&2' "$BUILD/bin/coredns" "$WORK/Corefile" ;;
	esac
}

# pod CACHE CMD...: CMD in a pod whose nameserver is CACHE (ours-relay,
# unbound-relay: the relay in front of it); the shim is preloaded for ours,
# not for unbound or CoreDNS.
pod() {
	local preload=
	[[ $1 == ours* ]] && preload=$SHIM
	# shellcheck disable=SC2016 # $1 and $@ are the inner shell's
	unshare --mount --propagation private bash -c 'mount --bind -o ro "$1" /etc/resolv.conf && shift && exec "$@"' \
		pod "$WORK/$1.resolv.conf" env ${preload:+LD_PRELOAD=$preload} "${@:2}"
}

# stand_in_queries: "CLUSTER UPSTREAM", the queries each stand-in has answered
# so far (a reply in flight gets its line after the delay: waits for it),
# but our cache's loop probes (HINFO, loop_guard.h), which no lookup asks.
stand_in_queries() {
	sleep 0.1
	echo "$(grep -vc ' HINFO ' "$WORK/cluster.log") $(grep -vc ' HINFO ' "$WORK/upstream.log")"
}

# timed_probe CACHE ARGS...: gai-probe -T's microseconds (its stderr), in a
# pod of CACHE.
# shellcheck disable=SC2069 # stderr alone
timed_probe() { pod "$1" "$PROBE" -T "${@:2}" 2>&1 > /dev/null; }

EXTERNAL=(--zone "$F/example.com.zone" --zone "$F/corp.example.zone" --zone "$POD_ROOT/tests/pod/fixtures/example.org.zone")
serve cluster "$POD_SERVER" --listen $CLUSTER:53 --cluster "$F/cluster.json" "${EXTERNAL[@]}" --autopath off \
	--delay-ms 2 --query-log "$WORK/cluster.log"
serve upstream "$POD_SERVER" --listen $UPSTREAM:53 --zone "$here/root.zone" "${EXTERNAL[@]}" \
	--autopath off --delay-ms 20 --query-log "$WORK/upstream.log"

# The names that hit the cache for dnsperf: each answer the name mix's
# lookups end on, A and AAAA.
for n in {web,db,queue}.shop.svc.cluster.local {kubernetes.default,kube-dns.kube-system}.svc.cluster.local \
	www.example.com example.org b.three.example.org; do
	printf '%s A\n%s AAAA\n' "$n" "$n"
done > "$WORK/hits"
seq -f "n%g.wild.example.com A" "$FILL" > "$WORK/fill"

# Each measure of each round goes to raw["MEASURE CACHE"]; med: its median.
declare -A raw
add() { raw["$1 $2"]+="$3 "; }
med() { tr ' ' '\n' <<<"${raw["$1 $2"]}" | grep . | median; }
nano_ms() { printf '%.3f' "$(bc <<<"scale=4; $1 / 1000000")"; }
ms() { nano_ms "$(med "$1" "$2")"; }
ns_us() { printf '%.2f' "$(bc <<<"scale=4; $(med "$1" "$2") / 1000")"; }

# cpu_ticks PID: the user and system time the process has used, in clock ticks.
TICKS=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# DNS over TLS to the upstream (issue 44): TLS_N distinct misses (the
# upstream's wildcard) with TLS_INFLIGHT in flight (dnsperf -q), through each
# cache forwarding all but the cluster's zones over TLS to one DoT server on
# DOT (tests/lib/dot.sh: unbound with tls-service-key, in front of the
# stand-ins, as tests/node/tls_test.sh sets it up): ours with
# transportConfig, unbound with forward-tls-upstream: yes; the DoT server and
# the cache restarted before each run, the two caches taking turns. Time:
# dnsperf's run time; connections: the SYNs to port 853 from the cache's
# start (its health probes' too) to the run's end (an nftables counter, the
# same for both); CPU: the cache's user and system
# time over the run. BENCH_ONLY=tls runs this section alone.
TLS_N=${BENCH_TLS_N:-2000} TLS_INFLIGHT=${BENCH_TLS_INFLIGHT:-50} DOT=127.0.0.60
mkdir "$WORK/dot"
dot_certs "$WORK/dot" || exit 1
dot_unbound_conf "$WORK/dot" dot good $DOT
printf 'forward-zone:\n  name: "%s"\n  forward-addr: %s\n' cluster.local. $CLUSTER . $UPSTREAM >> "$WORK/dot/dot.conf"
sed "s|^  upstreams: \[{type: Network, address: $UPSTREAM}\]\$|  upstreams: [{type: Network, address: $DOT}]\n  transportConfig: {transport: TLS, tls: {serverName: dns.test, caBundle: $WORK/dot/ca.pem}}|" \
	"$WORK/ours.yaml" > "$WORK/ours-tls.yaml"
sed "s|^server:\$|server:\n  tls-cert-bundle: \"$WORK/dot/ca.pem\"|; s|^  forward-addr: $UPSTREAM\$|  forward-addr: $DOT@853#dns.test\n  forward-tls-upstream: yes|" \
	"$WORK/unbound.conf" > "$WORK/unbound-tls.conf"
seq -f "t%g.wild.example.com A" "$TLS_N" > "$WORK/tls-misses"
nft -f - <<END
table inet bench {
	counter dot_syn {}
	chain output { type filter hook output priority 0; tcp dport 853 tcp flags & (syn | ack) == syn counter name dot_syn; }
}
END
dot_syns() { nft list counter inet bench dot_syn | sed -n 's/.*packets \([0-9]*\).*/\1/p'; }
# restart_dot: the DoT server, empty, once it says it serves.
restart_dot() {
	if [[ ${pid[dot]:-} ]]; then
		kill "${pid[dot]}"
		wait "${pid[dot]}" 2>/dev/null
	fi
	: > "$WORK/dot/dot.log"
	unbound -d -c "$WORK/dot/dot.conf" 2> "$WORK/dot/dot.err" &
	pid[dot]=$!
	for ((tries = 0; tries < 200; tries++)); do
		grep -qs 'start of service' "$WORK/dot/dot.log" && return
		sleep 0.05
	done
	echo "node_bench: the DoT server did not start:" >&2
	cat "$WORK/dot/dot.err" "$WORK/dot/dot.log" >&2
	exit 1
}
for ((r = 0; r < RUNS; r++)); do
	[[ ${BENCH_ONLY:-} == floor ]] && break
	for c in ours unbound; do
		restart_dot
		s0=$(dot_syns)
		restart "$c" tls
		t0=$(cpu_ticks "${pid[$c]}")
		dnsperf -s "${addr[$c]}" -d "$WORK/tls-misses" -n 1 -c 1 -q "$TLS_INFLIGHT" -t 5 > "$WORK/tls.$c.out" 2>&1
		add tls_cpu $c $((($(cpu_ticks "${pid[$c]}") - t0) * 1000 / TICKS))
		add tls_conns $c $(($(dot_syns) - s0))
		read -r secs answered <<<"$(awk '/Run time \(s\)/ { t = $4 } /Queries completed/ { n = $3 } END { print t, n }' "$WORK/tls.$c.out")"
		add tls_ms $c "$(bc <<<"$secs * 1000 / 1")"
		add tls_answered $c "$answered"
	done
done
if [[ ${pid[dot]:-} ]]; then
	kill "${pid[dot]}"
	wait "${pid[dot]}" 2>/dev/null
fi
# tls_table: the section's table of the report.
tls_table() {
	row measure ours unbound ratio target
	row --- --- --- --- ---
	row "$TLS_N distinct misses over TLS, $TLS_INFLIGHT in flight: ms (answered)" \
		"$(med tls_ms ours) ($(med tls_answered ours))" "$(med tls_ms unbound) ($(med tls_answered unbound))" \
		"$(ratio "$(med tls_ms unbound)" "$(med tls_ms ours)")x" "unbound / ours >= 1"
	row "... TLS connections opened to the DoT server" "$(med tls_conns ours)" "$(med tls_conns unbound)" \
		"$(ratio "$(med tls_conns ours)" "$(med tls_conns unbound)")" "ours <= 20"
	row "... CPU time of the cache (ms)" "$(med tls_cpu ours)" "$(med tls_cpu unbound)" \
		"$(ratio "$(med tls_cpu unbound)" "$(med tls_cpu ours)")x less" -
}
tls_note="- Over TLS: $TLS_N distinct names of the upstream's wildcard (tN.wild.example.com A), dnsperf -c 1 -q $TLS_INFLIGHT, each cache and the DoT server (unbound with tls-service-key on $DOT, one thread, forwarding to the stand-ins) restarted before each run; ours with upstreamResolvers over TLS (transportConfig), unbound with forward-tls-upstream: yes and tls-cert-bundle; connections: SYNs to port 853 from the cache's start to the run's end (nftables); CPU: the cache's user and system time during the run."
if [[ ${BENCH_ONLY:-} == tls ]]; then
	{
		echo "$MACHINE at the start; tree $(git -C "$POD_ROOT" describe --always --dirty 2>/dev/null). Medians of $RUNS rounds, the two caches taking turns."
		echo
		tls_table
		echo
		echo "$tls_note"
	} | tee "$BUILD/bench-node-tls.md"
	exit
fi

# The warm pass's floor: the queries it sends, recorded once through a
# relay (rtt-probe relay, RELAY) in front of the cache, then replayed bare
# (rtt-probe replay): the same exchanges from a minimal client, each on a
# socket of its own as the resolvers open them (bare_ns), and all on one
# socket (kept_ns); what the lookups take beyond the first is the
# resolver's own time (own_ns). Ours, one exchange a warm lookup, also
# with the system calls glibc's getaddrinfo makes around its exchanges
# (libc_ns): what is left beyond them is the library's alone (lib_ns).
RTT=$BUILD/tests/rtt-probe RELAY=127.0.0.57
for c in ours unbound coredns; do pod_conf $RELAY > "$WORK/$c-relay.resolv.conf"; done
# record_queries CACHE: WORK/CACHE.queries, the queries of a warm pass.
record_queries() {
	serve relay "$RTT" relay $RELAY "${addr[$1]}" "$WORK/$1.queries"
	pod "$1-relay" "$PROBE" -n "$WARM_N" "${NODE_NAMES[@]}" > /dev/null
	kill "${pid[relay]}"
	wait "${pid[relay]}" 2>/dev/null
}

# per N LOOKUPS: N / LOOKUPS to 2 decimals.
per() { printf '%.2f' "$(bc <<<"scale=4; $1 / $2")"; }

# count MEASURE CACHE BEFORE: adds the queries each stand-in answered since
# BEFORE (stand_in_queries's output) to MEASURE_cluster and MEASURE_upstream.
count() {
	local c0 u0 c1 u1
	read -r c0 u0 <<<"$3"
	read -r c1 u1 <<<"$(stand_in_queries)"
	add "$1_cluster" "$2" $((c1 - c0))
	add "$1_upstream" "$2" $((u1 - u0))
}

# The pods' mix and payments, an ExternalName Service whose target cluster
# DNS chases, as CoreDNS does through its own forward (the stand-in holds
# the upstream's zones: its CNAME and the target's A come in one reply).
NODE_NAMES=("${NAMES[@]}" payments)
lookups=${#NODE_NAMES[@]}

# pods_lps CACHE: lookups per second of PROCS pods looking every name up
# PROC_N times, timed from a signal they all wait for once started (a pod
# takes some 15 ms to start: not the cache's time).
pods_lps() {
	local go=$WORK/go ready=$WORK/ready p start pods=()
	rm -f "$go"
	mkfifo "$go"
	: > "$ready"
	for ((p = 0; p < PROCS; p++)); do
		# Opened read-write, the FIFO never blocks the open; each pod reads one line.
		# shellcheck disable=SC2016 # the inner shell's
		pod "$1" bash -c 'exec 3<> "$0"; echo >> "$1"; read -r -t 60 -u 3 && exec "${@:2}"' "$go" "$ready" \
			"$PROBE" -n "$PROC_N" "${NODE_NAMES[@]}" > /dev/null &
		pods+=($!)
	done
	until (($(wc -l < "$ready") == PROCS)); do sleep 0.01; done
	start=$(date +%s%N)
	printf '%*s' "$PROCS" '' | tr ' ' '\n' > "$go"
	wait "${pods[@]}"
	echo $((PROCS * PROC_N * lookups * 1000000000 / ($(date +%s%N) - start)))
}


differ=  # rounds whose answers differed from unbound's
for ((r = 0; r < RUNS; r++)); do
	for c in ours unbound coredns; do
		restart "$c"
		before=$(stand_in_queries)
		us=0 i=0
		while read -r lap; do
			add "cold_ns ${NODE_NAMES[i++]}" $c $((lap * 1000))
			us=$((us + lap))
		done < <(timed_probe "$c" -L "${NODE_NAMES[@]}")
		add cold_ns $c $((us * 1000 / lookups))
		count cold $c "$before"

		pod "$c" "$PROBE" "${NODE_NAMES[@]}" > "$WORK/answers.$c"
		before=$(stand_in_queries)
		us=$(timed_probe "$c" -n "$WARM_N" "${NODE_NAMES[@]}")
		add warm_ns $c $((us * 1000 / lookups / WARM_N))
		count warm $c "$before"
		[[ -s $WORK/$c.queries ]] || record_queries "$c"
		bare=$("$RTT" replay "${addr[$c]}" "$WORK/$c.queries")
		add bare_ns $c $((bare * 1000 / lookups / WARM_N))
		add own_ns $c $(((us - bare) * 1000 / lookups / WARM_N))
		add kept_ns $c $(($("$RTT" replay -k "${addr[$c]}" "$WORK/$c.queries") * 1000 / lookups / WARM_N))
		if [[ $c == ours ]]; then
			libc=$("$RTT" replay -l "${addr[$c]}" "$WORK/$c.queries")
			add libc_ns $c $((libc * 1000 / lookups / WARM_N))
			add lib_ns $c $(((us - libc) * 1000 / lookups / WARM_N))
		fi

		[[ ${BENCH_ONLY:-} == floor ]] && continue
		add lps $c "$(pods_lps "$c")"

		dnsperf -s "${addr[$c]}" -d "$WORK/hits" -n 1 > /dev/null
		t0=$(cpu_ticks "${pid[$c]}")
		read -r qps answered <<<"$(dnsperf -s "${addr[$c]}" -d "$WORK/hits" -l "$QPS_SECONDS" -c 8 |
			awk '/Queries completed/ { n = $3 } /Queries per second/ { q = $4 } END { printf "%d %d", q, n }')"
		add qps $c "$qps"
		add hit_ns $c $((($(cpu_ticks "${pid[$c]}") - t0) * 1000000000 / TICKS / answered))
	done
	for c in ours coredns; do
		diff "$WORK/answers.unbound" "$WORK/answers.$c" > "$WORK/answers.diff" && continue
		differ+="$r ($c) "
		cp "$WORK/answers.diff" "$BUILD/bench-node-answers.diff"
	done
done

# floor_rows, floor_note: the warm pass and its floor, rows and their note.
floor_rows() {
	row "ms per lookup, warm cache" "$(ms warm_ns ours)" "$(ms warm_ns unbound)" "$(ms warm_ns coredns)" \
		"$(ratio "$(med warm_ns unbound)" "$(med warm_ns ours)")x" "unbound / ours >= 5x"
	row "bare UDP round trips per warm lookup, a socket each (µs)" "$(ns_us bare_ns ours)" \
		"$(ns_us bare_ns unbound)" "$(ns_us bare_ns coredns)" "$(ratio "$(med bare_ns unbound)" "$(med bare_ns ours)")x" -
	row "the same on one socket (µs)" "$(ns_us kept_ns ours)" "$(ns_us kept_ns unbound)" "$(ns_us kept_ns coredns)" \
		"$(ratio "$(med kept_ns unbound)" "$(med kept_ns ours)")x" -
	row "the resolver's own time per warm lookup, beyond its round trips (µs)" "$(ns_us own_ns ours)" \
		"$(ns_us own_ns unbound)" "$(ns_us own_ns coredns)" "$(ratio "$(med own_ns unbound)" "$(med own_ns ours)")x" \
		"ours < 10 µs"
	row "ours: the round trips with the system calls glibc's lookups make around them (µs)" \
		"$(ns_us libc_ns ours)" - - - -
	row "ours: the library's own time beyond those (µs)" "$(ns_us lib_ns ours)" - - - -
}
floor_note() {
	echo "- Round trips: the queries of a warm pass (each name $WARM_N times), recorded once through a relay" \
		"in front of the cache, then replayed to it by a minimal client (rtt-probe replay, right after each" \
		"warm pass): the exchanges as the resolver made them (A and AAAA together for glibc, one query for" \
		"the shim), each on a new connected UDP socket (as both resolvers open them), or all on one socket;" \
		"per lookup. The resolver's own time: the warm pass's time less the first replay's, per lookup, in" \
		"the same round (for unbound, glibc's, over the exchanges of its walk). With glibc's system calls:" \
		"each exchange also stats resolv.conf and nsswitch.conf, reads /etc/hosts and, with more than one" \
		"address in its replies, probes their routes as glibc's sort does (rtt-probe replay -l); the shim's" \
		"warm lookup is one exchange, so that is the system calls of its lookup as glibc would make them."
}
if [[ ${BENCH_ONLY:-} == floor ]]; then
	{
		echo "$MACHINE at the start; tree $(git -C "$POD_ROOT" describe --always --dirty 2>/dev/null)." \
			"Pods: $lookups names, ndots:5, 4 search domains, AF_UNSPEC. Medians of $RUNS rounds."
		echo
		row measure "ours (shim, autopath)" "unbound (glibc)" "CoreDNS (glibc)" "unbound / ours" target
		row --- --- --- --- --- ---
		floor_rows
		echo
		echo "- ms per lookup: gai-probe-glibc -T in a pod (with LD_PRELOAD of the shim for ours), one pass" \
			"over the names, then each name $WARM_N times."
		floor_note
	} | tee "$BUILD/bench-node-floor.md"
	exit
fi

# The marker path: each client the shim never touches, with the classic
# list (ours.resolv.conf) and with the marker first (the classic list kept
# after it); queries from the pod to the cache per lookup, the cache warm,
# and queries reaching cluster DNS and the upstream per lookup, cold. Last,
# res_search through the shim, which sends the option either way.
MARKER_CLIENTS=(glibc musl go c-ares dnspython ruby res_search res_search+shim)
declare -A client=(
	[glibc]="$PROBE" [musl]="$BUILD/tests/gai-probe-musl" [go]="$BUILD/tests/go-probe"
	[c-ares]="$BUILD/tests/ares-probe"
	[dnspython]="/usr/bin/python3 $POD_ROOT/tests/node/clients/dnspython_probe.py"
	[ruby]="ruby $POD_ROOT/tests/node/clients/ruby_probe.rb" [res_search]="$BUILD/tests/res-probe"
	[res_search+shim]="env LD_PRELOAD=$SHIM $BUILD/tests/res-probe"
)
{
	echo "nameserver ${addr[ours]}"
	echo "search search.shop.cluster.local.ap.k8s.io $SEARCH"
	echo "options ndots:5"
} > "$WORK/marker.resolv.conf"
cp "$WORK/ours.resolv.conf" "$WORK/classic.resolv.conf"
cache_queries() {
	curl -s "http://${addr[ours]}:9253/metrics" | awk '$1 ~ /^resolv_k8s_queries_total/ { n += $2 } END { print n + 0 }'
}
declare -A mq
for c in "${MARKER_CLIENTS[@]}"; do
	read -ra run <<<"${client[$c]}"
	for conf in classic marker; do
		restart ours
		before=$(stand_in_queries)
		pod "$conf" "${run[@]}" "${NODE_NAMES[@]}" > /dev/null 2>&1
		read -r c0 u0 <<<"$before"
		read -r c1 u1 <<<"$(stand_in_queries)"
		q0=$(cache_queries)
		pod "$conf" "${run[@]}" "${NODE_NAMES[@]}" > /dev/null 2>&1
		mq[$c $conf pod]=$(per $(($(cache_queries) - q0)) "$lookups")
		mq[$c $conf up]=$(per $((c1 - c0 + u1 - u0)) "$lookups")
	done
done

# The tail across TTL expiry: TAIL_NAMES names of the upstream's wildcard,
# each asked TAIL_RATE times a second for TAIL_SECONDS (tail_probe.py), both
# caches capping answers at each of TAIL_TTLS s (5: Kubernetes' own for
# every Service; 4; 10): ours prefetching (its default), unbound with
# prefetch: yes (it refreshes in the last tenth of a TTL, in whole seconds).
TAIL_NAMES=${BENCH_TAIL_NAMES:-300} TAIL_RATE=2 TAIL_SECONDS=${BENCH_TAIL_SECONDS:-25}
TAIL_TTLS=${BENCH_TAIL_TTLS:-5 4 10}
declare -A tail
for ttl in $TAIL_TTLS; do
	sed "s/positiveTTL: 30s/positiveTTL: ${ttl}s/" "$WORK/ours.yaml" > "$WORK/ours-tail.yaml"
	sed "s/cache-max-ttl: 30/cache-max-ttl: $ttl\n  prefetch: yes/" "$WORK/unbound.conf" > "$WORK/unbound-tail.conf"
	for c in ours unbound; do
		restart "$c" tail
		before=$(stand_in_queries)
		tail[$c $ttl]=$(python3 "$here/tail_probe.py" "${addr[$c]}" "$TAIL_NAMES" "$TAIL_RATE" "$TAIL_SECONDS")
		read -r c0 u0 <<<"$before"
		read -r c1 u1 <<<"$(stand_in_queries)"
		tail[$c $ttl up]=$((c1 - c0 + u1 - u0))
	done
done

# Behind a cluster DNS that leaves Nagle on (NAGLE: the stand-in with
# --tcp-nodelay off, as dnsmasq's kube-dns): each name of the mix alone,
# cold (each cache restarted before it, then its connection to cluster DNS
# in use for 20 other questions, as a node's is: a new connection ACKs at
# once, a busy one delays its ACKs), RUNS times; medians per name.
NAGLE=127.0.0.56
serve nagle "$POD_SERVER" --listen $NAGLE:53 --cluster "$F/cluster.json" "${EXTERNAL[@]}" --autopath off \
	--delay-ms 2 --tcp-nodelay off --query-log "$WORK/nagle.log"
seq -f "busy%g.default.svc.cluster.local A" 20 > "$WORK/busy"
sed "s/\"$CLUSTER\"/\"$NAGLE\"/" "$WORK/ours.yaml" > "$WORK/ours-nagle.yaml"
sed "s/forward-addr: $CLUSTER\$/forward-addr: $NAGLE/" "$WORK/unbound.conf" > "$WORK/unbound-nagle.conf"
for ((r = 0; r < RUNS; r++)); do
	for name in "${NODE_NAMES[@]}"; do
		for c in ours unbound; do
			restart "$c" nagle
			dnsperf -s "${addr[$c]}" -d "$WORK/busy" -n 1 -c 1 -q 1 > /dev/null
			us=$(timed_probe "$c" "$name")
			add "nagle_ns $name" $c $((us * 1000))
		done
	done
done

# The cold pass against its floor, name by name (the laps of the cold
# passes above). A name's floor is the sum of the round trips its classic
# walk needs, in order, read from the stand-ins' logs of unbound's lookup
# of it alone (glibc's walk through it, unbound restarted): each distinct
# name asked of cluster DNS 2 ms, of the upstream 20 ms (a candidate's A
# and AAAA go together).
# asked FILE FROM: distinct names in FILE's lines after line FROM, loop probes aside.
asked() { tail -n +$(($2 + 1)) "$1" | grep -v ' HINFO ' | awk '{ print tolower($2) }' | sort -u | wc -l; }
declare -A floor
for name in "${NODE_NAMES[@]}"; do
	restart unbound
	l0=$(wc -l < "$WORK/cluster.log") m0=$(wc -l < "$WORK/upstream.log")
	pod unbound "$PROBE" "$name" > /dev/null
	sleep 0.1
	floor[$name]=$((($(asked "$WORK/cluster.log" "$l0") * 2 + $(asked "$WORK/upstream.log" "$m0") * 20) * 1000000))
done

# RSS with the cache full: FILL distinct names of example.com's wildcard.
declare -A rss
for c in ours unbound coredns; do
	restart "$c"
	dnsperf -s "${addr[$c]}" -d "$WORK/fill" -n 1 -c 8 -q 500 > "$WORK/fill.$c.out"
	rss[$c]=$(awk '/VmRSS/ { print $2 }' "/proc/${pid[$c]}/status")
done
entries=$(curl -s "http://${addr[ours]}:9253/metrics" | awk '$1 == "resolv_k8s_cache_entries" { print $2 }')

# per_lookup MEASURE CACHE N: "TOTAL (CLUSTER + UPSTREAM)" queries per lookup
# of N lookups.
per_lookup() {
	local cl up
	cl=$(med "$1_cluster" "$2") up=$(med "$1_upstream" "$2")
	printf '%s (%s + %s)' "$(per $((cl + up)) "$3")" "$(per "$cl" "$3")" "$(per "$up" "$3")"
}
queries() { echo $(($(med "$1_cluster" "$2") + $(med "$1_upstream" "$2"))); }
mib() { printf '%.1f MiB' "$(bc <<<"scale=2; $1 / 1024")"; }
{
	echo "$MACHINE at the start; tree $(git -C "$POD_ROOT" describe --always --dirty 2>/dev/null)."
	echo "Node: cluster DNS 2 ms (TCP from the caches), upstream 20 ms (UDP); ours and unbound capped at 30 s" \
		"positive, 5 s negative, 2 threads (ours: a loop per core); CoreDNS $("$BUILD/bin/coredns" -version |
			head -1 | sed 's/^CoreDNS-//') with NodeLocal DNSCache's Corefile (cluster.local: 30 s, denials 5 s;" \
		"the rest: 30 s; GOMAXPROCS the 2 cores). Pods: $lookups names (${NODE_NAMES[*]})," \
		"ndots:5, 4 search domains, AF_UNSPEC. Medians of $RUNS rounds, the three caches taking turns;" \
		"the tables after this one: ours and unbound."
	echo
	row measure "ours (shim, autopath)" "unbound (glibc)" "CoreDNS (glibc)" "unbound / ours" target
	row --- --- --- --- --- ---
	floor_rows
	row "ms per lookup, cold cache" "$(ms cold_ns ours)" "$(ms cold_ns unbound)" "$(ms cold_ns coredns)" \
		"$(ratio "$(med cold_ns unbound)" "$(med cold_ns ours)")x" "unbound / ours >= 1.5x"
	row "queries reaching cluster DNS + upstream per lookup, cold" \
		"$(per_lookup cold ours "$lookups")" "$(per_lookup cold unbound "$lookups")" \
		"$(per_lookup cold coredns "$lookups")" \
		"$(ratio "$(queries cold ours)" "$(queries cold unbound)")" "ours / unbound <= 1.0"
	row "queries reaching cluster DNS + upstream per lookup, warm" \
		"$(per_lookup warm ours $((lookups * WARM_N)))" "$(per_lookup warm unbound $((lookups * WARM_N)))" \
		"$(per_lookup warm coredns $((lookups * WARM_N)))" \
		"$(ratio "$(queries warm ours)" "$(queries warm unbound)")" "ours / unbound <= 1.0"
	row "cache-hit queries/s" "$(med qps ours)" "$(med qps unbound)" "$(med qps coredns)" \
		"$(ratio "$(med qps ours)" "$(med qps unbound)")" "ours / unbound >= 1.5"
	row "CPU time of the cache per hit (µs)" "$(ns_us hit_ns ours)" "$(ns_us hit_ns unbound)" \
		"$(ns_us hit_ns coredns)" "$(ratio "$(med hit_ns unbound)" "$(med hit_ns ours)")x less" -
	row "name-mix lookups/s the node serves, warm" "$(med lps ours)" "$(med lps unbound)" "$(med lps coredns)" \
		"$(ratio "$(med lps ours)" "$(med lps unbound)")x" "ours / unbound >= 5x"
	row "RSS with the cache full" "$(mib "${rss[ours]}") ($entries entries)" "$(mib "${rss[unbound]}")" \
		"$(mib "${rss[coredns]}")" "$(ratio "${rss[ours]}" "${rss[unbound]}")" "ours <= 25 MiB"
	echo
	tls_table
	echo
	for ttl in $TAIL_TTLS; do
		echo "The tail across TTL expiry: $TAIL_NAMES names, each asked $TAIL_RATE times a second for" \
			"$TAIL_SECONDS s, answers kept $ttl s; ours with prefetch (its default), unbound with prefetch: yes:"
		echo
		read -ra o <<<"${tail[ours $ttl]}"  # p50 p99 p999 answered lost
		read -ra u <<<"${tail[unbound $ttl]}"
		row measure ours unbound ratio target
		row --- --- --- --- ---
		row "p50 ms" "${o[0]}" "${u[0]}" "$(ratio "${u[0]}" "${o[0]}")x" -
		row "p99 ms" "${o[1]}" "${u[1]}" "$(ratio "${u[1]}" "${o[1]}")x" "ours <= 2 ms and <= unbound's"
		row "p99.9 ms" "${o[2]}" "${u[2]}" "$(ratio "${u[2]}" "${o[2]}")x" -
		row "queries answered (lost)" "${o[3]} (${o[4]})" "${u[3]} (${u[4]})" - -
		row "queries reaching cluster DNS + upstream" "${tail[ours $ttl up]}" "${tail[unbound $ttl up]}" \
			"$(ratio "${tail[ours $ttl up]}" "${tail[unbound $ttl up]}")" "ours / unbound <= 1.0"
		echo
	done
	echo "The cold pass name by name against its floor, the sum of the round trips the name's classic walk" \
		"needs in order (2 ms to cluster DNS, 20 ms to the upstream, per name asked); ms, medians of $RUNS:"
	echo
	row name floor ours unbound "ours - floor" "unbound - floor"
	row --- --- --- --- --- ---
	sum_floor=0 sum_ours=0 sum_unbound=0
	for name in "${NODE_NAMES[@]}"; do
		f=${floor[$name]} o=$(med "cold_ns $name" ours) u=$(med "cold_ns $name" unbound)
		sum_floor=$((sum_floor + f)) sum_ours=$((sum_ours + o)) sum_unbound=$((sum_unbound + u))
		row "$name" "$(nano_ms "$f")" "$(nano_ms "$o")" "$(nano_ms "$u")" "$(nano_ms $((o - f)))" "$(nano_ms $((u - f)))"
	done
	row "mean" "$(nano_ms $((sum_floor / lookups)))" "$(nano_ms $((sum_ours / lookups)))" \
		"$(nano_ms $((sum_unbound / lookups)))" "$(nano_ms $(((sum_ours - sum_floor) / lookups)))" \
		"$(nano_ms $(((sum_unbound - sum_floor) / lookups)))"
	echo
	echo "Behind a cluster DNS that leaves Nagle on (the stand-in with --tcp-nodelay off), each name cold," \
		"ms per lookup, medians of $RUNS:"
	echo
	row name ours unbound "unbound / ours"
	row --- --- --- ---
	slower=0
	for name in "${NODE_NAMES[@]}"; do
		row "$name" "$(ms "nagle_ns $name" ours)" "$(ms "nagle_ns $name" unbound)" \
			"$(ratio "$(med "nagle_ns $name" unbound)" "$(med "nagle_ns $name" ours)")x"
		(($(med "nagle_ns $name" ours) > $(med "nagle_ns $name" unbound))) && slower=$((slower + 1))
	done
	echo
	echo "Names slower through ours than through unbound: $slower of $lookups (target: none)."
	echo
	echo "The marker path, $lookups names (the mix above), each client's own walk:"
	echo
	row client "pod queries per lookup, classic" "marker first" "upstream queries per lookup (cold), classic" \
		"marker first"
	row --- --- --- --- ---
	for c in "${MARKER_CLIENTS[@]}"; do
		row "$c" "${mq[$c classic pod]}" "${mq[$c marker pod]}" "${mq[$c classic up]}" "${mq[$c marker up]}"
	done
	echo
	if [[ -z $differ ]]; then
		echo "Answers: every lookup's, warm, ours and CoreDNS's, equal to unbound's in every round."
	else
		echo "Answers: DIFFERENT from unbound's in rounds $differ(the last: $BUILD/bench-node-answers.diff)."
	fi
	echo
	echo "- ms per lookup: gai-probe-glibc -T in a pod (with LD_PRELOAD of the shim for ours), the lookups" \
		"alone; warm: one pass over the names, then each name $WARM_N times; cold: one pass over the" \
		"names right after the cache under test was restarted."
	floor_note
	echo "- Queries: lines of the two stand-ins' query logs during those passes, per lookup," \
		"as total (cluster DNS + upstream); \"-\" when unbound's count is 0."
	echo "- Cache-hit queries/s: dnsperf -c 8 -l $QPS_SECONDS, plain queries (A and AAAA) of the answers" \
		"the name mix ends on, right after one pass that caches them. dnsperf runs on the same 2 cores:" \
		"CPU time per hit is the cache's user and system time during that run over the queries it answered."
	echo "- Lookups/s: $PROCS pods in parallel, each looking every name up $PROC_N times (gai-probe -n)," \
		"right after the warm pass; all their lookups over the wall time from a signal the started pods" \
		"wait for to the last exit."
	echo "- RSS: VmRSS of each cache, restarted, after dnsperf asked $FILL distinct names" \
		"(nN.wild.example.com A, answered by the upstream's wildcard); ours at its default capacity," \
		"unbound at its default cache sizes, CoreDNS at NodeLocal DNSCache's (9984 entries each for answers" \
		"and denials, per zone)."
	echo "$tls_note"
	echo "- The upstream stand-in answers a name outside its zone files (NAME.ec2.internal, nosuch.)" \
		"NXDOMAIN with the root's SOA, as a recursive resolver does, so both caches may keep it" \
		"(RFC 2308; without an SOA ours, like CoreDNS's cache, would not)."
} | tee "$BUILD/bench-node.md"
