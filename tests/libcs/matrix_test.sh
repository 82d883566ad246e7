#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# matrix_test.sh BUILD_DIR: gai-probe built against Debian bullseye's,
# trixie's and sid's glibc and musl and experimental's glibc (mk/libcs.mk),
# each run under its own loader, with
# and without the one LD_PRELOAD value inject writes (pod_init's SHIM: its
# $LIB expanded by glibc's loader, taken as it is by musl's). Per libc: the
# loader's version; a first lookup starts, and against --autopath on servers
# answers as the libc alone with at most 2 queries a lookup, all with the
# option; the cases below against --autopath off servers give the libc's
# own output and queries; glibc's getent does too; a preload value naming
# no file changes nothing but one line on stderr; a glibc image of libc.so.6
# alone (ldd's list) autopaths too. A static program ignores
# LD_PRELOAD: only its output is compared; linked with libresolv-k8s.a
# (-rk8s), it is checked as the preloaded ones are, against the same
# program linked with musl alone.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: matrix_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
libcs=$build/libcs
resolv=$POD_ROOT/tests/pod/cases/resolv
cp "$POD_ROOT/tests/musl/hosts" "$WORK/hosts"
preload=$SHIM
missing=/nonexistent/'$LIB'/libresolv-k8s.so
out=$WORK/run

# CONF | FAULTS | PROBE ARGS, as in tests/musl/diff.cases: found at the
# 1st and 2nd search domain, as-is after the walk, NXDOMAIN, NODATA (an
# A-only name asked for inet6, by getaddrinfo and gethostbyname2, and the
# other way round), a CNAME's canonical name, as-is first (ndots:1),
# SERVFAIL at a candidate, gethostbyname, /etc/hosts, AI_ADDRCONFIG with
# loopback only. Then what changed between the versions: options no-aaaa
# (glibc 2.36), cleared by -no-aaaa (2.41), strict-error (2.41, which libc
# answers), a "." in the search list, first, last and twice (musl 1.2.4
# walks past it; glibc 2.44 asks the name as typed once), 40
# addresses, past UDP's 512 bytes (musl 1.2.4 asks again over TCP).
cases='
k8s | - | web
k8s | - | kubernetes.default
k8s | - | www.example.com
k8s | - | nosuch
k8s | - | -f inet6 kubernetes.default
k8s | - | -H -f inet6 kubernetes.default
k8s | - | -f inet v6only.example.com
k8s | - | -F canonname alias.example.com
ndots1 | - | web.shop
k8s | --rcode=web.shop.shop.svc.cluster.local=SERVFAIL | web.shop
k8s | - | -H web.shop
k8s | - | MyHost.Local
k8s | - | -F addrconfig web.shop
no-aaaa | - | web.shop
no-aaaa-cleared | - | web.shop
strict-error | - | web.shop
search-dot | - | www.example.com
search-dot | - | nosuch
search-dot-first | - | www.example.com
search-dot-first | - | web
search-dot-last | - | nosuch
search-dots | - | nope.svc.cluster.local
search-dots | --rcode=nope.svc.cluster.local=REFUSED | nope.svc.cluster.local
search-dots | - | web.shop
k8s | - | -f inet -t stream big.example.com.
'

# use_libc NAME: the suite's root, loader (the command before a program),
# probe of NAME, and what stands for it with us: `ours` preloading `shim`.
use_libc() {
	local suite
	case $1 in
	*-2.31 | *-1.2.2*) suite=bullseye ;;
	*-2.43 | *-1.2.6*) suite=sid ;;
	*-2.44) suite=experimental ;;
	*) suite=trixie ;;
	esac
	root=$libcs/$suite/root
	shim=$preload
	case $1 in
	glibc-*) loader=("$root/lib64/ld-linux-x86-64.so.2" --library-path "$root/lib/x86_64-linux-gnu")
		probe=$libcs/$suite/gai-probe-glibc ;;
	musl-*-static) loader=() probe=$libcs/$suite/gai-probe-musl-static ;;
	musl-*-rk8s) loader=() probe=$libcs/$suite/gai-probe-musl-static shim= ;;
	musl-*) loader=("$root/lib/ld-musl-x86_64.so.1") probe=$libcs/$suite/gai-probe-musl ;;
	esac
	ours=$probe
	[[ $1 == *-rk8s ]] && ours=$libcs/$suite/gai-probe-musl-rk8s
}

# What the loader says it is.
loader_version() {
	case $libc in
	glibc-*) "${loader[@]}" "$root/lib/x86_64-linux-gnu/libc.so.6" | sed -n '1s/.*release version \([0-9.]*\)\.$/\1/p' ;;
	musl-*) "$root/lib/ld-musl-x86_64.so.1" 2>&1 | sed -n 's/^Version //p' ;;
	esac
}

# run TAG PRELOAD MODE CONF FAULTS PROGRAM ARGS...: PROGRAM under the
# libc's loader, with LD_PRELOAD=PRELOAD unless empty (set by bash, a
# program of the machine's libc that must not load it), against MODE
# servers: $out.TAG (stdout, then the exit status), .TAG.err, .TAG.log.
run() {
	local tag=$1 pre=$2 mode=$3 conf=$4 faults=$5
	shift 5
	local -a f=() cmd=("${loader[@]}" "$@")
	[[ $faults == - ]] || read -ra f <<<"$faults"
	[[ $pre ]] && cmd=(bash -c 'export LD_PRELOAD=$0; exec "$@"' "$pre" "${cmd[@]}")
	pod "$out.$tag.log" "$mode" "$resolv/$conf.conf" "${f[@]}" -- "${cmd[@]}" > "$out.$tag" 2> "$out.$tag.err"
	echo "exit $?" >> "$out.$tag"
}

# same_as_libc ID [uniq]: the preloaded run's output and queries are the
# libc's own (musl resends a SERVFAIL'd query, we do not: uniq).
same_as_libc() {
	local same=${2:-cat}
	check "$1: output" "$(< "$out.libc")" "$(< "$out.pre")" "$(head -20 "$out.pre.err")"
	check "$1: queries" "$(queries "$out.libc.log" | $same)" "$(queries "$out.pre.log" | $same)" \
		"$(cut -d' ' -f2- "$out.pre.log")"
}

# queries_per_lookup LOG NAME...: the number of queries for each NAME (of
# the names NAME and NAME.SEARCH-DOMAIN), on one line.
queries_per_lookup() {
	local log=$1 name
	shift
	for name; do grep -c " ${name//./\\.}\." "$log"; done | paste -sd' '
}

matrix() {
	libc=$1
	use_libc "$libc"
	local static=
	[[ $libc == *-static || $libc == *-rk8s ]] && static=1
	echo "== $libc: $probe"
	[[ $static ]] || check "$libc: loader version" "${libc#*-}" "$(loader_version)"
	local needed=libc.so
	[[ $libc == glibc-* ]] && needed=libc.so.6
	[[ $static ]] && needed=
	check "$libc: the probe links ${needed:-no libc}" "$needed" \
		"$(objdump -p "$probe" | awk '$1 == "NEEDED" { print $2 }')"

	run libc "" off k8s - "$probe" web www.example.com
	run pre "$shim" on k8s - "$ours" web www.example.com
	check "$libc: starts with the preload" "exit 0" "$(tail -1 "$out.pre")" "$(head -5 "$out.pre.err")"
	if [[ $(tail -1 "$out.pre") != "exit 0" ]]; then
		echo "    ($libc: its other checks skipped)"
		return
	fi
	check "$libc: autopath: the libc's answers" "$(< "$out.libc")" "$(< "$out.pre")" "$(head -20 "$out.pre.err")"
	if [[ ! $static || $libc == *-rk8s ]]; then
		check "$libc: autopath: at most 2 queries a lookup" ok \
			"$(queries_per_lookup "$out.pre.log" web www.example.com | awk '$1 <= 2 && $2 <= 2 { print "ok"; next } 1')" \
			"$(cut -d' ' -f2- "$out.pre.log")"
		check "$libc: autopath: every query with the option" "" "$(awk '$4 != "opt=yes"' "$out.pre.log")"
	fi
	if [[ $libc == glibc-* ]]; then
		# An image made of ldd's list: libc.so.6 alone of the libc, no
		# libpthread.so.0 or libdl.so.2 (nor NSS modules: we answer).
		local lean=$WORK/lean-$libc full=("${loader[@]}")
		mkdir -p "$lean" && ln -sf "$root/lib/x86_64-linux-gnu/libc.so.6" "$lean/"
		loader=("${loader[0]}" --library-path "$lean")
		run lean "$shim" on k8s - "$probe" web www.example.com
		loader=("${full[@]}")
		check "$libc: libc.so.6 alone (an image of ldd's list): starts, the libc's answers" \
			"$(< "$out.libc")" "$(< "$out.lean")" "$(head -5 "$out.lean.err")"
		check "$libc: libc.so.6 alone: at most 2 queries a lookup" ok \
			"$(queries_per_lookup "$out.lean.log" web www.example.com | awk '$1 <= 2 && $2 <= 2 { print "ok"; next } 1')"
	fi

	local conf faults args same
	while IFS='|' read -r conf faults args; do
		[[ $conf ]] || continue
		read -r conf <<<"$conf"
		read -r faults <<<"$faults"
		read -ra args <<<"$args"
		same=cat
		[[ $libc == musl-* && $faults == *SERVFAIL* ]] && same=uniq
		run libc "" off "$conf" "$faults" "$probe" "${args[@]}"
		run pre "$shim" off "$conf" "$faults" "$ours" "${args[@]}"
		# A "." search domain before musl 1.2.4: musl sends a malformed query
		# (FORMERR) and fails; we end the walk there (README: deliberate).
		if [[ $libc == musl-1.2.2* ]] && queries "$out.libc.log" | grep -q ' TYPE0 '; then
			check "$libc: $conf | ${args[*]}: the walk ends at the \".\" domain, as the README says" \
				"${args[*]}: error EAI_NONAME exit 0 $(queries "$out.libc.log" | grep -v ' TYPE0 ' | xargs)" \
				"$(head -1 "$out.pre") $(tail -1 "$out.pre") $(queries "$out.pre.log" | xargs)"
			continue
		fi
		# 40 addresses before 1.2.4: musl reads the truncated UDP reply; we
		# ask again over TCP (README: deliberate).
		if [[ $libc == musl-1.2.2* && ${args[*]} == *big.example.com* ]]; then
			check "$libc: ${args[*]}: all 40 addresses, over TCP, as the README says" 40 \
				"$(grep -c ' 198\.51\.100\.' "$out.pre")"
			continue
		fi
		same_as_libc "$libc: $conf | $faults | ${args[*]}" $same
	done <<<"$cases"

	run libc "" off k8s - "$probe" web
	run pre "$missing" off k8s - "$probe" web
	check "$libc: preload file missing: output" "$(< "$out.libc")" "$(< "$out.pre")"
	check "$libc: preload file missing: at most one line on stderr" ok \
		"$( (($(wc -l < "$out.pre.err") <= 1)) && echo ok)" "$(< "$out.pre.err")"

	[[ $libc == glibc-* ]] || return
	local getent=$root/usr/bin/getent db name
	for db in ahosts hosts; do
		for name in web www.example.com nosuch; do
			run libc "" off k8s - "$getent" $db $name
			run pre "$preload" off k8s - "$getent" $db $name
			same_as_libc "$libc: getent $db $name"
		done
	done
}

for libc in glibc-2.31 glibc-2.41 glibc-2.43 glibc-2.44 musl-1.2.2 musl-1.2.5 musl-1.2.6 musl-1.2.5-static \
	musl-1.2.6-static musl-1.2.2-rk8s musl-1.2.5-rk8s musl-1.2.6-rk8s; do
	matrix $libc
done
summary
