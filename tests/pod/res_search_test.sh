#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# res_search_test.sh BUILD_DIR: glibc's res_search and res_nsearch
# (res-dump) without and with the shim, any query type. Against --autopath
# off servers: glibc's replies, h_errno and queries. Against --autopath on:
# glibc's replies and h_errno, in at most one query per lookup for a name
# found or missing everywhere. glibc's own queries, none with the option,
# for a state the application changed (-D) and RESOLV_K8S=off; a buffer too
# small for the reply: our query, then glibc's walk.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
build=${1:?usage: res_search_test.sh BUILD_DIR}
pod_init "$build"
RES=$build/tests/res-dump
k8s=$POD_ROOT/tests/pod/cases/resolv/k8s.conf
sed 's/^options /options edns0 /' "$k8s" > "$WORK/edns0.conf"

# run NAME MODE CONF [FAULT...] -- [ENV...]: res-dump ARGS ($args) with the
# environment ENV (LD_PRELOAD=... for the shim); output in $WORK/NAME.
run() {
	local name=$1 mode=$2 conf=$3
	shift 3
	local -a faults=()
	while [[ $1 != -- ]]; do faults+=("$1"); shift; done
	shift
	pod "$WORK/$name.log" "$mode" "$conf" "${faults[@]}" -- env "$@" RESOLV_K8S_DEBUG=1 \
		"$RES" "${args[@]}" > "$WORK/$name" 2> "$WORK/$name.trace"
}
shim=(LD_PRELOAD="$build/preload/\$LIB/libresolv-k8s.so")
count() { wc -l < "$1"; }

# Lines: [conf=edns0] [fault=FLAG] [many] PROBE_ARGS. `many`: glibc's
# verdict needs the classic walk (a failure on the way), so the one-query
# check is skipped.
while read -r -a words; do
	[[ ${#words[@]} == 0 || ${words[0]} == \# ]] && continue
	conf=$k8s faults=() many=
	while [[ ${words[0]} == *=* || ${words[0]} == many ]]; do
		case ${words[0]} in
		conf=*) conf=$WORK/${words[0]#conf=}.conf ;;
		fault=*) faults+=("${words[0]#fault=}") ;;
		many) many=1 ;;
		esac
		words=("${words[@]:1}")
	done
	args=("${words[@]}") id="${words[*]}${faults[*]:+ [${faults[*]}]}${conf##*/k8s.conf}"

	run glibc off "$conf" "${faults[@]}" -- LANG=C
	expected=$(< "$WORK/glibc") classic=$(queries "$WORK/glibc.log" strict)
	run classic off "$conf" "${faults[@]}" -- "${shim[@]}"
	check "$id: reply, classic" "$expected" "$(< "$WORK/classic")" "$(head -20 "$WORK/classic.trace")"
	check "$id: glibc's queries" "$classic" "$(queries "$WORK/classic.log" strict)"

	run glibc-on on "$conf" "${faults[@]}" -- LANG=C
	run on on "$conf" "${faults[@]}" -- "${shim[@]}"
	check "$id: reply, autopath" "$(< "$WORK/glibc-on")" "$(< "$WORK/on")" \
		"$(head -20 "$WORK/on.trace")"
	[[ $many ]] || check "$id: one query" 1 "$(count "$WORK/on.log")" "$(cut -d' ' -f2- "$WORK/on.log")"
done <<'EOF'
-t SRV _http._tcp.web
-t SRV _https._tcp.kubernetes.default
-t SRV _postgres._tcp.db
-t SRV _dns._udp.kube-dns.kube-system
-t SRV _sip._tcp.example.com
-t MX mail.example.com
-t TXT txt.example.com
-t A web
-t AAAA web.shop
-t A payments
-t A legacy.default
-t CNAME legacy.default
-t A nosuch
-t TXT web
-t A www.example.com.
-t A a.b.c.d.e.f
-N -t SRV _http._tcp.web
-N -t A nosuch
conf=edns0 -t SRV _https._tcp.kubernetes.default
conf=edns0 -b 600 -t TXT txt.example.com
fault=--rcode=nosuch.shop.svc.cluster.local=SERVFAIL many -t A nosuch
fault=--rcode=web.shop.svc.cluster.local=REFUSED many -t SRV _http._tcp.web
EOF

# glibc's own walk, queries included, where the shim stands aside.
while read -r -a args; do
	id="${args[*]}" env=()
	[[ ${args[0]} == off ]] && args=("${args[@]:1}") env=(RESOLV_K8S=off)
	run glibc on "$k8s" -- LANG=C
	run shim on "$k8s" -- "${shim[@]}" "${env[@]}"
	check "$id: reply, glibc's" "$(< "$WORK/glibc")" "$(< "$WORK/shim")" "$(head -20 "$WORK/shim.trace")"
	check "$id: glibc's queries" "$(queries "$WORK/glibc.log" strict)" \
		"$(queries "$WORK/shim.log" strict)"
	check "$id: no option" "" "$(awk '$4 == "opt=yes"' "$WORK/shim.log")"
done <<'EOF'
-D -t SRV _http._tcp.web
-D -t A web.shop.svc.cluster.local
-N -D -t A web
off -t SRV _http._tcp.web
EOF

# A reply beyond the caller's buffer: glibc answers, after our query.
args=(-b 40 -t SRV _postgres._tcp.db)
run glibc on "$k8s" -- LANG=C
run shim on "$k8s" -- "${shim[@]}"
check "${args[*]}: reply, glibc's" "$(< "$WORK/glibc")" "$(< "$WORK/shim")"
check "${args[*]}: our query, then glibc's" "opt=yes
$(queries "$WORK/glibc.log" strict)" \
	"$(awk 'NR == 1 { print $4 }' "$WORK/shim.log")
$(tail -n +2 "$WORK/shim.log" | queries /dev/stdin strict)"
summary
