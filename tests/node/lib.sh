# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034,SC2120 # variables and arguments for the sourcing scripts
# The node of the node tests; source it with BUILD_DIR as $1. Outside a
# sandbox it runs the sourcing script again inside one (tests/pod/sandbox.sh,
# /etc/resolv.conf the shop pod's) and exits with its status. Inside, the
# node has loopback and the nodelocaldns interface (169.254.20.10 and .11);
# nothing else is reachable.
#
#   cluster_dns N [FLAG...]       a cluster DNS replica on 127.0.0.N (the sample
#                                 cluster, --delay-ms 2), query log $WORK/dnsN.log
#   external_dns [FLAG...]        the external upstream on 127.0.0.54 (the zones,
#                                 --delay-ms 20), query log $WORK/dns54.log
#   silent_dns ADDR               an upstream on ADDR:53 that never answers
#   node_config FILE ADDR [KEY=VALUE...]  the node's configuration: listen ADDR:53,
#                                 health ADDR:8080, metrics ADDR:9253, the cluster
#                                 zones to .53 then .55 over TCP, the rest to .54;
#                                 top-level keys replaced or added (an empty VALUE
#                                 drops the key)
#   cache_at NAME ADDR [KEY=VALUE...]  a node cache with that configuration in
#                                 $WORK/NAME.yaml, query log $WORK/NAME.log
#   node_start [KEY=VALUE...]     replicas .53 and .55, the external upstream, and
#                                 cache_at cache 169.254.20.10
#   zone FILE ORIGIN RECORD...    a zone file: an SOA (negative TTL 60), the records
#   start NAME CMD...             CMD in the background, stderr in $WORK/NAME.err,
#                                 pid in PID[NAME]; waits until it says "listening"
#   stop NAME                     SIGKILL (its children too: a supervised cache's
#                                 server), and waits for it
#   kube_proxy_node [nftables]    kube-dns on 10.244.0.53 (query log
#                                 $WORK/kubedns.log) behind the ClusterIP KUBE_DNS_IP
#                                 (10.96.0.10 unless the script sets it before
#                                 sourcing this) as kube-proxy's iptables mode DNATs it (or its
#                                 nftables mode: kube_proxy_nftables), the external
#                                 upstream, and a pod of its own network (POD_NET,
#                                 10.0.0.2 behind a veth) with $WORK/clusterip.conf
#   kube_proxy_nftables           kube-proxy's table in nftables mode for kube-dns's
#                                 Service alone (kube-proxy-nftables.sh)
#   nodelocal_up UPSTREAM ADDRESS...  NodeLocal DNSCache as a node runs it: its
#                                 interface nodelocaldns holding each ADDRESS, unbound
#                                 bound there with SO_REUSEPORT (NodeLocal's cache, query
#                                 log $WORK/unbound.log) forwarding the cluster zones to
#                                 UPSTREAM over TCP, the rest to 127.0.0.54; bound to
#                                 0.0.0.0 instead when NODELOCAL_WILDCARD is set (the
#                                 deliveryhero chart's Corefile: `bind 0.0.0.0`)
#   nodelocal_down                its DaemonSet deleted: unbound exits, its teardown
#                                 removes the interface
#   nodelocal_rules -I|-D ADDRESS...  NodeLocal's iptables rules for each ADDRESS, as
#                                 node-cache writes (-I) and removes (-D) them: NOTRACK
#                                 in raw and ACCEPT in filter for port 53 both ways,
#                                 NOTRACK for its health port 8080 (iptables-nft writes
#                                 them into nftables tables of its own)
#   stream SERVER SECONDS         dnsperf at SERVER in the background (from POD_NET when
#                                 set): 500 queries a second for web.shop.svc.cluster.local
#                                 from 32 source ports (SO_REUSEPORT spreads flows)
#   few_lost STEP                 waits for the stream: fewer than 1% lost (unanswered in
#                                 5 s: lost, not slow); prints its figures
#   pod NS CMD...                 CMD in a pod of namespace NS (shop, default; shop-off:
#                                 shop's pod with 169.254.20.11 as its nameserver), or
#                                 with the resolv.conf $WORK/NS.conf; in the network
#                                 namespace POD_NET (a path) when that is set
#   ask SERVER ARGS...            dig @SERVER; q ARGS...: dig at 169.254.20.10
#   metric NAME [ADDR]            a metric of the cache at ADDR (169.254.20.10), summed
#                                 over its label sets unless NAME has labels
#   logged LOG REGEX              how many lines of LOG match the extended REGEX
#   watch_pod ADDRESS             counters in POD_NET of the pod's UDP queries to ADDRESS
#                                 port 53 and what came back from it: replies, refusals
#                                 (ICMP unreachable); watched queries|replies|refusals:
#                                 the count so far
# (poll and eventually: tests/lib/assert.sh)
NODE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$NODE_ROOT/tests/lib/assert.sh"
source "$NODE_ROOT/tests/lib/dig.sh"
BUILD=$(cd "${1:?usage: $(basename "$0") BUILD_DIR}" && pwd)
SERVER=$BUILD/bin/resolv-k8s-server
BURST=$NODE_ROOT/tests/node/burst.py
PROBE_GLIBC=$BUILD/tests/gai-probe-glibc
PROBE_MUSL=$BUILD/tests/gai-probe-musl
PROBE_MUSL_STATIC=$BUILD/tests/gai-probe-musl-rk8s
# The one LD_PRELOAD value inject writes: each libc's loader finds its build.
SHIM=$BUILD/preload/\$LIB/libresolv-k8s.so
KUBE_DNS_IP=${KUBE_DNS_IP:-10.96.0.10}
FIXTURES=$NODE_ROOT/tests/fixtures
CLUSTER_SERVER='{name: cluster, zones: [cluster.local, in-addr.arpa, ip6.arpa], forwardPlugin:
  {upstreams: [127.0.0.53, 127.0.0.55], policy: Sequential, protocolStrategy: TCP}}'

resolv_conf() { # FILE NAMESERVER NAMESPACE
	cat > "$1" <<-END
		nameserver $2
		search $3.svc.cluster.local svc.cluster.local cluster.local corp.example
		options ndots:5
	END
}

if [[ -z ${NODE_WORK:-} ]]; then
	NODE_WORK=$(mktemp -d)
	export NODE_WORK
	resolv_conf "$NODE_WORK/shop.conf" 169.254.20.10 shop
	resolv_conf "$NODE_WORK/shop-off.conf" 169.254.20.11 shop
	resolv_conf "$NODE_WORK/default.conf" 169.254.20.10 default
	printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n' > "$NODE_WORK/hosts"
	echo 'hosts: files dns' > "$NODE_WORK/nsswitch.conf"
	status=0
	# A bound on a hung test: 200 s, beyond a soak's own length.
	timeout $((200 + ${SOAK_SECONDS:-0})) "$NODE_ROOT/tests/pod/sandbox.sh" --resolv "$NODE_WORK/shop.conf" \
		--hosts "$NODE_WORK/hosts" --nsswitch "$NODE_WORK/nsswitch.conf" -- \
		"$(realpath "$0")" "$BUILD" < /dev/null || status=$?
	rm -rf "$NODE_WORK"
	exit $status
fi
WORK=$NODE_WORK

# NodeLocal's dummy interface; a bridge without ports where the kernel has
# no dummy driver: a local address either way, and no link to anywhere.
ip link add nodelocaldns type dummy 2>/dev/null || ip link add nodelocaldns type bridge
ip link set nodelocaldns addrgenmode none
ip addr add 169.254.20.10/32 dev nodelocaldns
ip addr add 169.254.20.11/32 dev nodelocaldns
ip link set nodelocaldns up

declare -A PID

zone() {
	local file=$1 origin=$2
	shift 2
	{
		echo "\$ORIGIN $origin."
		echo '@ 60 IN SOA ns hostmaster 1 7200 1800 604800 60'
		printf '%s\n' "$@"
	} > "$file"
}

start() {
	local name=$1
	shift
	"$@" 2> "$WORK/$name.err" &
	PID[$name]=$!
	if ! poll 10 grep -qs listening "$WORK/$name.err"; then
		echo "FAIL - $name did not start: $*"
		sed 's/^/    | /' "$WORK/$name.err"
		exit 1
	fi
}

stop() {
	local children
	children=$(pgrep -P "${PID[$1]}")
	kill -KILL "${PID[$1]}" $children
	wait "${PID[$1]}" 2>/dev/null
}

kube_proxy_node() {
	ip link add kubedns type bridge
	ip addr add 10.244.0.53/32 dev kubedns
	ip link set kubedns up
	start kubedns "$SERVER" --listen 10.244.0.53:53 --cluster "$FIXTURES/cluster.json" \
		--query-log "$WORK/kubedns.log"
	external_dns
	if [[ ${1:-} == nftables ]]; then
		kube_proxy_nftables
	else
		nft -f - <<-END
			table ip kube-proxy {
				chain prerouting { type nat hook prerouting priority dstnat; ip daddr $KUBE_DNS_IP meta l4proto { tcp, udp } th dport 53 dnat to 10.244.0.53; }
				chain output { type nat hook output priority -100; ip daddr $KUBE_DNS_IP meta l4proto { tcp, udp } th dport 53 dnat to 10.244.0.53; }
			}
		END
	fi
	unshare --net sleep infinity &
	POD_NET=/proc/$!/ns/net
	own_net() { [[ $(readlink "$POD_NET") != "$(readlink /proc/self/ns/net)" ]]; }
	poll 5 own_net
	ip link add veth-pod type veth peer name eth0 netns "$POD_NET"
	ip addr add 10.0.0.1/30 dev veth-pod
	ip link set veth-pod up
	nsenter --net="$POD_NET" sh -c 'ip link set lo up && ip link set eth0 up &&
		ip addr add 10.0.0.2/30 dev eth0 && ip route add default via 10.0.0.1'
	resolv_conf "$WORK/clusterip.conf" "$KUBE_DNS_IP" shop
}

kube_proxy_nftables() {
	"$NODE_ROOT/tests/node/kube-proxy-nftables.sh" kube-system/kube-dns "$KUBE_DNS_IP" 10.244.0.53 \
		udp/dns/53 tcp/dns-tcp/53 | nft -f -
}

nodelocal_up() {
	local upstream=$1 address zone
	shift
	{
		printf 'server:\n'
		if [[ ${NODELOCAL_WILDCARD:-} ]]; then
			printf '  interface: 0.0.0.0\n  interface-automatic: yes\n'
		else
			printf '  interface: %s\n' "$@"
		fi
		cat <<-END
			  so-reuseport: yes
			  access-control: 0.0.0.0/0 allow
			  chroot: ""
			  username: ""
			  directory: "$WORK"
			  pidfile: "$WORK/unbound.pid"
			  use-syslog: no
			  logfile: "$WORK/unbound.log"
			  log-queries: yes
			  num-threads: 1
			  do-not-query-localhost: no
			  module-config: "iterator"
			  cache-max-ttl: 30
			  cache-max-negative-ttl: 5
			  unblock-lan-zones: yes
			  insecure-lan-zones: yes
		END
		for zone in cluster.local in-addr.arpa ip6.arpa; do
			printf 'forward-zone:\n  name: "%s."\n  forward-addr: %s\n  forward-tcp-upstream: yes\n' "$zone" "$upstream"
		done
		printf 'forward-zone:\n  name: "."\n  forward-addr: 127.0.0.54\n'
	} > "$WORK/unbound.conf"
	ip link add nodelocaldns type dummy 2>/dev/null || ip link add nodelocaldns type bridge
	for address; do ip addr add "$address/32" dev nodelocaldns; done
	ip link set nodelocaldns up
	rm -f "$WORK/unbound.log"  # its "start of service" is this one's
	unbound -d -c "$WORK/unbound.conf" 2> "$WORK/unbound.err" &
	PID[nodelocal]=$!
	poll 10 grep -qs 'start of service' "$WORK/unbound.log" || {
		echo "FAIL - unbound did not start"
		sed 's/^/    | /' "$WORK/unbound.err" "$WORK/unbound.log"
		exit 1
	}
}

nodelocal_down() {
	kill -TERM "${PID[nodelocal]}"
	wait "${PID[nodelocal]}"
	ip link del nodelocaldns
}

nodelocal_rules() {
	local op=$1 ip proto
	shift
	for ip; do
		for proto in tcp udp; do
			iptables -t raw "$op" PREROUTING -p $proto -d "$ip" --dport 53 -j NOTRACK
			iptables -t filter "$op" INPUT -p $proto -d "$ip" --dport 53 -j ACCEPT
			iptables -t raw "$op" OUTPUT -p $proto -s "$ip" --sport 53 -j NOTRACK
			iptables -t filter "$op" OUTPUT -p $proto -s "$ip" --sport 53 -j ACCEPT
			iptables -t raw "$op" OUTPUT -p $proto -d "$ip" --dport 53 -j NOTRACK
		done
		iptables -t raw "$op" OUTPUT -p tcp -d "$ip" --dport 8080 -j NOTRACK
		iptables -t raw "$op" OUTPUT -p tcp -s "$ip" --sport 8080 -j NOTRACK
	done
}

stream() {
	for _ in $(seq 50); do echo "web.shop.svc.cluster.local A"; done > "$WORK/names"
	${POD_NET:+nsenter "--net=$POD_NET"} dnsperf -s "$1" -d "$WORK/names" -l "$2" -Q 500 -c 32 -t 5 \
		> "$WORK/perf.txt" 2>&1 &
	PID[perf]=$!
}

few_lost() {
	local sent lost
	wait "${PID[perf]}"
	read -r sent lost < <(awk '/Queries sent:/ { sent = $3 } /Queries lost:/ { lost = $3 }
		END { print sent + 0, lost + 0 }' "$WORK/perf.txt")
	check "$1: the pods' queries answered, fewer than 1% lost" yes "$( ((sent > 1000 && lost * 100 < sent)) && echo yes)" \
		"$(cat "$WORK/perf.txt")"
	echo "$(basename "$0" _test.sh): $1: $sent queries, $lost lost"
}

cluster_dns() {
	local n=$1
	shift
	start "dns$n" "$SERVER" --listen "127.0.0.$n:53" --cluster "$FIXTURES/cluster.json" \
		--delay-ms 2 --query-log "$WORK/dns$n.log" "$@"
}

external_dns() {
	start dns54 "$SERVER" --listen 127.0.0.54:53 --zone "$FIXTURES/example.com.zone" \
		--zone "$FIXTURES/corp.example.zone" --zone "$NODE_ROOT/tests/pod/fixtures/example.org.zone" \
		--delay-ms 20 --query-log "$WORK/dns54.log" "$@"
}

silent_dns() {
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 53))
print("listening", flush=True)
time.sleep(600)' "$1" > "$WORK/silent$1.err" &
	poll 10 grep -qs listening "$WORK/silent$1.err"
}

node_config() {
	local file=$1 addr=$2 kv
	shift 2
	local -A keys=(
		[listen]="[\"$addr:53\"]" [health]="\"$addr:8080\"" [metrics]="\"$addr:9253\""
		[servers]="[$CLUSTER_SERVER]"
		[upstreamResolvers]='{upstreams: [{type: Network, address: 127.0.0.54, port: 53}]}'
	)
	for kv; do keys[${kv%%=*}]=${kv#*=}; done
	for kv in "${!keys[@]}"; do
		[[ -z ${keys[$kv]} ]] || echo "$kv: ${keys[$kv]}"
	done > "$file"
}

cache_at() {
	local name=$1
	shift
	node_config "$WORK/$name.yaml" "$@"
	start "$name" "$SERVER" --config "$WORK/$name.yaml" --query-log "$WORK/$name.log"
}

node_start() {
	cluster_dns 53
	cluster_dns 55
	external_dns
	cache_at cache 169.254.20.10 "$@"
}

pod() {
	local conf=$WORK/$1.conf
	shift
	${POD_NET:+nsenter "--net=$POD_NET"} unshare --mount --propagation private \
		bash -c 'mount --bind -o ro "$0" /etc/resolv.conf && exec "$@"' "$conf" "$@"
}

ask() {
	local server=$1
	shift
	dig +nocookie +time=3 +tries=1 "@$server" "$@" 2>&1
}

q() { ask 169.254.20.10 "$@"; }

metric() {
	curl -s --max-time 5 "http://${2:-169.254.20.10}:9253/metrics" | awk -v m="$1" '
		$1 == m || (m !~ /{/ && index($1, m "{") == 1) { sum += $2 }
		END { printf "%d\n", sum }'
}

logged() { grep -Ec -- "$2" "$1"; }

# For the times a test prints: now, and the seconds since one.
now() { date +%s.%N; }
since() { printf '%.1f' "$(bc <<<"$(now) - $1")"; }

watch_pod() {
	nsenter --net="$POD_NET" nft -f - <<-END
		table inet watch {
			counter queries {}
			counter replies {}
			counter refusals {}
			chain out { type filter hook output priority 0; ip daddr $1 udp dport 53 counter name queries; }
			chain in { type filter hook input priority 0; ip saddr $1 udp sport 53 counter name replies;
				ip saddr $1 icmp type destination-unreachable counter name refusals; }
		}
	END
}
watched() { nsenter --net="$POD_NET" nft list counter inet watch "$1" | sed -n 's/.*packets \([0-9]*\).*/\1/p'; }
