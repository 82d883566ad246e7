#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# hostent_test.sh BUILD_DIR: gethostbyname, gethostbyname2 and the _r forms
# (gai-probe -H [-R] [-f inet6]) of glibc and musl, without and with the
# shim. Against --autopath off servers: the same output per name and the
# same queries. Against --autopath on: the same output, fewer queries in all.
# KNOWN lists the differences that lie outside the hostent code; they are
# printed, not counted.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
build=${1:?usage: hostent_test.sh BUILD_DIR}
pod_init "$build"
conf=$POD_ROOT/tests/pod/cases/resolv/k8s.conf
# Aliases, a name on lines of both families, `multi on` from Debian's host.conf.
printf '%s\n' '127.0.0.1 localhost' '::1 localhost ip6-localhost' \
	'10.1.2.3 MyHost.local myhost alias2' 'fd00::5 myhost' '10.1.2.4 myhost other' > "$WORK/hosts"

# Hosts with aliases; services in 1st-3rd search domain; ExternalName and
# CNAME chains; missing names; NODATA; numeric forms; trailing dots.
names=(myhost MYHOST alias2 web web.shop kubernetes.default kube-dns.kube-system.svc db
	payments chain.example.com legacy.default nosuch nosuch.example.com v6only.example.com
	v4only.example.com www.example.com. example.org 1.2.3 10.0.0.256 1.2.3.4. ::1 fe80::1%1
	ab:cd x.wild bad_name)
modes=("-H" "-H -f inet6" "-H -R" "-H -R -f inet6")
# One name per fault: SERVFAIL before the end, at the end (errno: ret=11),
# REFUSED, FORMERR.
faults=("--rcode=nosuch.shop.svc.cluster.local=SERVFAIL nosuch"
	"--rcode=a.b.c.d.e.f.cluster.local=SERVFAIL a.b.c.d.e.f"
	"--rcode=nosuch=SERVFAIL nosuch"
	"--rcode=web.shop.svc.cluster.local=REFUSED web"
	"--rcode=nosuch.example.com=FORMERR nosuch.example.com")

# Keys: [on] LIBC MODE NAME [FAULT], or queries LIBC MODE NAME [FAULT].
declare -A KNOWN=()
for m in "${modes[@]}"; do
	# EXHAUSTED carries only QNAME's rcode: glibc's NODATA seen at a later
	# candidate is lost (lookup.cc take_verdict; the protocol).
	for n in v6only.example.com v4only.example.com kubernetes.default kube-dns.kube-system.svc; do
		KNOWN["on glibc $m $n"]=1
	done
	# A CNAME without records of the type stops glibc's walk (NO_RECOVERY);
	# the server's walk goes on (its match rule).
	KNOWN["on glibc $m payments"]=1
	# glibc's error precedence (as-is first, REFUSED and FORMERR stop the
	# search) against the server's SERVFAIL_SEEN.
	for f in "${faults[@]:1}"; do KNOWN["on glibc $m ${f#* } [${f%% *}]"]=1; done
	# musl resends a SERVFAIL to every server twice; our transport does not.
	KNOWN["queries musl $m nosuch [${faults[0]%% *}]"]=1
	KNOWN["queries musl $m nosuch [${faults[2]%% *}]"]=1
	# musl ignores a FORMERR reply and times out (EAI_AGAIN); the core's
	# musl walk ends with EAI_FAIL (walk.cc take_musl).
	f=${faults[4]}
	KNOWN["musl $m ${f#* } [${f%% *}]"]=1 KNOWN["on musl $m ${f#* } [${f%% *}]"]=1
done
known=0

# compare ID EXPECTED ACTUAL: check, unless ID is a known difference that
# still differs.
compare() {
	if [[ ${KNOWN[$1]:-} && $2 != "$3" ]]; then
		((++known))
		echo "known - $1: $(tr '\n' ' ' <<<"$3")"
	else
		check "$1" "$2" "$3"
	fi
}

# per_name OUTPUT NAME: the probe's lines for NAME.
per_name() { grep -F -- "$2: " <<<"$1" | grep -- "^$2: " || true; }

# run LIBC MODE FAULT NAMES...
run() {
	local libc=$1 mode=$2 fault=$3 probe=$build/tests/gai-probe-$1 so=$SHIM
	shift 3
	local -a f=() m
	[[ $fault == - ]] || f=("$fault")
	read -ra m <<<"$mode"
	local plain shim on n tag=
	[[ $fault == - ]] || tag=" [$fault]"
	plain=$(pod "$WORK/plain.log" off "$conf" "${f[@]}" -- "$probe" "${m[@]}" "$@" 2>&1)
	shim=$(pod "$WORK/shim.log" off "$conf" "${f[@]}" -- env LD_PRELOAD="$so" "$probe" "${m[@]}" "$@" 2>&1)
	on=$(pod "$WORK/on.log" on "$conf" "${f[@]}" -- env LD_PRELOAD="$so" "$probe" "${m[@]}" "$@" 2>&1)
	for n; do
		local want
		want=$(per_name "$plain" "$n")
		[[ $want ]] || { check "$libc $mode $n$tag: probe printed nothing" x ""; continue; }
		compare "$libc $mode $n$tag" "$want" "$(per_name "$shim" "$n")"
		compare "on $libc $mode $n$tag" "$want" "$(per_name "$on" "$n")"
	done
	local id="queries $libc $mode ${*: -1}$tag"
	compare "$id" "$(queries "$WORK/plain.log")" "$(queries "$WORK/shim.log")"
	classic=$((classic + $(wc -l < "$WORK/plain.log"))) sent=$((sent + $(wc -l < "$WORK/on.log")))
}

for libc in glibc musl; do
	classic=0 sent=0
	for mode in "${modes[@]}"; do
		run "$libc" "$mode" - "${names[@]}"
		for fault in "${faults[@]}"; do run "$libc" "$mode" $fault; done
	done
	check "$libc: autopath sends fewer queries ($sent of $classic)" yes "$( ((sent < classic)) && echo yes)"
	# RESOLV_K8S=off: libc's own functions answer.
	out=$(pod "$WORK/x.log" off "$conf" -- env RESOLV_K8S=off LD_PRELOAD="$SHIM" \
		"$build/tests/gai-probe-$libc" -H -R web nosuch 2>&1)
	check "$libc RESOLV_K8S=off" "$(pod "$WORK/x.log" off "$conf" -- "$build/tests/gai-probe-$libc" -H -R web nosuch 2>&1)" "$out"
done
echo "$known known differences"
summary
