#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# static_test.sh BUILD_DIR: libresolv-k8s.a as a static musl program sees it.
# Only the entry points of preload/exports.map (before its glibc-only ones) are global; everything it
# needs is in musl's libc.a or libgcc; the probe linked with it has none of
# libc.a's objects defining them, and no C++ runtime; a program with its own
# c-ares and mimalloc links and runs; a lookup carries the option.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: static_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
archive=$build/musl/libresolv-k8s.a probe=$build/tests/gai-probe-musl-rk8s
libc_a=/usr/lib/x86_64-linux-musl/libc.a libgcc_a=$(gcc -print-libgcc-file-name)

entries=$(sed -n '/glibc only/q; s/^ *\([a-z0-9_]*\);$/\1/p' "$POD_ROOT/preload/exports.map" | sort)
check "global definitions" "$(xargs <<<"$entries")" \
	"$(nm -g --defined-only "$archive" | awk 'NF == 3 { print $3 }' | sort | xargs)"
# The linker defines _GLOBAL_OFFSET_TABLE_ itself.
check "undefined symbols not in libc.a or libgcc" "" \
	"$(comm -23 <(nm -u "$archive" | awk '{ print $2 }' | grep -vx _GLOBAL_OFFSET_TABLE_ | sort -u) \
		<(nm -g --defined-only "$libc_a" "$libgcc_a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u))"

map=$probe.map
members=$(nm -A --defined-only "$libc_a" 2>/dev/null | awk -F: -v e="$entries" '
	BEGIN { n = split(e, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
	{ split($3, f, " ") } f[2] == "T" && f[3] in want { print $2 }')
check "libc.a: an object per entry point" "$(wc -l <<<"$entries")" "$(wc -l <<<"$members")"
check "probe: none of them linked" "" "$(grep -oF -f <(sed 's/.*/libc.a(&)/' <<<"$members") "$map")"
check "probe: no C++ runtime" "" "$(grep -oE 'lib(stdc\+\+|supc\+\+|c\+\+)[^ ]*' "$map" | sort -u)"
check "probe: our archive linked for the entry points" "1" \
	"$(grep -A1 '^[^ ].*libresolv-k8s\.a(' "$map" | grep -cE '\(((get|free)addrinfo|gethostbyname[2_r]*)\)$')"

clash=$WORK/clash
tp=$build/third_party/musl
if musl-gcc -static -I"$tp/include" -DCARES_STATICLIB "$(dirname "$0")/clash.c" "$archive" \
	"$tp/lib/libcares.a" "$tp/lib/libmimalloc.a" -o "$clash" 2> "$WORK/clash.err"; then
	check "own c-ares and mimalloc: runs" "1.18.1 1" \
		"$("$POD_ROOT/tests/pod/sandbox.sh" -- "$clash" 2>&1)"
else
	check "own c-ares and mimalloc: links" "" "$(cat "$WORK/clash.err")"
fi

log=$WORK/on.log
out=$(pod "$log" on "$POD_ROOT/tests/pod/cases/resolv/k8s.conf" -- "$probe" -f inet web 2>&1)
check "probe: lookup answered" "web: inet stream 6 10.96.1.10 0 canon=web.shop.svc.cluster.local" \
	"$(grep stream <<<"$out")" "$out"
check "probe: the query carried the option" "1" "$(opt_count "$log" A)" "$(cat "$log")"
summary
