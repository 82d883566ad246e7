#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# failing_servers_test.sh BUILD_DIR: nameservers that fail the lookup, glibc's
# answers and retries through the shim: dead (nothing listens: ICMP port
# unreachable), silent, answering SERVFAIL or REFUSED.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

conf dead-first '127.0.0.9 127.0.0.53'
conf dead-last '127.0.0.53 127.0.0.9'
conf all-dead '127.0.0.9 127.0.0.10'
for c in dead-first dead-last all-dead; do
	same "$c" "$WORK/$c.conf" -- "$PROBE" "${NAMES[@]}"
done

# Silent servers: the same answers, and the dropped name asked as often.
for opts in 'timeout:1 attempts:1' 'timeout:1 attempts:2'; do
	conf silent '127.0.0.53' "$opts"
	# One lookup per process: a second one would ask with BOTH, and the
	# server applies NAME/AAAA faults to AAAA queries only.
	for drop in www.example.com.svc.cluster.local www.example.com \
		web.shop.svc.cluster.local/AAAA www.example.com.shop.svc.cluster.local/AAAA; do
		name=${drop%%.svc*}
		name=${name%.shop}
		name=${name%/AAAA}
		same "silent $drop, $opts" "$WORK/silent.conf" --drop="$drop" -- "$PROBE" "$name"
		if [[ $drop == */AAAA ]]; then
			# Deliberate: after one family timed out glibc resends the pair
			# one by one (send_dg's single-request switch); we do not.
			check "silent $drop, $opts: no more retries than glibc" ok \
				"$( (($(dropped "$WORK/shim.log") <= $(dropped "$WORK/glibc.log"))) && echo ok)"
		else
			check "silent $drop, $opts: retries" "$(dropped "$WORK/glibc.log")" "$(dropped "$WORK/shim.log")"
		fi
	done
done
conf two-silent '127.0.0.53 127.0.0.54' 'timeout:1 attempts:2'
same "second server silent" "$WORK/two-silent.conf" 54:--drop=www.example.com.svc.cluster.local \
	--drop=nothing.invalid -- "$PROBE" www.example.com
same "first server silent" "$WORK/two-silent.conf" 53:--drop=web.shop.svc.cluster.local \
	--drop=nothing.invalid -- "$PROBE" web
check "first server silent: retries" "$(dropped "$WORK/glibc.log")" "$(dropped "$WORK/shim.log")"

# SERVFAIL and REFUSED at chosen candidates, autopath on.
conf two '127.0.0.53 127.0.0.54'
for rcode in SERVFAIL REFUSED; do
	for at in web.shop.svc.cluster.local www.example.com.svc.cluster.local \
		www.example.com.cluster.local/AAAA www.example.com nosuch.shop.svc.cluster.local; do
		same "$rcode at $at" "$WORK/one.conf" --rcode="$at=$rcode" -- "$PROBE" "${NAMES[@]}"
	done
	same "$rcode from the first of two servers" "$WORK/two.conf" \
		53:--rcode=www.example.com.svc.cluster.local=$rcode -- "$PROBE" "${NAMES[@]}"
done
summary
