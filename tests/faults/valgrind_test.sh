#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# valgrind_test.sh BUILD_DIR: the preload path under valgrind in a pod
# sandbox (servers with autopath on): memcheck on gai-probe-glibc with the
# shim, no invalid access and no leak glibc alone does not have; lookup-storm
# (4 threads, a fork) through the shim under helgrind's scheduling. Helgrind's
# race reports are not asserted: it cannot see the core's __atomic spin locks.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: valgrind_test.sh BUILD_DIR}"
STORM=$(dirname "$PROBE")/lookup-storm
printf 'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 127.0.0.53
options ndots:5 timeout:1 attempts:1\n' > "$WORK/k8s.conf"
NAMES=(web kubernetes.default www.example.com nosuch payments v6only.example.com)

# memcheck [LD_PRELOAD]: "errors N definitely-lost-bytes M" of one probe run.
memcheck() {
	pod "$WORK/log" on "$WORK/k8s.conf" -- env ${1:+LD_PRELOAD=$1} timeout 300 \
		valgrind -q --leak-check=full --log-file="$WORK/vg" "$PROBE" "${NAMES[@]}" "${NAMES[@]}" > "$WORK/out${1:+.shim}"
	local errors lost
	errors=$(grep -c 'Invalid \|uninitialised\|Syscall param' "$WORK/vg")
	lost=$(awk '/definitely lost:/ { gsub(",", "", $4); print $4 }' "$WORK/vg")
	echo "errors $errors definitely-lost ${lost:-0}"
}
plain=$(memcheck "")
shim=$(memcheck "$SHIM")
check "memcheck through the shim (glibc alone: $plain)" "$plain" "$shim" "$(head -40 "$WORK/vg")"
check "memcheck: the shim's answers" "$(< "$WORK/out")" "$(< "$WORK/out.shim")"

pod "$WORK/log" on "$WORK/k8s.conf" -- env LD_PRELOAD="$SHIM" timeout 300 \
	valgrind -q --tool=helgrind --log-file="$WORK/hg" "$STORM" -t 4 -n 10 -k web > "$WORK/out"
check "helgrind: lookups" "40 fd00:10:96::110
1 child-ok" "$(< "$WORK/out")"
summary
