#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# soak_test.sh BUILD_DIR: the cache under mixed load and faults for
# SOAK_SECONDS (600; `make test` runs 60). Load: dnsperf over UDP (random
# names past the cache's capacity under example.com's wildcard, repeats,
# Services, both families, marker names, missing names, names a hostile
# upstream answers with garbage, truncation and loops), over TCP, and with
# the autopath option. Faults, in turn every 3 s: a cluster DNS replica
# stopped and continued, the external upstream stopped and continued, a
# reload, a reload of a broken configuration (refused, the old one kept), a
# rolling restart (a second instance on the address, SIGTERM to the first).
# A checker asks names whose answers are known all along. Reports queries
# sent, answered and lost, wrong answers, the highest RSS and descriptor
# count; fails on a wrong answer, an instance that did not end with status 0
# when told, RSS over 64 MiB (capacity 2000 entries) or over 256 descriptors.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
seconds=${SOAK_SECONDS:-600}

cluster_dns 53
cluster_dns 55
external_dns
python3 "$NODE_ROOT/tests/faults/hostile.py" 127.0.0.66 "$WORK/hostile.log" -- sleep infinity &
hostile=$!
poll 10 bash -c 'ss -Hlun "src 127.0.0.66" | grep -q .'
servers="servers=[$CLUSTER_SERVER, {name: hostile, zones: [hostile.test],
  forwardPlugin: {upstreams: [127.0.0.66]}}]"
node_config "$WORK/good.yaml" 169.254.20.10 "$servers" 'cache={capacity: 2000}' \
	'autopath={hostSearch: [example.org]}'
cp "$WORK/good.yaml" "$WORK/cache.yaml"
n=0
start cache$n "$SERVER" --config "$WORK/cache.yaml"

# The load.
{
	for i in $(seq 3000); do echo "r$RANDOM$i.wild.example.com A"; done
	for _ in $(seq 200); do
		printf '%s\n' "www.example.com A" "www.example.com AAAA" "web.shop.svc.cluster.local A" \
			"web.shop.svc.cluster.local AAAA" "kubernetes.default.svc.cluster.local A" \
			"web.search.shop.cluster.local.ap.k8s.io A" "db.search.shop.cluster.local.ap.k8s.io AAAA" \
			"nosuch.example.com A" "ok.hostile.test A" "garbage.hostile.test A" "short.hostile.test A" \
			"tc.hostile.test A" "bigcount.hostile.test A" "cnameloop.hostile.test A"
	done
} | shuf > "$WORK/udp.names"
shuf -n 2000 "$WORK/udp.names" > "$WORK/tcp.names"
for _ in $(seq 500); do echo "web.shop.svc.cluster.local A"; echo "www.example.com.shop.svc.cluster.local A"; done \
	> "$WORK/autopath.names"
# The option of shop's search list, as the shim sends it (docs/autopath-protocol.md).
option=$(python3 -c 'import sys
def name(n): return b"".join(bytes([len(l)]) + l.encode() for l in n.split(".") if l) + b"\0"
p = bytes([1, 0x05]) + b"".join(name(s) for s in ["shop.svc.cluster.local", "svc.cluster.local", "cluster.local", "example.org", "."])
print(p.hex())')
perfs=()
perf() { # NAME ARGS...
	dnsperf -s 169.254.20.10 -l "$seconds" -t 2 "${@:2}" > "$WORK/$1.perf" 2>&1 &
	perfs+=($!)
}
perf udp -d "$WORK/udp.names" -c 4 -Q 600
perf tcp -d "$WORK/tcp.names" -m tcp -c 2 -Q 100
perf autopath -d "$WORK/autopath.names" -c 2 -Q 100 -E "65431:$option"

# The checker: names whose answers never change, asked all along.
python3 - "$seconds" > "$WORK/checker.out" 2>&1 <<-'EOF' &
	import random, socket, struct, sys, time
	end = time.time() + float(sys.argv[1])
	known = {"www.example.com": "93.184.216.34", "web.shop.svc.cluster.local": "10.96.1.10",
	         "kubernetes.default.svc.cluster.local": "10.96.0.1", "web.search.shop.cluster.local.ap.k8s.io": "10.96.1.10"}
	asked = answered = lost = wrong = 0
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.settimeout(2)
	while time.time() < end:
	    name, want = random.choice(list(known.items()))
	    if random.random() < 0.3:
	        name, want = "c%d.wild.example.com" % random.randrange(10**9), "192.0.2.77"
	    qid = random.randrange(65536)
	    q = struct.pack(">HHHHHH", qid, 0x100, 1, 0, 0, 0) + b"".join(
	        bytes([len(l)]) + l.encode() for l in name.split(".")) + b"\0\0\1\0\1"
	    asked += 1
	    try:
	        s.sendto(q, ("169.254.20.10", 53))
	        while True:
	            r = s.recv(4096)
	            if struct.unpack(">H", r[:2])[0] == qid: break
	    except socket.timeout:
	        lost += 1
	        continue
	    rcode, an = r[3] & 15, struct.unpack(">H", r[6:8])[0]
	    if rcode in (2, 5):  # SERVFAIL, REFUSED: lost to a fault, not wrong
	        lost += 1
	        continue
	    # The A records' addresses: every A rdata in the reply.
	    ips = {".".join(map(str, r[i + 10:i + 14])) for i in range(len(r) - 13)
	           if r[i:i + 4] == b"\0\1\0\1" and r[i + 8:i + 10] == b"\0\4"}
	    if rcode == 0 and an and ips == {want}:
	        answered += 1
	    else:
	        wrong += 1
	        print("wrong:", name, rcode, sorted(ips), file=sys.stderr)
	    time.sleep(0.01)
	print(asked, answered, lost, wrong)
EOF
checker=$!

# The faults, and what the current instance uses meanwhile.
rss_max=0 fds_max=0 bad_exits=0
watch_resources() {
	local pid=${PID[cache$n]} kb fds
	kb=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status" 2>/dev/null)
	fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
	((${kb:-0} > rss_max)) && rss_max=$kb
	((fds > fds_max)) && fds_max=$fds
}
roll() {
	local old=$n
	n=$((n + 1))
	start cache$n "$SERVER" --config "$WORK/cache.yaml"
	kill -TERM "${PID[cache$old]}"
	wait "${PID[cache$old]}" || bad_exits=$((bad_exits + 1))
}
faults=(
	'kill -STOP "${PID[dns53]}"; sleep 1; kill -CONT "${PID[dns53]}"'
	'kill -HUP "${PID[cache$n]}"'
	'echo "servers: [" > "$WORK/cache.yaml"; kill -HUP "${PID[cache$n]}"; sleep 0.5; cp "$WORK/good.yaml" "$WORK/cache.yaml"'
	'kill -STOP "${PID[dns54]}"; sleep 1; kill -CONT "${PID[dns54]}"'
	roll
)
end=$((SECONDS + seconds))
for ((i = 0; SECONDS < end; i++)); do
	eval "${faults[i % ${#faults[@]}]}"
	for _ in 1 2 3; do
		watch_resources
		sleep 1
	done
done
wait $checker "${perfs[@]}"
read -r asked answered lost wrong < <(tail -1 "$WORK/checker.out")
sum() { awk -v k="$1" '$0 ~ k { n += $3 } END { print n + 0 }' "$WORK"/*.perf; }
sent=$(sum 'Queries sent:') completed=$(sum 'Queries completed:') perf_lost=$(sum 'Queries lost:')
reloads=$(cat "$WORK"/cache*.err | grep -c 'configuration reloaded')
refused=$(cat "$WORK"/cache*.err | grep -c 'old configuration keeps serving')
echo "soak: ${seconds} s, $i faults ($n rolls, $reloads reloads, $refused refused): dnsperf sent $sent, answered $completed, lost $perf_lost; checker asked $asked, right $answered, lost $lost, wrong $wrong; RSS at most $((rss_max / 1024)) MiB, at most $fds_max descriptors"

check "every answer right" 0 "$wrong" "$(grep wrong: "$WORK/checker.out" | head -5)"
check_match "the checker got answers" '^[1-9]' "$answered"
check_match "dnsperf got answers" '^[1-9]' "$completed" "$(cat "$WORK"/*.perf | head -20)"
check "every rolled instance ended with status 0" 0 "$bad_exits"
check "the last instance still serves" NOERROR "$(q www.example.com | sed -n 's/.*status: \([A-Z]*\).*/\1/p')"
check "a broken configuration refused, each time" yes "$( ((refused > 0 && reloads > 0)) && echo yes)" \
	"$(cat "$WORK"/cache*.err | tail -5)"
check "RSS under 64 MiB" yes "$( ((rss_max < 64 * 1024)) && echo yes)" "$rss_max kB"
check "under 256 descriptors" yes "$( ((fds_max < 256)) && echo yes)" "$fds_max"
kill "$hostile" 2>/dev/null
summary
