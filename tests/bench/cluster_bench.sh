#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# cluster_bench.sh BUILD_DIR: a cluster in a box (issue 47), three DNS stacks
# on the same pods and lookups: kube-dns only, NodeLocal DNSCache (unbound
# per node, as node_bench.sh sets it up) and ours (our cache per node, the
# library preloaded where the program allows, the marker path for the rest).
# Writes BENCH_OUT (default BUILD_DIR/bench-cluster.json) and a Markdown
# table beside it (.md). Reports; asserts nothing
# (tests/bench/cluster_bench_test.sh checks the harness).
#
# In one sandbox, BENCH_NODES node namespaces of BENCH_PODS pod namespaces
# each (tests/bench/cluster_net.sh). In namespace cl: cluster DNS, the
# stand-in with the generated cluster (tests/bench/cluster_gen.py) and the
# external zone and root behind it, as a CoreDNS whose cache holds them
# (kube-dns only asks it everything), BENCH_DELAY_MS before each reply (the
# round trip to it); the upstream, the external zone and the root (NXDOMAIN
# with the root's SOA, as a recursive resolver), the same delay. Each pod
# runs one client with kubelet's resolv.conf for its namespace, its seeded
# BENCH_LOOKUPS names one every BENCH_INTERVAL_MS: by pod number, glibc's
# getaddrinfo (gai-probe), musl static (gai-probe-musl-static), Go's own
# resolver (go-probe), Python's socket.getaddrinfo (py_probe.py). Then
# NodeLocal and ours again with node 1's cache killed after half the run
# and started again BENCH_DOWN_MS later. Then ours with each of the
# autopath walk's opt-in cuts and both (ours+schema, ours+rfc8020,
# ours+cuts): what each takes off cluster DNS.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../pod/lib.sh"
source "$here/lib.sh"

if [[ ${1:-} != --inside ]]; then
	pod_init "${1:?usage: cluster_bench.sh BUILD_DIR}"
	BUILD=$(cd "$1" && pwd)
	MACHINE=$(machine)
	export BUILD WORK SHIM POD_SERVER MACHINE
	echo "nameserver 127.0.0.1" > "$WORK/node.conf"
	"$POD_ROOT/tests/pod/sandbox.sh" --resolv "$WORK/node.conf" --hosts "$WORK/hosts" \
		--nsswitch "$WORK/nsswitch.conf" -- "$0" --inside
	exit
fi
source "$here/cluster_net.sh"

NODES=${BENCH_NODES:-20} PODS=${BENCH_PODS:-20} NAMESPACES=${BENCH_NAMESPACES:-20}
LOOKUPS=${BENCH_LOOKUPS:-40} INTERVAL=${BENCH_INTERVAL_MS:-500} SEED=${BENCH_SEED:-1}
DELAY=${BENCH_DELAY_MS:-1} DOWN_MS=${BENCH_DOWN_MS:-1000} OUT=${BENCH_OUT:-$BUILD/bench-cluster.json}
declare -A pid=()

/usr/bin/python3 "$here/cluster_gen.py" "$WORK" "$SEED" "$NAMESPACES" $((NODES * PODS)) "$LOOKUPS"
box_net "$NODES" "$PODS"  # not in a condition, where its set -e would be off
# shellcheck disable=SC2181 # box_net not in a condition, see above
(($? == 0)) || { echo "cluster_bench: the network failed" >&2; exit 1; }

# serve NAME NS CMD...: CMD in namespace NS in the background, its stderr in
# WORK/NAME.err, once it says it is serving.
serve() {
	local name=$1 ns=$2 tries=0
	shift 2
	ip netns exec "$ns" "$@" 2> "$WORK/$name.err" &
	pid[$name]=$!
	until grep -qsE 'listening|start of service' "$WORK/$name.err"; do
		if ! kill -0 "${pid[$name]}" 2>/dev/null || ((++tries > 400)); then
			echo "cluster_bench: $name did not start:" >&2
			cat "$WORK/$name.err" >&2
			exit 1
		fi
		sleep 0.05
	done
}
stop() {
	kill -KILL "${pid[$1]}" 2>/dev/null
	wait "${pid[$1]}" 2>/dev/null
}

ZONES=(--zone "$WORK/example.net.zone" --zone "$here/root.zone")
serve cluster cl "$POD_SERVER" --listen $CLUSTER_DNS:53 --cluster "$WORK/cluster.json" "${ZONES[@]}" \
	--autopath off --delay-ms "$DELAY" --query-log "$WORK/cluster.log"
serve upstream cl "$POD_SERVER" --listen $UPSTREAM:53 "${ZONES[@]}" --autopath off --delay-ms "$DELAY" \
	--query-log "$WORK/upstream.log"

# The node caches' configurations, as node_bench.sh's, on NODE_CACHE;
# unbound open to the pods and, as NodeLocal's CoreDNS (no loadbalance),
# keeping the order of the records it got.
# ours_conf CUTS: ours' configuration, with CUTS in autopath.
ours_conf() {
	cat <<-END
listen: ["$NODE_CACHE:53"]
metrics: "$NODE_CACHE:9253"
cache: {positiveTTL: 30s, negativeTTL: 5s}
servers:
  - name: cluster
    zones: [cluster.local, in-addr.arpa, ip6.arpa]
    forwardPlugin: {upstreams: ["$CLUSTER_DNS"], protocolStrategy: TCP}
upstreamResolvers:
  upstreams: [{type: Network, address: $UPSTREAM}]
autopath: {hostSearch: [ec2.internal]$1}
	END
}
ours_conf "" > "$WORK/ours.yaml"
ours_conf ", clusterDomain: cluster.local, schemaCut: true" > "$WORK/ours+schema.yaml"
ours_conf ", rfc8020Cut: true" > "$WORK/ours+rfc8020.yaml"
ours_conf ", clusterDomain: cluster.local, schemaCut: true, rfc8020Cut: true" > "$WORK/ours+cuts.yaml"
for ((i = 1; i <= NODES; i++)); do
	unbound_nodelocal_conf "$NODE_CACHE" "$WORK/unbound-$i.pid" "$CLUSTER_DNS" "$UPSTREAM" > "$WORK/unbound-$i.conf"
done

# start_cache STACK I: node I's cache of STACK (none for kube-dns).
start_cache() {
	case $1 in
	nodelocal) serve "cache-$2" "$(node_ns "$2")" unbound -d -c "$WORK/unbound-$2.conf" ;;
	ours*) serve "cache-$2" "$(node_ns "$2")" "$POD_SERVER" --config "$WORK/$1.yaml" ;;
	esac
}

# The resolv.conf kubelet writes for a pod of namespace NS with STACK:
# WORK/conf/STACK-NS; ours has the marker first (the webhook's).
mkdir "$WORK/conf"
for ((k = 0; k < NAMESPACES; k++)); do
	ns=$(printf 'ns%02d' $k)
	search="$ns.svc.cluster.local svc.cluster.local cluster.local ec2.internal"
	printf 'search %s\nnameserver %s\noptions ndots:5\n' "$search" $CLUSTER_DNS > "$WORK/conf/kube-dns-$ns"
	printf 'search %s\nnameserver %s\noptions ndots:5\n' "$search" $NODE_CACHE > "$WORK/conf/nodelocal-$ns"
	printf 'search search.%s.cluster.local.ap.k8s.io %s\nnameserver %s\noptions ndots:5\n' "$ns" "$search" \
		$NODE_CACHE > "$WORK/conf/ours-$ns"
done

# client P STACK: pod P's program (by P mod 4), paced; the library
# preloaded for ours where the program is dynamic against glibc.
client() {
	local preload=
	[[ $2 == ours* ]] && preload=$SHIM
	case $(($1 % 4)) in
	0) echo env ${preload:+LD_PRELOAD=$preload} "$BUILD/tests/gai-probe-glibc" -t stream -L -i "$INTERVAL" ;;
	1) echo "$BUILD/tests/gai-probe-musl-static" -t stream -L -i "$INTERVAL" ;;
	2) echo "$BUILD/tests/go-probe" -L -i "$INTERVAL" ;;
	3) echo env ${preload:+LD_PRELOAD=$preload} /usr/bin/python3 "$here/py_probe.py" "$INTERVAL" ;;
	esac
}

# log_lines: "CLUSTER UPSTREAM", the lines of the stand-ins' query logs.
log_lines() { echo "$(wc -l < "$WORK/cluster.log") $(wc -l < "$WORK/upstream.log")"; }

# cache_stat STACK: "PID CPU_TICKS RSS_KIB" of each node cache, a line each.
cache_stat() {
	[[ $1 == kube-dns ]] && return
	local i p
	for ((i = 1; i <= NODES; i++)); do
		p=${pid[cache-$i]}
		echo "$p $(awk '{ print $14 + $15 }' "/proc/$p/stat") $(awk '/VmRSS/ { print $2 }' "/proc/$p/status")"
	done
}

# query_counts LOG FROM: "ALL OUTSIDE CANDIDATES COLD IN_NS IN_SVC
# IN_DOMAIN", counts of the queries in LOG's lines after line FROM, our
# cache's loop probes (HINFO) aside: all; those for names outside the
# cluster's zones (what a CoreDNS forwards, less its cache's hits); those
# for an external name with a search domain after it (a walk's candidate);
# of which those for the wildcard's names, each looked up once (cold); and
# the candidates by search domain: NS.svc.cluster.local (where the DNS
# schema makes NXDOMAIN certain), svc.cluster.local, cluster.local.
query_counts() {
	tail -n +$(($2 + 1)) "$1" | awk '$3 != "HINFO" { q = tolower($2); n++
			if (q !~ /(cluster\.local|\.arpa)\.$/) out++
			if (q ~ /\.example\.net\..+/) {
				cand++
				if (q ~ /\.wild\.example\.net\..+/) cold++
				if (q ~ /\.example\.net\.[^.]+\.svc\.cluster\.local\.$/) in_ns++
				else if (q ~ /\.example\.net\.svc\.cluster\.local\.$/) in_svc++
				else if (q ~ /\.example\.net\.cluster\.local\.$/) in_domain++
			} }
		END { print n + 0, out + 0, cand + 0, cold + 0, in_ns + 0, in_svc + 0, in_domain + 0 }'
}

# run STACK [kill]: every pod's client, all at once, against STACK's
# caches started empty; WORK/run-STACK[-kill]/P.out and P.lat, pod P's
# answers and microseconds, and meta, the run's counters (key value).
# kill: node 1's cache killed after half the run, started again DOWN_MS
# later.
TICKS=$(getconf CLK_TCK)
run() {
	local stack=$1 dir=$WORK/run-$1${2:+-$2} i j p c0 u0 t0 t1 ns all outside candidates cold in_ns in_svc in_domain
	local -a pods=()
	mkdir "$dir"
	for ((i = 1; i <= NODES; i++)); do start_cache "$stack" "$i"; done
	read -r c0 u0 <<<"$(log_lines)"
	cache_stat "$stack" > "$dir/stat0"
	t0=$(date +%s.%N)
	for ((i = 1; i <= NODES; i++)); do
		for ((j = 1; j <= PODS; j++)); do
			p=$(((i - 1) * PODS + j - 1)) ns=$(printf 'ns%02d' $((p % NAMESPACES)))
			# shellcheck disable=SC2016,SC2046 # the inner shell's; client's words
			ip netns exec "$(pod_ns "$i" "$j")" sh -c 'mount --bind -o ro "$0" /etc/resolv.conf && exec "$@"' \
				"$WORK/conf/${stack%+*}-$ns" $(client "$p" "$stack") $(cat "$WORK/seq/$p") > "$dir/$p.out" 2> "$dir/$p.lat" &
			pods+=($!)
		done
	done
	if [[ ${2:-} == kill ]]; then
		sleep "$(bc <<<"scale=3; $LOOKUPS * $INTERVAL / 2000")"
		stop cache-1
		echo "killed $(date +%s.%N)" >> "$dir/meta"
		sleep "$(bc <<<"scale=3; $DOWN_MS / 1000")"
		start_cache "$stack" 1
		echo "started $(date +%s.%N)" >> "$dir/meta"
	fi
	wait "${pods[@]}"
	t1=$(date +%s.%N)
	sleep 0.2  # the replies in flight logged
	cache_stat "$stack" > "$dir/stat1"
	{
		echo "seconds $(bc <<<"$t1 - $t0")"
		read -r all outside candidates cold in_ns in_svc in_domain <<<"$(query_counts "$WORK/cluster.log" "$c0")"
		echo "cluster_queries $all"
		echo "cluster_candidates $candidates"
		echo "cluster_cold_candidates $cold"
		echo "cluster_candidates_in_namespace $in_ns"
		echo "cluster_candidates_in_svc $in_svc"
		echo "cluster_candidates_in_domain $in_domain"
		if [[ $stack == kube-dns ]]; then
			echo "upstream_queries $outside"
		else
			echo "upstream_queries $(query_counts "$WORK/upstream.log" "$u0" | cut -d' ' -f1)"
		fi
		# Each cache's CPU seconds over the run (a restarted one's since its
		# start) and RSS at its end, a line each.
		LC_ALL=C join <(LC_ALL=C sort "$dir/stat0") <(LC_ALL=C sort "$dir/stat1") -a 2 | awk -v t="$TICKS" \
			'{ cpu = NF == 5 ? $4 - $2 : $2; rss = NF == 5 ? $5 : $3; printf "cache %.3f %d\n", cpu / t, rss }'
	} >> "$dir/meta"
	for ((i = 1; i <= NODES; i++)); do [[ ${pid[cache-$i]:-} ]] && stop "cache-$i"; done
}

for stack in kube-dns nodelocal ours; do run $stack; done
for stack in nodelocal ours; do run $stack kill; done
for stack in ours+schema ours+rfc8020 ours+cuts; do run $stack; done
/usr/bin/python3 "$here/cluster_report.py" "$WORK" "$OUT" "$NODES" "$PODS" "$LOOKUPS" "$INTERVAL" "$DELAY" \
	"$DOWN_MS" "$MACHINE" "$(git -C "$POD_ROOT" describe --always --dirty 2>/dev/null)"
