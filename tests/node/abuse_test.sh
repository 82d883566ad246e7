#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# abuse_test.sh BUILD_DIR: the node cache with its default limits in a
# 128 MiB memory cgroup (the DaemonSet's limit), played by pods that are
# hostile or merely buggy, each from its own address, with a bystander pod
# beside them whose lookups must keep working: answers of 64 KB, a flood of
# one name the upstream never answers, a flood of such names, a TCP client
# that pipelines and never reads, 300 TCP connections from one pod each
# trickling a query it never finishes, EDNS 65000 over UDP, an autopath
# option of 64 suffixes, and, with 1024 descriptors, 1000 idle HTTP
# connections.
# The server is never killed, and the supervised one holds no capability.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cgroup.sh"
FLOOD=$NODE_ROOT/tests/node/flood.py

# A bystander pod's miss, answered while the others abuse the cache; asked
# twice, as libcs do: a datagram of its may be lost in the socket queue the
# flood fills.
asked=0
bystander() {
	local out
	asked=$((asked + 1))
	out=$(ask 169.254.20.10 -b 127.0.0.3 "bystander$asked.wild.example.com" A +tries=2 +time=2)
	grep -q 'status: NOERROR' <<<"$out" && return
	echo "    bystander$asked: $(grep -E 'status|timed out' <<<"$out")" >&2
	return 1
}

# Upstreams: cluster DNS, the external resolver (with big.test: 4000
# addresses a name, 64 KB; and amp.test, empty), and one that never
# answers (silent.test).
{
	echo '$ORIGIN big.test.'
	echo '@ 60 IN SOA ns hostmaster 1 7200 1800 604800 60'
	for i in $(seq 0 3999); do echo "* 300 IN A 10.$((i / 250)).$((i % 250)).1"; done
} > "$WORK/big.test.zone"
silent_dns 127.0.0.67
zone "$WORK/amp.test.zone" amp.test
cluster_dns 53
cluster_dns 55
external_dns --zone "$WORK/big.test.zone" --zone "$WORK/amp.test.zone"
servers="[$CLUSTER_SERVER, {name: silent, zones: [silent.test], forwardPlugin: {upstreams: [127.0.0.67]}}]"

cg=$(memory_cgroup "rk8s-abuse-$$")
CGROUPS+=("cache:$cg")
node_config "$WORK/cache.yaml" 169.254.20.10 servers="$servers"
start cache "${IN_CGROUP[@]}" "$cg" "$SERVER" --config "$WORK/cache.yaml"
check_match "its memory from the cgroup" "memory 128 MiB \(the container's limit\)" "$(cat "$WORK/cache.err")"

# 150 names of 64 KB answers, over TCP: the cache keeps what its budget holds.
for i in $(seq 1 150); do echo "n$i.big.test A"; done > "$WORK/big.names"
answers=$(dig +nocookie +tcp +time=5 +tries=1 @169.254.20.10 -f "$WORK/big.names" +noall +answer | wc -l)
check "150 names of 4000 addresses each: all answered" 600000 "$answers"
alive "64 KB answers" "${PID[cache]}" "$cg"
used=$(metric 'resolv_k8s_limit_used{limit="cache.maxBytes"}')
budget=$(metric 'resolv_k8s_limit{limit="cache.maxBytes"}')
check "the cache within its budget" yes "$( ((used <= budget && budget > 0)) && echo yes)" "$used of $budget bytes"
echo "    the cache keeps $(metric resolv_k8s_cache_entries) answers, $((used >> 20)) MiB; RSS $(rss_mib "${PID[cache]}") MiB"

# flooded WHAT COUNT FORMAT LIMIT: a pod at 127.0.0.2 floods COUNT names of
# FORMAT the upstream never answers while the bystander asks 5 misses; each
# answered, the server alive, and what LIMIT turned away counted.
flooded() {
	"$FLOOD" -s 127.0.0.2 169.254.20.10 "$2" "$3" > "$WORK/flood.out" &
	local flood=$! answered=0 i turned
	for i in 1 2 3 4 5; do bystander && answered=$((answered + 1)); done
	wait $flood
	echo "    $1: $(cat "$WORK/flood.out"); RSS $(rss_mib "${PID[cache]}") MiB"
	check "$1: a bystander's misses answered throughout" 5 "$answered"
	alive "$1" "${PID[cache]}" "$cg"
	turned=$(metric "resolv_k8s_forward_limited_total{limit=\"$4\"}")
	check "$1: turned away at $4, counted" yes "$( ((turned > 0)) && echo yes)" "$turned"
}
flooded "one name 400,000 times" 400000 one.silent.test maxJoined
flooded "100,000 names each new" 100000 'u%d.silent.test' share

# A TCP client that pipelines 3,000 queries for 64 KB answers and never reads.
python3 - "$WORK/pipeline.pid" <<-'END' &
	import socket, struct, sys, time, os
	s = socket.create_connection(("169.254.20.10", 53))
	s.setblocking(False)
	out = b""
	for i in range(3000):
	    name = b"".join(bytes([len(x)]) + x for x in (b"n%d" % (i % 150 + 1), b"big", b"test")) + b"\0"
	    q = struct.pack(">HHHHHH", i, 0x0100, 1, 0, 0, 0) + name + b"\0\1\0\1"
	    out += struct.pack(">H", len(q)) + q
	try:
	    s.send(out)
	except BlockingIOError:
	    pass
	time.sleep(30)
END
pipeline=$!
sleep 3
rss=$(rss_mib "${PID[cache]}")
check "a TCP client that never reads: RSS under 64 MiB" yes "$( ((rss < 64)) && echo yes)" "$rss MiB"
kill $pipeline 2>/dev/null
wait $pipeline 2>/dev/null

# Slots per client (issue 43): a pod at 127.0.0.7 keeps 300 TCP connections
# open, each trickling a 65535-byte query it never finishes, a byte every
# 3 s, and opens another for each one closed; meanwhile a bystander at
# 127.0.0.8 asks 20 queries over TCP. The pod holds its share of
# maxTCPClients at most, so the bystander is answered; and a connection
# that trickles is closed at tcpIdleTimeout (10 s) all the same, seen as
# its EOF after it trickled 2 bytes or more (one refused at once has sent
# none).
tcp_slots_per_client() {
	python3 - 169.254.20.10 127.0.0.7 300 30 "$WORK/trickle.out" <<-'END' &
	import select, socket, sys, time
	server, source, count, seconds, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
	end = time.monotonic() + seconds
	trickled = {}  # socket: bytes trickled
	connects = refused = closed = 0
	def connect():
	    global connects
	    connects += 1
	    try:
	        s = socket.create_connection((server, 53), timeout=2, source_address=(source, 0))
	        s.send(b"\xff\xff")  # the length of a query that never comes whole
	        s.setblocking(False)
	        trickled[s] = 0
	    except OSError:
	        pass
	rounds = 0
	while time.monotonic() < end and connects < 5000:
	    while len(trickled) < count and connects < 5000:
	        connect()
	    poller = select.poll()
	    for s in trickled:
	        poller.register(s, select.POLLIN)
	    for fd, _ in poller.poll(0):
	        s = next(c for c in trickled if c.fileno() == fd)
	        try:
	            eof = s.recv(1) == b""
	        except OSError:
	            eof = True
	        if eof:
	            if trickled[s] >= 2: closed += 1
	            else: refused += 1
	            del trickled[s]
	            s.close()
	    for s in trickled:
	        try:
	            s.send(b"x")
	            trickled[s] += 1
	        except OSError:
	            pass
	    rounds += 1
	    with open(out, "w") as f:
	        print(f"round {rounds}: {len(trickled)} open, {connects} opened, {refused} refused at once, {closed} closed trickling", file=f)
	    time.sleep(3)
	END
	local trickler=$! answered=0 i held refused
	poll 20 grep -qs '^round 2:' "$WORK/trickle.out"
	held=$(metric 'resolv_k8s_limit_used{limit="maxTCPPerClient"}')
	for i in $(seq 1 20); do
		dig +nocookie +tcp +time=3 +tries=1 -b 127.0.0.8 @169.254.20.10 "tcp$i.wild.example.com" A 2>&1 |
			grep -q 'status: NOERROR' && answered=$((answered + 1))
	done
	refused=$(metric resolv_k8s_tcp_refused_total)
	poll 25 grep -qs ' [1-9][0-9]* closed trickling' "$WORK/trickle.out"
	echo "    300 trickling connections: $(cat "$WORK/trickle.out"); the pod held $held," \
		"$refused refused; the bystander $answered of 20; RSS $(rss_mib "${PID[cache]}") MiB"
	check "300 trickling connections: a bystander's 20 TCP queries answered, 19 or more" yes \
		"$( ((answered >= 19)) && echo yes)" "$answered of 20"
	check "the pod held maxTCPPerClient (64) connections at most" yes \
		"$( ((held > 0 && held <= 64)) && echo yes)" "$held connections"
	check_match "a trickling connection closed by the server" ' [1-9][0-9]* closed trickling' "$(cat "$WORK/trickle.out")"
	kill $trickler 2>/dev/null
	wait $trickler 2>/dev/null
	alive "300 trickling connections" "${PID[cache]}" "$cg"
}
tcp_slots_per_client

# The stale flood (issue 43): flip.test's upstream on 127.0.0.69 answers a
# name once with TTL 1 and with TTL 0 ever after (TTL 0 is never stored, so
# the entry stays stale for maxStale and every query for it waits on the
# upstream); to slow.* names the TTL 0 answers come a second late, so that
# queries pile up waiting. A pod at 127.0.0.9 floods one name as fast as
# one socket sends, slow.flip.test then now.flip.test. The cache runs in a
# 128 MiB cgroup of its own with the count bounds lifted (maxPending,
# maxJoined), so that only the bytes its waiting queries hold (the bound
# waitingBytes, a quarter of the memory) stand between the flood and the
# OOM killer. Checked: alive and RSS under the limit after each; for the
# slow one, the memory budget turning queries away (answered stale at
# once), and limit_used{memory} at the flood's height within 25% of RSS
# above the idle baseline before it (printed for both).
stale_flood() {
	python3 - 127.0.0.69 > "$WORK/flip.err" <<-'END' &
	import heapq, select, socket, struct, sys, time
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.bind((sys.argv[1], 53))
	print("listening", flush=True)
	seen, due, end = set(), [], time.monotonic() + 120
	while time.monotonic() < end:
	    if select.select([s], [], [], max(0, due[0][0] - time.monotonic()) if due else 1)[0]:
	        q, peer = s.recvfrom(512)
	        i = 12
	        while i < len(q) and q[i]:
	            i += 1 + q[i]
	        question, name = q[12:i + 5], q[12:i].lower()
	        ttl = 0 if name in seen else 1
	        seen.add(name)
	        answers = b"".join(b"\xc0\x0c" + struct.pack(">HHIHBBBB", 1, 1, ttl, 4, 10, 9, 0, n) for n in range(16))
	        reply = q[:2] + struct.pack(">HHHHH", 0x8180, 1, 16, 0, 0) + question + answers
	        late = 1 if ttl == 0 and name.startswith(b"\4slow") else 0
	        heapq.heappush(due, (time.monotonic() + late, id(reply), reply, peer))
	    while due and due[0][0] <= time.monotonic():
	        _, _, reply, peer = heapq.heappop(due)
	        s.sendto(reply, peer)
	END
	local upstream=$! cg3 pid name flood other i used rss base most at_most
	poll 10 grep -qs listening "$WORK/flip.err"
	cg3=$(memory_cgroup "rk8s-abuse-stale-$$")
	CGROUPS+=("stale:$cg3")
	ip addr add 169.254.20.13/32 dev nodelocaldns
	node_config "$WORK/stale.yaml" 169.254.20.13 limits='{maxPending: 1000000, maxJoined: 1000000}' \
		servers="[$CLUSTER_SERVER, {name: flip, zones: [flip.test], forwardPlugin: {upstreams: [127.0.0.69]}}]"
	start stale "${IN_CGROUP[@]}" "$cg3" "$SERVER" --config "$WORK/stale.yaml"
	pid=${PID[stale]}
	rss_bytes() { awk '$1 == "VmRSS:" { print $2 * 1024 }' "/proc/$pid/status" 2> /dev/null || echo 0; }
	for name in slow now; do ask 169.254.20.13 "$name.flip.test" > /dev/null; done
	sleep 1.5  # both expired: stale from now on
	for name in slow now; do
		base=$(rss_bytes) most=0 at_most=0
		"$FLOOD" -s 127.0.0.9 169.254.20.13 300000 "$name.flip.test" > "$WORK/stale_flood.out" &
		flood=$!
		for i in $(seq 1 100); do
			kill -0 $flood 2>/dev/null || break
			used=$(metric 'resolv_k8s_limit_used{limit="memory"}' 169.254.20.13)
			rss=$(rss_bytes)
			((used > most)) && most=$used at_most=$((rss - base))
			sleep 0.1
		done
		other=$(ask 169.254.20.13 -b 127.0.0.3 "other$name.flip.test" A +tries=2 +time=2)
		wait $flood
		echo "    stale flood of $name.flip.test: $(cat "$WORK/stale_flood.out"); at its height" \
			"limit_used{memory} $((most >> 10)) KiB, RSS $((at_most >> 10)) KiB above idle" \
			"($((base >> 10)) KiB); RSS after $(($(rss_bytes) >> 20)) MiB"
		alive "stale flood of $name.flip.test" "$pid" "$cg3"
		check "stale flood of $name.flip.test: RSS under the limit" yes \
			"$( ((rss = $(rss_bytes), rss > 0 && rss < MEMORY_LIMIT)) && echo yes)"
		check_match "stale flood of $name.flip.test: another pod's miss answered" "status: NOERROR" "$other"
		[[ $name == slow ]] || continue
		check "the slow stale flood: turned away at the memory budget, counted" yes \
			"$( (($(metric 'resolv_k8s_forward_limited_total{limit="memory"}' 169.254.20.13) > 0)) && echo yes)"
		check "and answered stale at once" yes \
			"$( (($(metric 'resolv_k8s_cache_served_stale_total{reason="refused"}' 169.254.20.13) > 0)) && echo yes)"
		check "limit_used{memory} within 25% of RSS above idle at the slow flood's height" yes \
			"$( ((most > 0 && 4 * (most - at_most) <= at_most && 4 * (at_most - most) <= at_most)) && echo yes)" \
			"$((most >> 10)) KiB accounted, RSS $((at_most >> 10)) KiB above idle"
	done
	kill $upstream
	wait $upstream 2>/dev/null
}
stale_flood

# Amplification: UDP replies of 1232 bytes at most; one option of 64
# suffixes sends at most limits.maxUpstreamPerQuery (16) questions upstream.
reply=$(ask 169.254.20.10 +bufsize=65000 +ignore +notcp n1.big.test A)
size=$(awk '/MSG SIZE/ { print $NF }' <<<"$reply")
check "EDNS 65000 over UDP: at most 1232 bytes" yes "$( ((size > 0 && size <= 1232)) && echo yes)" "$size bytes"
check_match "and truncated" "flags: qr tc" "$reply"
option=$(python3 -c 'import struct
def wire(n): return b"".join(bytes([len(x)]) + x.encode() for x in n.split(".")) + b"\0"
print((bytes([1, 5]) + b"".join(wire("s%d.amp.test" % i) for i in range(64))).hex())')
ask 169.254.20.10 amp64.s0.amp.test A "+ednsopt=65431:$option" > "$WORK/amp.out"
upstream=$(grep -c '^[^ ]* amp64\.' "$WORK/dns54.log")
check "64 suffixes: at most 16 questions upstream" yes "$( ((upstream > 0 && upstream <= 16)) && echo yes)" "$upstream"
check_match "the rest left to the client (REJECTED)" "status: NXDOMAIN" "$(cat "$WORK/amp.out")"

# 1024 descriptors and 1000 idle HTTP connections on the metrics address
# (any pod reaches it): misses still answered, the log a few lines.
cg2=$(memory_cgroup "rk8s-abuse-files-$$")
CGROUPS+=("files:$cg2")
node_config "$WORK/files.yaml" 169.254.20.11
start files "${IN_CGROUP[@]}" "$cg2" prlimit --nofile=1024:1024 "$SERVER" --config "$WORK/files.yaml"
check_match "descriptors fitted" "limits lowered to fit 1024 descriptors" "$(cat "$WORK/files.err")"
python3 - <<-'END' &
	import socket, time
	held = []
	for i in range(1000):
	    try:
	        held.append(socket.create_connection(("169.254.20.11", 9253), timeout=2))
	    except OSError:
	        pass
	time.sleep(8)
END
idle=$!
sleep 1
lines=$(wc -l < "$WORK/files.err")
answered=0
for i in $(seq 1 20); do
	[[ $(ask 169.254.20.11 "idle$i.wild.example.com" A +short) == 192.0.2.77 ]] && answered=$((answered + 1))
done
ready=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' http://169.254.20.11:8080/ready)
sleep 4
check "1000 idle HTTP connections: 20 misses answered" 20 "$answered"
check "and /ready answers" 200 "$ready"
said=$(($(wc -l < "$WORK/files.err") - lines))
check "and under 1000 log lines in 5 s" yes "$( ((said < 1000)) && echo yes)" "$said lines"
alive "idle HTTP connections" "${PID[files]}" "$cg2"
wait $idle

# The supervised cache: only the supervisor keeps CAP_NET_ADMIN.
node_config "$WORK/node.yaml" 169.254.20.12 \
	nodeSetup="{interface: rk8s-abuse, lockFile: $WORK/node.lock}"
start node "$SERVER" --config "$WORK/node.yaml"
child=$(pgrep -P "${PID[node]}")
cap_eff() { awk '$1 == "CapEff:" { print $2 }' "/proc/$1/status"; }
check "the serving process holds no capability" 0000000000000000 "$(cap_eff "$child")"
has_net_admin=$(( 0x$(cap_eff "${PID[node]}") >> 12 & 1 ))
check "the supervisor keeps CAP_NET_ADMIN" 1 "$has_net_admin"
summary
