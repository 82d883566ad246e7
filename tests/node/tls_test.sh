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
# say nothing), tls10 (TLS 1.0 only).
python_dot() {
	python3 - "$1" "$2" > "py$1.err" 2>&1 <<-'END' &
		import socket, ssl, sys, threading
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
		def serve(c):
		    try:
		        t = ctx.wrap_socket(c, server_side=True)
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

summary
