#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# rcodes_test.sh BUILD_DIR: the cache's autopath walk decides a failing
# candidate as the pod's libc would. Cluster DNS (one replica here, over TCP)
# or the external upstream answers REFUSED, NOTIMP, FORMERR or SERVFAIL, or
# nothing, for one candidate of a name that exists as typed; the glibc and
# musl shims through the cache end as plain glibc and musl through the same
# cache, each client with names of its own so every one meets a cold cache.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

FAILURES=(REFUSED NOTIMP FORMERR SERVFAIL drop)
SUFFIXES=(shop.svc.cluster.local svc.cluster.local cluster.local "")
declare -A CLIENT=(
	[glibc]="$PROBE_GLIBC"
	[glibc-shim]="env LD_PRELOAD=$SHIM $PROBE_GLIBC"
	[musl]="$PROBE_MUSL"
	[musl-shim]="env LD_PRELOAD=$SHIM $PROBE_MUSL"
)

# base FAILURE AT CLIENT: a name of the wildcard *.wild.example.com, found
# as typed, the last of its four candidates.
base() { echo "f$2-$1-$3.wild.example.com"; }

cluster_faults=() external_faults=()
for f in "${FAILURES[@]}"; do
	for at in 0 1 2 3; do
		for c in "${!CLIENT[@]}"; do
			name=$(base "$f" "$at" "$c")${SUFFIXES[at]:+.${SUFFIXES[at]}}
			flag=(--rcode "$name=$f")
			[[ $f == drop ]] && flag=(--drop "$name")
			if ((at < 3)); then cluster_faults+=("${flag[@]}"); else external_faults+=("${flag[@]}"); fi
		done
	done
done
cluster_dns 53 "${cluster_faults[@]}"
external_dns "${external_faults[@]}"
# One replica, so a silent candidate costs the cache one read timeout (2 s)
# before its SERVFAIL, within the pods' timeout (3 s; plain musl waits that
# long on any failure).
cache_at cache 169.254.20.10 servers="[{name: cluster, zones: [cluster.local],
  forwardPlugin: {upstreams: [127.0.0.53], protocolStrategy: TCP}}]"
cat > "$WORK/rc.conf" <<-END
	nameserver 169.254.20.10
	search ${SUFFIXES[*]:0:3}
	options ndots:5 timeout:3 attempts:1
END

# The clients of a case run side by side. Each looks up web first, so the shim's second lookup asks A and
# AAAA at once (BOTH) when the cache has shown support.
declare -A out
for f in "${FAILURES[@]}"; do
	for at in 0 1 2 3; do
		pids=()
		for c in "${!CLIENT[@]}"; do
			read -ra cmd <<<"${CLIENT[$c]}"
			pod rc "${cmd[@]}" web "$(base "$f" "$at" "$c")" > "$WORK/$f-$at-$c.out" &
			pids+=($!)
		done
		wait "${pids[@]}"
		for libc in glibc musl; do
			plain=$(sed "s/-$libc\./-X./" "$WORK/$f-$at-$libc.out")
			check "$libc shim, $f at candidate $at: the plain libc's answer" "$plain" \
				"$(sed "s/-$libc-shim\./-X./" "$WORK/$f-$at-$libc-shim.out")"
		done
	done
done
# The failures reached the walk: each one's name was asked of its server.
for f in REFUSED NOTIMP FORMERR SERVFAIL; do
	check "$f: answered by cluster DNS" 0 "$(($(logged "$WORK/dns53.log" "-$f-.* $f") == 0))"
done
summary
