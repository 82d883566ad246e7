#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dig_test.sh SERVER: resolv-k8s-server in a pod sandbox, queried with dig.
# Every record kind, NXDOMAIN vs NODATA, every autopath status, the other
# --autopath modes, faults, TCP and truncation. Prints "N passed, M failed".
set -uo pipefail
source "$(dirname "$0")/lib.sh"
fixtures=tests/fixtures
data=(--cluster $fixtures/cluster.json --zone $fixtures/example.com.zone
	--zone $fixtures/corp.example.zone)

"$server" --listen 127.0.0.53:53 --listen '[::1]:53' "${data[@]}" \
	--rcode broken.example.com=SERVFAIL --rcode refused.example.com/AAAA=REFUSED \
	--drop dropped.example.com --metrics 127.0.0.53:9153 --query-log $work/query.log 2>>$work/server.log &
"$server" --listen 127.0.0.54:53 "${data[@]}" --autopath off 2>>$work/server.log &
"$server" --listen 127.0.0.55:53 "${data[@]}" --autopath formerr 2>>$work/server.log &
"$server" --listen 127.0.0.56:53 "${data[@]}" --autopath echo 2>>$work/server.log &
"$server" --listen 127.0.0.57:53 "${data[@]}" --autopath-code 65000 2>>$work/server.log &
for ip in 53 54 55 56 57; do
	for _ in $(seq 50); do
		dig +time=1 +tries=1 @127.0.0.$ip cluster.local SOA >/dev/null 2>&1 && break
		sleep 0.1
	done
done

source "$(dirname "$0")/../lib/assert.sh"
source "$(dirname "$0")/../lib/dig.sh"
# answers RULE REGEX DIG-ARGS...: dig's whole output matches the extended
# regex ('.' matches newlines too); lacks: does not.
answers() { local rule=$1 regex=$2; shift 2; check_match "$rule: dig $*" "$regex" "$(dig_output "$@")"; }
lacks() { local rule=$1 regex=$2; shift 2; check_match -v "$rule: dig $*" "$regex" "$(dig_output "$@")"; }
dig_output() { dig +nocookie +time=2 +tries=1 "$@" 2>&1; }

shop=(shop.svc.cluster.local svc.cluster.local cluster.local .)
s=@127.0.0.53

# --- the Kubernetes schema
answers "ClusterIP A" "$(ans kubernetes.default.svc.cluster.local A 10.96.0.1)" $s kubernetes.default.svc.cluster.local
answers "dual stack AAAA" "$(ans web.shop.svc.cluster.local AAAA fd00:10:96::110)" $s web.shop.svc.cluster.local AAAA
answers "headless: ready endpoints" "ANSWER: 3," $s db.shop.svc.cluster.local
answers "endpoint hostname" "$(ans db-0.db.shop.svc.cluster.local A 10.244.1.5)" $s db-0.db.shop.svc.cluster.local
answers "not-ready endpoint" "status: NXDOMAIN" $s db-2.db.shop.svc.cluster.local
answers "SRV, normal service" "$(ans _http._tcp.web.shop.svc.cluster.local SRV '0 50 80 web.shop.svc.cluster.local.')" $s _http._tcp.web.shop.svc.cluster.local SRV
answers "SRV, headless" "SRV\s+0 33 5432 db-1\.db\.shop" $s _postgres._tcp.db.shop.svc.cluster.local SRV
answers "ExternalName CNAME" "$(ans payments.shop.svc.cluster.local CNAME payments.example.com.)" $s payments.shop.svc.cluster.local
answers "pod A" "$(ans 10-244-1-10.shop.pod.cluster.local A 10.244.1.10)" $s 10-244-1-10.shop.pod.cluster.local
answers "hostname.subdomain" "$(ans w1.workers.shop.svc.cluster.local A 10.244.2.30)" $s w1.workers.shop.svc.cluster.local
answers "PTR service" "PTR\s+web\.shop\.svc\.cluster\.local\." $s -x 10.96.1.10
answers "PTR v6 service" "PTR\s+web\.shop\.svc\.cluster\.local\." $s -x fd00:10:96::110
answers "no PTR of a pod, as CoreDNS" "status: NXDOMAIN" $s -x 10.244.0.2
answers "namespace: NODATA" "status: NOERROR.*ANSWER: 0" $s shop.svc.cluster.local
answers "svc.domain: NODATA" "status: NOERROR.*ANSWER: 0" $s svc.cluster.local
answers "unknown service: NXDOMAIN" "status: NXDOMAIN" $s nope.shop.svc.cluster.local
answers "negative answer carries SOA" "cluster\.local\.\s+5\s+IN\s+SOA" $s nope.shop.svc.cluster.local
answers "NS of the cluster domain" "$(ans cluster.local NS ns.dns.cluster.local.)" $s cluster.local NS
answers "closed world" "status: NXDOMAIN" $s www.kubernetes.io
# --- zones
answers "zone A" "$(ans www.example.com A 93.184.216.34)" $s www.example.com
answers "zone MX" "MX\s+10 mx1\.example\.com\." $s mail.example.com MX
answers "zone TXT" 'TXT\s+"hello world" "two" "semi;colon"' $s txt.example.com TXT
answers "wildcard" "$(ans x.y.wild.example.com A 192.0.2.77)" $s x.y.wild.example.com
answers "CNAME chain" "$(ans www.example.com A 93.184.216.34)" $s chain.example.com
answers "A-only: AAAA NODATA" "status: NOERROR.*ANSWER: 0" $s v4only.example.com AAAA
answers "zone SOA negative TTL" "example\.com\.\s+3600\s+IN\s+SOA" $s nope.example.com
# --- autopath statuses
answers "MATCHED 0" "$(reply 0 0)" $s web.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "MATCHED 3: CNAME" "$(ans www.example.com.shop.svc.cluster.local CNAME www.example.com.)" \
	$s www.example.com.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "MATCHED 3: status" "$(reply 0 3)" $s www.example.com.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "EXHAUSTED: NXDOMAIN" "status: NXDOMAIN" $s nope.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "EXHAUSTED: status" "$(reply 1 255)" $s nope.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "PAIRED: NODATA points at the candidate" "$(reply 0 1)" $s v4only.sub.example.com AAAA $(opt 2 sub.example.com example.com)
answers "STOP_ON_EXISTS" "$(reply 0 0)" $s empty.svc.cluster.local $(opt 4 svc.cluster.local .)
answers "BOTH: AAAA in additional" "ADDITIONAL SECTION:.*$(ans www.example.com AAAA 2606:2800:220:1:248:1893:25c8:1946)" $s www.sub.example.com $(opt 8 sub.example.com example.com)
answers "BOTH: echoed" "$(reply 0 1 8)" $s www.sub.example.com $(opt 8 sub.example.com example.com)
answers "SERVFAIL_SEEN" "$(reply 2 255)" $s broken.example.com $(opt 0 example.com .)
answers "SERVFAIL_SEEN rcode" "status: SERVFAIL" $s broken.example.com $(opt 0 example.com .)
answers "REJECTED: answered plainly" "$(reply 3 255)" $s web.shop.svc.cluster.local $(opt 0 example.com)
answers "REJECTED: bad version" "$(reply 3 255)" $s web.shop.svc.cluster.local +ednsopt=65431:0201$(wire shop.svc.cluster.local)
answers "another --autopath-code: plain answer" "status: NXDOMAIN" @127.0.0.57 web.shop.shop.svc.cluster.local $(opt 0 "${shop[@]}")
lacks "another --autopath-code: no reply option" "OPT=65431" @127.0.0.57 web.shop.shop.svc.cluster.local $(opt 0 "${shop[@]}")
# --- modes
answers "off: plain answer" "status: NXDOMAIN" @127.0.0.54 web.shop.shop.svc.cluster.local $(opt 0 "${shop[@]}")
lacks "off: no reply option" "OPT=65431" @127.0.0.54 web.shop.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "formerr" "status: FORMERR" @127.0.0.55 web.shop.svc.cluster.local $(opt 0 "${shop[@]}")
answers "formerr: no options, no error" "status: NOERROR" @127.0.0.55 web.shop.svc.cluster.local
answers "echo: Q still set" "OPT=65431: 01 01 04 73" @127.0.0.56 web.shop.svc.cluster.local $(opt 0 "${shop[@]}")
# --- faults, transport
answers "--rcode on one type" "status: REFUSED" $s refused.example.com AAAA
answers "--drop" "timed out|no servers could be reached" $s dropped.example.com
answers "TCP" "$(ans www.example.com A 93.184.216.34)" $s www.example.com +tcp
answers "IPv6 listener" "$(ans www.example.com A 93.184.216.34)" @::1 www.example.com
answers "UDP 512: truncated" "flags: qr aa tc" $s big.example.com +bufsize=512 +ignore
answers "no EDNS: truncated" "flags: qr aa tc" $s big.example.com +noedns +ignore
answers "bufsize 1232: whole" "ANSWER: 40," $s big.example.com +bufsize=1232
answers "TC then TCP" "ANSWER: 40," $s big.example.com +noedns
# Three queries in one TCP write: three replies, in order.
pipelined=$(python3 - <<'END'
import socket, struct
def query(i, name):
    q = struct.pack(">HHHHHH", i, 0x0100, 1, 0, 0, 0)
    q += b"".join(bytes([len(l)]) + l.encode() for l in name.split(".")) + b"\0\0\1\0\1"
    return struct.pack(">H", len(q)) + q
s = socket.create_connection(("127.0.0.53", 53), timeout=5)
s.sendall(b"".join(query(i, n) for i, n in enumerate(["www.example.com", "nope.example.com", "web.shop.svc.cluster.local"], 1)))
f = s.makefile("rb")
for _ in range(3):
    n = struct.unpack(">H", f.read(2))[0]
    m = f.read(n)
    print(struct.unpack(">H", m[:2])[0], m[3] & 15, end=" ")
END
)
check "TCP pipelining: id rcode per reply" "1 0 2 3 3 0 " "$pipelined"

# --- query log and metrics
logged="www.example.com.shop.svc.cluster.local. A opt=yes NOERROR autopath=MATCHED index=3 walked=4"
check "query log" yes "$(grep -q "$logged" $work/query.log && echo yes)" "$(head -5 $work/query.log)"
metrics=$(curl -s http://127.0.0.53:9153/metrics)
check "metrics" yes "$(grep -q 'resolv_k8s_autopath_total{status="matched"} [1-9]' <<<"$metrics" &&
	grep -q 'resolv_k8s_autopath_queries_saved_total [1-9]' <<<"$metrics" &&
	grep -q 'resolv_k8s_queries_total{type="SRV",rcode="NOERROR"} [1-9]' <<<"$metrics" && echo yes)" "$metrics"
check "metrics port: 404 on any other path" 404 "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.53:9153/)"
check_match "the start line: what it listens on, metrics included" \
	"listening on 127.0.0.53:53, \[::1\]:53; metrics \(/metrics\) on 127.0.0.53:9153" "$(< $work/server.log)"

# --- start-up: a one-line error and a non-zero exit, never half-loaded
startup() { # RULE REGEX SERVER-ARGS...
	local rule=$1 want=$2 out rc
	shift 2
	out=$(timeout 5 "$server" "$@" 2>&1)
	rc=$?
	check "$rule" yes "$([[ $rc != 0 && $rc != 124 && $(wc -l <<<"$out") == 1 ]] &&
		grep -Eq -- "$want" <<<"$out" && echo yes)" "$out (exit $rc)"
}
printf '{"items": [\n{"kind": }]}' >"$work/bad.json"
printf '$ORIGIN x.\n@ 60 SOA a b 1 2 3 4 5\nwww 60 A 1.2.3\n' >"$work/bad.zone"
startup "malformed JSON" "^resolv-k8s-server: $work/bad.json:2: Syntax error: value, object or array expected\.$" \
	--listen 127.0.0.60:53 --cluster "$work/bad.json"
startup "malformed zone" "^resolv-k8s-server: $work/bad.zone:3: bad address '1.2.3'$" \
	--listen 127.0.0.60:53 --zone "$work/bad.zone"
startup "unreadable file" "^resolv-k8s-server: /nonexistent.zone: No such file or directory$" \
	--listen 127.0.0.60:53 --zone /nonexistent.zone
# Another instance may share a port (SO_REUSEPORT); another program may not.
python3 -c 'import socket, time; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.61", 53)); time.sleep(10)' &
holder=$!
for _ in $(seq 100); do  # python may take a while to start on a busy machine
	[[ -n $(ss -Hlun src 127.0.0.61:53) ]] && break
	sleep 0.1
done
startup "port in use" "^resolv-k8s-server: bind 127.0.0.61:53/udp: Address already in use$" \
	--listen 127.0.0.61:53
kill $holder
startup "bad flag" "^resolv-k8s-server: unknown flag --frob" --listen 127.0.0.60:53 --frob 1
startup "bad fault" "^resolv-k8s-server: --rcode: bad value 'x=BOGUS'$" --listen 127.0.0.60:53 --rcode x=BOGUS
startup "no arguments" "^resolv-k8s-server: give --config FILE \(as the DaemonSet does\) or --listen ADDR:PORT"
"$server" --listen 127.0.0.62:53 --zone $fixtures/example.com.zone 2>"$work/term.log" &
term=$!
poll 30 grep -qs listening "$work/term.log"
kill -TERM $term
wait $term
rc=$?
check_match "SIGTERM: said, then an exit of 0" "SIGTERM: no new queries.*exit 0" "$(tr '\n' ' ' < "$work/term.log") exit $rc"

summary
