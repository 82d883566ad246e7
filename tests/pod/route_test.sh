#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# route_test.sh BUILD_DIR: the destination sort learns each destination's
# source address from a fresh route, lookup after lookup. The pod has two
# interfaces, fd00:1::1/64 and fd00:2::1/64; route-a and route-b hold an
# address in each, in opposite orders, so only the right source per
# destination gives both the same longest-match tie glibc and musl keep in
# answer order. (A bridge without ports stands in for a dummy interface
# where the kernel has no dummy driver.) One process looks them up in turn, with and without the
# library, glibc and musl.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
pod_init "${1:?usage: route_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
printf 'search example.org\nnameserver 127.0.0.53\n' > "$WORK/resolv.conf"
names=(route-a.example.org route-b.example.org route-a.example.org route-b.example.org)

# in_pod -- CMD...: CMD with the two interfaces up.
in_pod() {
	pod "$WORK/log" off "$WORK/resolv.conf" -- bash -c '
		for i in 1 2; do
			ip link add d$i type dummy 2>/dev/null || ip link add d$i type bridge
			ip link set d$i up && ip addr add fd00:$i::1/64 dev d$i nodad
		done
		exec "$@"' route "$@"
}

for libc in glibc musl; do
	probe=$build/tests/gai-probe-$libc
	plain=$(in_pod "$probe" "${names[@]}" 2>&1)
	check_match "$libc: both subnets answered" "fd00:1::5" "$plain"
	with=$(in_pod env LD_PRELOAD="$SHIM" "$probe" "${names[@]}" 2>&1)
	check "$libc: the order of every lookup" "$plain" "$with"
done
summary
