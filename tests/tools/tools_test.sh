#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tools_test.sh BUILD_DIR: `resolv-k8s` conf, plan, lookup and stats, and the
# counters file the preload writes (RESOLV_K8S_STATS). Needs root for the
# pod sandboxes; packets stay on loopback.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: tools_test.sh BUILD_DIR}"
here=$POD_ROOT/tests/tools
cli() { env -u LOCALDOMAIN -u RES_OPTIONS "${1:?}/bin/resolv-k8s" "${@:2}"; }
build=$(cd "$1" && pwd)

check "conf: a kubelet resolv.conf" \
"dialect     glibc
nameserver  127.0.0.53
search      shop.svc.cluster.local svc.cluster.local cluster.local corp.example
ndots       5
timeout     5 s
attempts    2
options     (none)
autopath    on, option code 65431
warnings    none" "$(cli "$build" conf "$here/kubelet.conf")"

check "conf: every warning in words" \
"dialect     glibc
nameserver  127.0.0.53
nameserver  fe80::1%1
search      a.example b.example
ndots       15
timeout     5 s
attempts    0
options     rotate edns0
autopath    off, option code 65431
warning     a nameserver line the libc drops
warning     attempts:0 (glibc sends nothing, musl crashes): the library uses 1
warning     ndots, timeout or attempts above the libc's cap: capped
warning     a k8s-autopath word that could not be read: ignored" "$(cli "$build" conf "$here/odd.conf")"

check "plan: a Service by short name" \
"web: glibc, ndots 5, family unspec
classic walk, in order (2 queries each):
  1  web.shop.svc.cluster.local.
  2  web.svc.cluster.local.
  3  web.cluster.local.
  4  web.corp.example.
  5  web.
autopath query (2 instead of up to 10):
  QNAME     web.shop.svc.cluster.local.
  suffixes  shop.svc.cluster.local. svc.cluster.local. cluster.local. corp.example. .
  flags     Q STOP_ON_EXISTS PAST_NODATA PAIRED (then BOTH, one query for A and AAAA, once the server has shown support)
  code      65431" "$(cli "$build" plan --conf "$here/kubelet.conf" web)"

check "plan: musl, one family, dots >= ndots: one candidate" \
"a.b.c.d.e.f: musl, ndots 5, family inet
classic walk, in order (1 query each):
  1  a.b.c.d.e.f.
autopath: none (one candidate: asked as it is)" \
	"$(cli "$build" plan --musl -f inet --conf "$here/kubelet.conf" a.b.c.d.e.f)"

check "plan: switched off in resolv.conf" "autopath: off (options k8s-autopath:off)" \
	"$(cli "$build" plan --conf "$here/odd.conf" x | tail -1)"

for bad in "" "nosuch" "plan" "plan -f inet7 web" "conf a b" "stats"; do
	# shellcheck disable=SC2086 # each case is a list of words
	out=$(cli "$build" $bad 2>&1)
	check "bad usage '$bad': exit 2, one line" "2 1" "$? $(wc -l <<<"$out")"
done
check "a flag without its value: named" "2 resolv-k8s: plan: -f needs a value (resolv-k8s --help)" \
	"$(out=$(cli "$build" plan web -f 2>&1); echo "$? $out")"
for cmd in conf plan lookup stats inject webhook; do
	check "$cmd --help: the help, exit 0" "0 usage: resolv-k8s COMMAND [ARGS]" \
		"$(out=$(cli "$build" $cmd --help 2>&1); echo "$? $(head -1 <<<"$out")")"
done

# kubernetes.default is candidate 2: the server walks to it.
log=$WORK/lookup.log
out=$(pod "$log" on "$here/kubelet.conf" -- "$build/bin/resolv-k8s" lookup -f inet kubernetes.default 2>&1)
check "lookup: the option on the wire" \
	"kubernetes.default.shop.svc.cluster.local. A opt=yes NOERROR autopath=MATCHED index=1 walked=2" \
	"$(cut -d' ' -f2- "$log")"
check "lookup: the trace, the address, the counters" \
"resolv-k8s:   -> kubernetes.default.shop.svc.cluster.local A +autopath
  inet   10.96.0.1
  canonical name kubernetes.default.svc.cluster.local
counters: 1 lookups (1 reached DNS), 1 queries sent, the classic walk: 2 (saved 1)" \
	"$(grep -e '->' -e '^  inet' -e canonical -e counters <<<"$out")" "$out"

# --conf: that file, not /etc/resolv.conf (kubelet.conf with autopath off:
# the classic walk's two queries).
sed 's/k8s-autopath:on/k8s-autopath:off/' "$here/kubelet.conf" > "$WORK/off.conf"
out=$(pod "$log" on "$here/kubelet.conf" -- "$build/bin/resolv-k8s" lookup --conf "$WORK/off.conf" -f inet kubernetes.default 2>&1)
check "lookup --conf FILE: FILE's options (autopath off), not /etc/resolv.conf's" \
	"counters: 1 lookups (1 reached DNS), 2 queries sent, the classic walk: 2 (saved 0)" "$(grep counters <<<"$out")" "$out"
check "lookup --conf FILE: a missing FILE named, exit 1" "1 resolv-k8s lookup: /nonexistent: No such file or directory" \
	"$(out=$(cli "$build" lookup --conf /nonexistent web 2>&1); echo "$? $out")"

# Two processes share one file: web is candidate 1 and shows the server's
# support, so kubernetes.default then goes out as one query (BOTH).
stats=$WORK/stats
pod "$log" on "$here/kubelet.conf" -- bash -c 'for i in 1 2; do
	env LD_PRELOAD="$1" RESOLV_K8S_STATS="$2" "$3" -t stream web kubernetes.default >/dev/null; done' \
	- "$SHIM" "$stats" "$PROBE"
block="resolv_k8s_lookups_total 2
resolv_k8s_dns_lookups_total 2
resolv_k8s_queries_sent_total 3
resolv_k8s_queries_classic_total 6
resolv_k8s_queries_saved_total 3
resolv_k8s_autopath_total 2
resolv_k8s_fallbacks_total 0
resolv_k8s_libc_total 0
resolv_k8s_server_autopath{server=\"127.0.0.53\",support=\"yes\"} 1"
check "stats: one block per process, the right counts" "$block
$block" "$(grep -v '^#\|lookup_duration' "$stats" | sed 's/pid="[0-9]*",\{0,1\}//; s/{}//')" "$(cat "$stats")"
# Latency: 17 buckets, cumulative, ending at the count of calls (2 a process).
check "stats: a latency histogram per process" "17 2 2 yes yes" \
	"$(grep -c 'lookup_duration_seconds_bucket{pid="[0-9]*",le=' "$stats" | awk '{print $1 / 2}') \
$(grep -c 'lookup_duration_seconds_count{pid="[0-9]*"} 2$' "$stats") \
$(grep -c 'le="+Inf"} 2$' "$stats") \
$(awk -F'} ' '/_bucket/ { if ($2 < prev && !/le="0.0001"/) bad = 1; prev = $2 } END { print bad ? "no" : "yes" }' "$stats") \
$(cli "$build" stats "$stats" | awk '/^total/ { print ($(NF-1) > 0 && $(NF-1) <= $NF) ? "yes" : "no" }')" "$(cat "$stats")"
check "stats: each block names its process" "2 2" \
	"$(grep -c "^# resolv-k8s pid=[0-9]* exe=$PROBE$" "$stats") $(cut -d'"' -f2 "$stats" | grep -v '^#' | sort -u | wc -l)"
check "stats: the command's total, before p50 and p99" \
"total 2 processes 4 4 6 12 6 4 0 0" \
	"$(cli "$build" stats "$stats" | awk '/^total/ { NF -= 2; print }')"
check "stats: what each server showed" "server 127.0.0.53: autopath support yes" \
	"$(cli "$build" stats "$stats" | grep ^server)"

# A process that runs on writes while it runs, at most every 5 s, its
# block replacing its last: lookups of 1.5 s or more each (the server's
# delay), the clock started by the first, write some 6 s later and 6 s
# after that. Killed once the first block is there (30 s at most), no exit
# of its own: one block, of the lookups so far.
rm -f "$stats"
pod "$log" on "$here/kubelet.conf" --delay-ms=1500 -- bash -c \
	'LD_PRELOAD=$0 RESOLV_K8S_STATS=$1 "$2" -n 100 -t stream web >/dev/null &
	for _ in $(seq 300); do grep -qs "^# resolv-k8s pid=" "$1" && break; sleep 0.1; done
	kill -9 $!' \
	"$SHIM" "$stats" "$PROBE"
check "stats while running: one block, written before the process ended, of the lookups so far" "1 yes" \
	"$(grep -c '^# resolv-k8s pid=' "$stats") $(awk '/^resolv_k8s_lookups_total/ { print ($2 >= 1 && $2 < 100) ? "yes" : "no" }' "$stats")" \
	"$(cat "$stats")"

# Processes come and go: the file keeps the 64 that wrote last, one block
# each, so its size stays bounded.
rm -f "$stats"
pod "$log" on "$here/kubelet.conf" -- bash -c 'for i in $(seq 70); do
	LD_PRELOAD=$0 RESOLV_K8S_STATS=$1 "$2" -t stream web >/dev/null; done; LD_PRELOAD=$0 RESOLV_K8S_STATS=$1 "$2" -n 2 -t stream web >/dev/null' \
	"$SHIM" "$stats" "$PROBE"
check "stats of 71 processes: the 64 last, one block each, the last one's whole" "64 64 2" \
	"$(grep -c '^# resolv-k8s pid=' "$stats") $(grep '^# resolv-k8s pid=' "$stats" | sort -u | wc -l) $(tail -n +2 "$stats" | awk '/^# resolv-k8s/ { n = 0 } /^resolv_k8s_lookups_total/ { n = $2 } END { print n }')" \
	"$(head -c 2000 "$stats")"
check "stats: the command reads 64 processes" "total 64 processes 65" \
	"$(cli "$build" stats "$stats" | awk '/^total/ { print $1, $2, $3, $4 }')"

rm -f "$stats"
pod "$log" on "$here/kubelet.conf" -- env LD_PRELOAD="$SHIM" RESOLV_K8S=off RESOLV_K8S_STATS="$stats" \
	"$PROBE" web >/dev/null
check "stats: nothing written with RESOLV_K8S=off" "absent" "$([[ -e $stats ]] && echo present || echo absent)"

summary
