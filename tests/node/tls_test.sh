#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tls_test.sh BUILD_DIR: DNS over TLS to the upstreams (transportConfig).
# unbound serves DoT on 127.0.0.60 and .66 (a certificate for dns.test from
# a CA made here) in front of the cluster replica and the external
# upstream; names resolve through it. Each broken upstream has a zone of its
# own, answered SERVFAIL and counted by reason: a wrong serverName (.66
# asked for other.test), an expired certificate (.61), one from no CA we
# trust (.62), a server that closes each connection after its handshake
# (.63), one that accepts connections and says nothing (.64), one that
# speaks TLS 1.0 only (.65); an expired upstream listed before the good
# one: the good one answers. 2000 distinct misses, 50 in flight, open at
# most 20 connections; a new connection resumes the last one's session.
# Beside a pod flooding from its two addresses with names a DoT upstream
# never answers (.67), a bystander's misses to it are all answered and it
# is never marked down.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source "$NODE_ROOT/tests/lib/dot.sh"

cd "$WORK" || exit 1
# The CA, and certificates for dns.test: signed by it (good), signed by it
# and expired in 2020, and self-signed (untrusted).
dot_certs "$WORK" || { echo "FAIL - no certificates"; exit 1; }

# dot_unbound NAME CERT ADDR...: unbound, DoT on each ADDR:853 with CERT,
# forwarding as NodeLocal does.
dot_unbound() {
	local name=$1
	dot_unbound_conf "$WORK" "$@"
	printf 'forward-zone:\n  name: "%s"\n  forward-addr: %s\n' cluster.local. 127.0.0.53 . 127.0.0.54 >> "$name.conf"
	unbound -d -c "$name.conf" 2> "$name.err" &
	PID[$name]=$!
	poll 10 grep -qs 'start of service' "$name.log" || {
		echo "FAIL - $name did not start"
		sed 's/^/    | /' "$name.err" "$name.log"
		exit 1
	}
}

# The broken servers: MODE close (handshake, read, close), silent (accept,
# say nothing), tls10 (TLS 1.0 only); and picky: every query answered (A
# 10.9.9.9) but those for names under never., read and left unanswered.
python_dot() {
	/usr/bin/python3 - "$1" "$2" > "py$1.err" 2>&1 <<-'END' &
		import socket, ssl, struct, sys, threading
		import dns.message, dns.rrset
		addr, mode = sys.argv[1], sys.argv[2]
		s = socket.socket()
		s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
		s.bind((addr, 853))
		s.listen(64)
		print("listening", flush=True)
		if mode == "silent":
		    threading.Event().wait(600)
		ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
		ctx.load_cert_chain("good.pem", "good.key")
		if mode == "tls10":
		    ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
		    ctx.minimum_version = ctx.maximum_version = ssl.TLSVersion.TLSv1
		def answer(t):
		    f = t.makefile("rb")
		    while len(n := f.read(2)) == 2:
		        q = dns.message.from_wire(f.read(struct.unpack(">H", n)[0]))
		        name = q.question[0].name
		        if b"never" in name.labels:
		            continue
		        r = dns.message.make_response(q)
		        if q.question[0].rdtype == 1:
		            r.answer.append(dns.rrset.from_text(name, 60, "IN", "A", "10.9.9.9"))
		        w = r.to_wire()
		        t.sendall(struct.pack(">H", len(w)) + w)
		def serve(c):
		    try:
		        t = ctx.wrap_socket(c, server_side=True)
		        if mode == "picky":
		            return answer(t)
		        t.recv(2)
		        t.close()
		    except Exception:
		        c.close()
		while True:
		    c, _ = s.accept()
		    threading.Thread(target=serve, args=(c,), daemon=True).start()
	END
	PID[py$1]=$!
	poll 10 grep -qs listening "py$1.err"
}

cluster_dns 53
external_dns
dot_unbound dot good 127.0.0.60 127.0.0.66
dot_unbound dot-expired expired 127.0.0.61
dot_unbound dot-untrusted untrusted 127.0.0.62
python_dot 127.0.0.63 close
python_dot 127.0.0.64 silent
python_dot 127.0.0.65 tls10
python_dot 127.0.0.67 picky

tls() { echo "transportConfig: {transport: TLS, tls: {serverName: ${1:-dns.test}, caBundle: $WORK/ca.pem}}"; }
fwd() { echo "{name: $1, zones: [$1.test], forwardPlugin: {upstreams: [$2], policy: Sequential, $(tls "${3:-}")}}"; }
servers="[
  {name: cluster, zones: [cluster.local], forwardPlugin: {upstreams: [127.0.0.60], $(tls)}},
  $(fwd wrongname 127.0.0.66 other.test),
  $(fwd expired 127.0.0.61), $(fwd untrusted 127.0.0.62), $(fwd closing 127.0.0.63),
  $(fwd silent 127.0.0.64), $(fwd tls10 127.0.0.65),
  {name: failover, zones: [example.com], forwardPlugin: {upstreams: [127.0.0.61, 127.0.0.60], policy: Sequential,
   $(tls)}}]"
cache_at cache 169.254.20.10 servers="$servers"

failures() { metric "resolv_k8s_forward_tls_failures_total{to=\"$1:853\",reason=\"$2\"}"; }
counted() { (($(failures "$1" "$2") > 0)); }

check_match "through DoT: a cluster name" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" \
	"$(q web.shop.svc.cluster.local)"
check "through DoT: unbound asked it" 1 "$(grep -c 'web\.shop\.svc\.cluster\.local\. A' dot.log)"
check "through DoT: a handshake" yes "$( (($(metric 'resolv_k8s_forward_tls_handshakes_total{to="127.0.0.60:853",resumed="false"}') >= 1)) && echo yes)"

# Each broken upstream: SERVFAIL within dig's 3 s, counted by its reason.
for c in "wrongname 127.0.0.66 verification" "expired 127.0.0.61 verification" \
	"untrusted 127.0.0.62 verification" "silent 127.0.0.64 timeout" "tls10 127.0.0.65 handshake"; do
	read -r zone addr reason <<< "$c"
	check_match "$zone: SERVFAIL" "status: SERVFAIL" "$(q "www.$zone.test")"
	eventually "$zone: counted ($reason)" counted "$addr" "$reason"
done
# A server that closes after the handshake: the connection "served" nothing,
# so its queries fail; each close with queries unanswered counted.
check_match "closing: SERVFAIL" "status: SERVFAIL" "$(q www.closing.test)"
eventually "closing: counted (closed)" counted 127.0.0.63 closed
check "wrong serverName: nothing from it reached unbound" 0 "$(grep -c 'wrongname' dot.log)"
said() { grep -q "^resolv-k8s-server: upstream $1:853: $2" cache.err; }
eventually "expired: the log says which upstream and why" said 127.0.0.61 "certificate not accepted: certificate has expired"
eventually "wrong name: the log says why" said 127.0.0.66 "certificate not accepted: hostname mismatch"

check_match "expired first, the good one next: answered" "$(ans www.example.com A 93.184.216.34)" \
	"$(q www.example.com)"

# 2000 distinct misses, 50 in flight (the wildcard answers each).
opened=$(metric 'resolv_k8s_forward_tls_connections_total{to="127.0.0.60:853"}')
for i in $(seq 2000); do echo "m$i.wild.example.com A"; done > misses
dnsperf -s 169.254.20.10 -d misses -n 1 -c 1 -q 50 -t 5 > perf.txt 2>&1
completed=$(awk '/Queries completed:/ { print $3 }' perf.txt)
check "2000 misses: all answered" 2000 "$completed" "$(cat perf.txt)"
now=$(metric 'resolv_k8s_forward_tls_connections_total{to="127.0.0.60:853"}')
check "2000 misses, 50 in flight: at most 20 connections" yes "$( ((now - opened <= 20)) && echo yes)" "opened $((now - opened))"
echo "tls: 2000 misses with 50 in flight opened $((now - opened)) TLS connections"
check "queries reused connections" yes "$( (($(metric 'resolv_k8s_forward_tls_reused_total{to="127.0.0.60:853"}') > 1900)) && echo yes)"

# The server that closes each connection: the next one resumes the session.
resumed() {
	q "www.closing.test" > /dev/null
	(($(metric 'resolv_k8s_forward_tls_handshakes_total{to="127.0.0.63:853",resumed="true"}') > 0))
}
eventually "closing: a new connection resumes the session" resumed

# One pod floods from its two addresses (IPv4 and IPv6, two clients) with
# 800 names a second its DoT upstream never answers; a bystander's misses
# to the same upstream are all answered, and the upstream, answering its
# health checks, is never marked down.
ip -6 addr add fd00:ca::1:1/128 dev lo nodad
ip -6 addr add fd00:ca::11/128 dev nodelocaldns nodad
cache_at shared 169.254.20.11 listen='["169.254.20.11:53", "[fd00:ca::11]:53"]' upstreamResolvers= \
	servers="[{name: shared, zones: [shared.test], forwardPlugin: {upstreams: [127.0.0.67], $(tls)}}]"
check_match "picky upstream: a name answered" "10\.9\.9\.9" "$(ask 169.254.20.11 first.shared.test)"
for i in $(seq 20000); do echo "f$i.never.shared.test A"; done > never
flood() { dnsperf -s "$1" -a "$2" -d never -n 1 -Q 400 -q 4000 -l 90 -t 1 > "flood$3.txt" 2>&1 & PID[flood$3]=$!; }
flood 169.254.20.11 127.0.1.1 4
flood fd00:ca::11 fd00:ca::1:1 6
sleep 3  # the flood's queries fill the connections' slots and wait on them
answered=0
for i in $(seq 20); do
	out=$(ask 169.254.20.11 "b$i.shared.test")
	[[ $out == *10.9.9.9* ]] && answered=$((answered + 1))
	sleep 0.4
done
kill -INT "${PID[flood4]}" "${PID[flood6]}"
wait "${PID[flood4]}" "${PID[flood6]}"
down=$(metric resolv_k8s_forward_upstream_down_total 169.254.20.11)
check "DoT flood from two addresses: the bystander's 20 misses answered" 20 "$answered" \
	"$(cat flood4.txt flood6.txt | grep -E 'sent|completed|lost')"
check "DoT flood: the upstream never marked down" 0 "$down" "$(grep -E 'down' shared.err)"
check "DoT flood: nor said down in the log" 0 "$(logged shared.err 'upstream 127\.0\.0\.67:853 down')"
echo "tls: beside a DoT flood from two addresses the bystander had $answered of 20 answered;" \
	"upstream marked down $down times"

summary
