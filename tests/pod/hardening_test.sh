#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# hardening_test.sh BUILD_DIR: the library is never weaker than the libc it
# replaces (issue 37): source ports, the stats file, the environment and
# the private allocator, /etc/hosts' memory. Needs root for the pod
# sandboxes; packets stay on loopback.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
pod_init "${1:?usage: hardening_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
cp "$POD_ROOT/tests/tools/kubelet.conf" "$WORK/on.conf"
sed 's/k8s-autopath:on/k8s-autopath:off/' "$WORK/on.conf" > "$WORK/off.conf"

# Source ports: 60 classic walks in one process against a server that
# answers NXDOMAIN (4 candidates each, A and AAAA together on one socket as
# glibc sends them), glibc alone and through the library. glibc opens a
# socket for every candidate, a new random port each; so must we. The
# kernel picks ports at random, so a port may come up twice on either side
# (about once in 240 over the widest range, set here): a margin of 3.
names=$(seq -f 'nosuch%g.example.com' 60)
ports() {
	# shellcheck disable=SC2086 # names: a list of words
	pod "$WORK/ports.log" off "$WORK/off.conf" -- bash -c \
		'echo "1024 65535" > /proc/sys/net/ipv4/ip_local_port_range && LD_PRELOAD=$0 "${@}" >/dev/null' \
		"$1" "$PROBE" $names
	echo "$(wc -l < "$WORK/ports.log") $(cut -d' ' -f1 "$WORK/ports.log" | sort -u | wc -l)"
}
read -r glibc_queries glibc_ports <<<"$(ports "")"
read -r our_queries our_ports <<<"$(ports "$SHIM")"
echo "distinct source ports over 60 classic lookups: glibc $glibc_ports, the library $our_ports ($our_queries queries)"
check "ports: the same walk, query for query" "480 480" "$glibc_queries $our_queries"
check "ports: at least glibc's less the kernel's chance (ours $our_ports, glibc $glibc_ports)" yes \
	"$( ((our_ports + 3 >= glibc_ports && our_ports > 200)) && echo yes || echo no)"

summary
