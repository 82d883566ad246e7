#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# musl_diff_test.sh BUILD_DIR [PATTERN]: the musl builds against musl itself.
# With --autopath on servers: at most 2 queries for a first lookup, then 1,
# and musl's own answers. Every case of diff.cases (those whose line holds
# PATTERN) against --autopath off servers: the preloaded .so and the static
# probe give musl's output and musl's queries, the option at most once per
# family (musl's SERVFAIL resends aside); with RESOLV_K8S=off, and with the
# glibc build preloaded (the wrong libc: it steps aside), no option at all.
# Then the differences the README lists.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: musl_diff_test.sh BUILD_DIR [PATTERN]}"
build=$(cd "$1" && pwd)
here=$POD_ROOT/tests/musl
resolv=$POD_ROOT/tests/pod/cases/resolv
cp "$here/hosts" "$WORK/hosts"
PROBE=$build/tests/gai-probe-musl
declare -A shim=(
	[so]="env LD_PRELOAD=$build/preload/\$LIB/libresolv-k8s.so RESOLV_K8S_DEBUG=1 $PROBE"
	[static]="env RESOLV_K8S_DEBUG=1 $build/tests/gai-probe-musl-rk8s"
	[so-off]="env LD_PRELOAD=$build/preload/\$LIB/libresolv-k8s.so RESOLV_K8S=off $PROBE"
	[static-off]="env RESOLV_K8S=off $build/tests/gai-probe-musl-rk8s"
	[glibc-so]="env LD_PRELOAD=$build/glibc/libresolv-k8s.so $PROBE"
)

# run VARIANT MODE CONF FAULTS ARGS...: $out.VARIANT, .VARIANT.log, .VARIANT.err
run() {
	local v=$1 mode=$2 conf=$3 faults=$4
	shift 4
	local -a f=() cmd=("$PROBE")
	[[ $faults == - ]] || read -ra f <<<"$faults"
	[[ $v == musl ]] || read -ra cmd <<<"${shim[$v]}"
	pod "$out.$v.log" "$mode" "$conf" "${f[@]}" -- "${cmd[@]}" "$@" > "$out.$v" 2> "$out.$v.err"
}
out=$WORK/case

# Autopath: a first lookup costs A and AAAA, the next one a single query.
run musl off "$resolv/k8s.conf" - web www.example.com
for v in so static; do
	run $v on "$resolv/k8s.conf" - web www.example.com
	check "autopath $v: musl's answers" "$(< "$out.musl")" "$(< "$out.$v")" "$(head -20 "$out.$v.err")"
	check "autopath $v: queries per lookup" "2 1" \
		"$(grep -c ' web\.' "$out.$v.log") $(grep -c ' www\.example\.com\.' "$out.$v.log")" \
		"$(< "$out.$v.log")"
done

# diff_case CONF FAULTS ARGS
diff_case() {
	local id="$1 | $2 | $3" v a aaaa max same=cat
	# musl resends a query answered SERVFAIL (res_msend.c, 2 per query of
	# the lookup) before it accepts the answer; we send it once.
	[[ $2 == *SERVFAIL* ]] && same=uniq
	local -a args
	read -ra args <<<"$3"
	run musl off "$resolv/$1.conf" "$2" "${args[@]}"
	check "$id: musl sends no option" "0 0" "$(opt_count "$out.musl.log" A) $(opt_count "$out.musl.log" AAAA)"
	for v in so static so-off static-off glibc-so; do
		run $v off "$resolv/$1.conf" "$2" "${args[@]}"
		check "$id: $v output" "$(< "$out.musl")" "$(< "$out.$v")" "$(head -40 "$out.$v.err")"
		check "$id: $v queries" "$(queries "$out.musl.log" | $same)" "$(queries "$out.$v.log" | $same)" \
			"$(cut -d' ' -f2- "$out.$v.log")"
		[[ $v == *-off || $v == glibc-so ]] && max=0 || max=1
		a=$(opt_count "$out.$v.log" A) aaaa=$(opt_count "$out.$v.log" AAAA)
		check "$id: $v option at most $max per family" ok \
			"$( ((a <= max && aaaa <= max)) && echo ok || echo "A $a, AAAA $aaaa")"
	done
}

while IFS='|' read -r conf faults args; do
	[[ $conf =~ ^[[:space:]]*(#|$) ]] && continue
	[[ "$conf|$faults|$args" == *"${2:-}"* ]] || continue
	read -r conf <<<"$conf"
	read -r faults <<<"$faults"
	read -r args <<<"$args"
	diff_case "$conf" "$faults" "$args"
done < "$here/diff.cases"
[[ -z ${2:-} ]] || { summary; exit; }

# Deliberate differences. A search line over 255 bytes: musl skips it and
# looks up `web` as-is; we read it.
run musl off "$here/resolv/long-search.conf" - -f inet web
check "long search line: musl skips it" "web: error EAI_NONAME" "$(< "$out.musl")"
for v in so static; do
	run $v off "$here/resolv/long-search.conf" - -f inet web
	check "long search line: $v reads it" "web: inet stream 6 10.96.1.10 0 canon=web.shop.svc.cluster.local" \
		"$(grep stream "$out.$v")" "$(head -20 "$out.$v.err")"
done
# attempts:0: musl dies of SIGFPE; we must not crash.
for v in so static; do
	run $v off "$here/resolv/attempts0.conf" - -f inet web
	check "attempts:0: $v does not crash" "web: inet stream 6 10.96.1.10 0 canon=web.shop.svc.cluster.local" \
		"$(grep stream "$out.$v")" "$(cat "$out.$v" "$out.$v.err" | head -20)"
done
# 40 addresses, over 512 bytes: musl keeps what fits in UDP, we ask over TCP.
run musl off "$resolv/k8s.conf" - -f inet -t stream big.example.com.
check "large answer: musl without TCP" "yes" "$( (($(grep -c 198.51 "$out.musl") < 40)) && echo yes)"
for v in so static; do
	run $v off "$resolv/k8s.conf" - -f inet -t stream big.example.com.
	check "large answer: $v over TCP" "40" "$(grep -c 198.51 "$out.$v")" "$(head -20 "$out.$v.err")"
done
# Two nameservers: musl sends each query to both at once, we ask the first.
# musl ends at the first reply: the other server's line is waited for (5 s
# at most) before the sandbox ends it.
# shellcheck disable=SC2016 # expanded in the sandbox
pod "$out.musl.log" off "$resolv/two.conf" -- bash -c \
	'"$@"; for _ in $(seq 50); do (($(wc -l < "$0") >= 4)) && break; sleep 0.1; done' \
	"$out.musl.log" "$PROBE" -f inet web.shop > "$out.musl" 2> "$out.musl.err"
run static off "$resolv/two.conf" - -f inet web.shop
check "two nameservers: musl asks both, we ask the first" "4 2" \
	"$(wc -l < "$out.musl.log") $(wc -l < "$out.static.log")" "$(cat "$out.musl.log" "$out.static.log")"
summary
