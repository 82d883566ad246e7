#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# glibc_autopath_test.sh BUILD_DIR: the shim against servers that speak
# autopath (--autopath on), reject it (formerr) or echo it (echo), each
# lookup done twice in one process (gai-probe -n 2). Asserts the answers of
# glibc's classic walk (against --autopath off), and the queries: with
# support at most 2 for the first lookup (A and AAAA) and 1 for the second,
# all carrying the option, plus one round for each NODATA candidate glibc
# walks past (a case's leading nodata=N); without, glibc's own queries, the option sent
# once per family and never again.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
pod_init "${1:?usage: glibc_autopath_test.sh BUILD_DIR}"
conf=$POD_ROOT/tests/pod/cases/resolv/k8s.conf
shim=(env LD_PRELOAD="$SHIM" RESOLV_K8S_DEBUG=1 "$PROBE")

# lookups MODE NAME ARGS...: gai-probe ARGS against a MODE server, glibc's
# own for MODE glibc; output in $WORK/NAME, query log in $WORK/NAME.log.
lookups() {
	local mode=$1 name=$2
	shift 2
	if [[ $mode == glibc ]]; then
		pod "$WORK/$name.log" off "$conf" -- "$PROBE" "$@" > "$WORK/$name" 2>&1
	else
		pod "$WORK/$name.log" "$mode" "$conf" -- "${shim[@]}" "$@" > "$WORK/$name" 2> "$WORK/$name.trace"
	fi
}

# count LOG [FILTER]: queries in LOG (matching the awk FILTER)
count() { awk "${2:-1}" "$1" | wc -l; }

while read -r -a args; do
	[[ ${#args[@]} == 0 || ${args[0]} == \# ]] && continue
	rounds=1
	[[ ${args[0]} == nodata=* ]] && rounds=$((1 + ${args[0]#nodata=})) && args=("${args[@]:1}")
	id="${args[*]}" families=2 once="1 1"
	[[ $id == *"-f inet "* ]] && families=1 once="1 0"
	[[ $id == *"-f inet6 "* ]] && families=1 once="0 1"
	lookups glibc classic -n 2 "${args[@]}"
	expected=$(< "$WORK/classic")
	# The shim's second lookup can only go with the first, so count it alone.
	lookups on on1 -n 1 "${args[@]}"
	check "$id: answers, autopath" "$expected" "$(< "$WORK/on1")" "$(head -30 "$WORK/on1.trace")"
	check "$id: first lookup, at most $((families * rounds)) queries" ok \
		"$( (($(count "$WORK/on1.log") <= families * rounds)) && echo ok || cut -d' ' -f2- "$WORK/on1.log")"
	lookups on on2 -n 2 "${args[@]}"
	check "$id: answers, autopath, repeated" "$expected" "$(< "$WORK/on2")" "$(head -30 "$WORK/on2.trace")"
	check "$id: second lookup, at most $rounds queries" ok \
		"$( (($(count "$WORK/on2.log") <= $(count "$WORK/on1.log") + rounds)) && echo ok ||
			cut -d' ' -f2- "$WORK/on2.log")"
	check "$id: every query carries the option" "" "$(awk '$4 != "opt=yes"' "$WORK/on2.log")"

	classic=$(queries "$WORK/classic.log")
	for mode in formerr echo; do
		lookups $mode $mode -n 2 "${args[@]}"
		check "$id: answers, $mode" "$expected" "$(< "$WORK/$mode")" "$(head -30 "$WORK/$mode.trace")"
		check "$id: option once per family, $mode" "$once" \
			"$(opt_count "$WORK/$mode.log" A) $(opt_count "$WORK/$mode.log" AAAA)"
		# A FORMERR'd query is resent without the option: glibc's walk remains.
		awk '!($4 == "opt=yes" && $5 == "FORMERR")' "$WORK/$mode.log" > "$WORK/$mode.walk"
		check "$id: glibc's queries, $mode" "$classic" "$(queries "$WORK/$mode.walk")" \
			"$(cut -d' ' -f2- "$WORK/$mode.log")"
	done
done <<'EOF'
web
web.shop
kube-dns.kube-system.svc
kubernetes.default
www.example.com
b.three.example.org
nosuch
payments
-F canonname alias.example.com
nodata=1 -f inet6 db.shop
-f inet v6only.example.com
v6only.example.com
-f inet web
empty.nonterminal.example.com
EOF
summary
