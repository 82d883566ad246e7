#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# glibc_diff_test.sh BUILD_DIR [PATTERN]: every case of cases/glibc-diff.cases
# (those whose line contains PATTERN), looked up by gai-probe-glibc without
# and with the shim, each against fresh --autopath off servers. Asserts the
# same probe output, the same queries in the same order, the option sent at
# most once per family and server and only with the first candidate (never
# with k8s-autopath:off), and none by glibc.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
pod_init "${1:?usage: glibc_diff_test.sh BUILD_DIR [PATTERN]}"
cases=$POD_ROOT/tests/pod/cases

# run_case CONF FAULTS ARGS [fewer]
run_case() {
	local conf=$cases/resolv/$1.conf id="$1 | $2 | $3" strict='' max out
	local -a faults=() args
	[[ $2 == - ]] || read -ra faults <<<"$2"
	read -ra args <<<"$3"
	grep -q single-request "$conf" && strict=1
	# The option goes with candidate 0, once per family to each server.
	max=$(awk '$1 == "nameserver" && $2 ~ /^(127\.0\.0\.5[345]|::1)$/' "$conf" | sort -u | wc -l)
	grep -q k8s-autopath:off "$conf" && max=0
	out=$WORK/case
	pod "$out.glibc.log" off "$conf" "${faults[@]}" -- "$PROBE" "${args[@]}" > "$out.glibc" 2>&1
	pod "$out.shim.log" off "$conf" "${faults[@]}" -- \
		env LD_PRELOAD="$SHIM" RESOLV_K8S_DEBUG=1 "$PROBE" "${args[@]}" > "$out.shim" 2> "$out.trace"
	local trace
	trace=$(head -40 "$out.trace")
	check "$id: probe output" "$(< "$out.glibc")" "$(< "$out.shim")" "$trace"
	if [[ $4 == fewer ]]; then
		check "$id: fewer queries, all of them glibc's" "" \
			"$(comm -13 <(queries "$out.glibc.log" | sort -u) <(queries "$out.shim.log" | sort -u))"
		check "$id: no more queries than glibc" "ok" \
			"$( (( $(wc -l < "$out.shim.log") <= $(wc -l < "$out.glibc.log") )) && echo ok)"
	else
		check "$id: queries" "$(queries "$out.glibc.log" $strict)" "$(queries "$out.shim.log" $strict)" \
			"$(cut -d' ' -f2- "$out.shim.log")"
	fi
	check "$id: glibc sends no option" "0 0" "$(opt_count "$out.glibc.log" A) $(opt_count "$out.glibc.log" AAAA)"
	local a aaaa
	a=$(opt_count "$out.shim.log" A) aaaa=$(opt_count "$out.shim.log" AAAA)
	check "$id: option at most $max per family" "ok" "$( ((a <= max && aaaa <= max)) && echo ok || echo "A $a, AAAA $aaaa")"
	check "$id: option only with candidate 0" "" \
		"$(awk 'NR == 1 { first = $2 } $4 == "opt=yes" && $2 != first' "$out.shim.log")"
}

while IFS='|' read -r conf faults args expect; do
	[[ $conf =~ ^[[:space:]]*(#|$) ]] && continue
	line="$conf|$faults|$args"
	[[ $line == *"${2:-}"* ]] || continue
	read -r conf <<<"$conf"
	read -r faults <<<"$faults"
	read -r args <<<"$args"
	read -r expect <<<"${expect:-}"
	run_case "$conf" "$faults" "$args" "$expect"
done < "$cases/glibc-diff.cases"
summary
