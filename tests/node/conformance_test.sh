#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# conformance_test.sh BUILD_DIR: the checks of RFC 8906 section 8, and the
# answers RFC 3225, 6891, 2181 and 8945 ask for, as raw packets
# (conformance.py) against the node cache and against the closed world it
# forwards to, asked directly as an authority. CONFORMANCE_SEEDS=DIR also
# keeps every query sent there (the seeds of fuzz/server_query_fuzz).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# two: two TXT records, 573 bytes of reply without EDNS.
zone "$WORK/rfc8906.test.zone" rfc8906.test '@ NS ns' 'ns A 192.0.2.1' \
	"two TXT \"$(printf 'a%.0s' {1..255})\"" "two TXT \"$(printf 'b%.0s' {1..255})\" \"xy\""
start auth "$SERVER" --listen 127.0.0.60:53 --zone "$WORK/rfc8906.test.zone" --query-log "$WORK/auth.log"
cache_at cache 169.254.20.10 upstreamResolvers= \
	servers='[{name: rfc, zones: [rfc8906.test], forwardPlugin: {upstreams: ["127.0.0.60"]}}]'

# conformance SERVER MODE: each line of conformance.py a check.
conformance() {
	local verdict name detail done=
	while IFS=$'\t' read -r verdict name detail; do
		case $verdict in
		done) done=$name ;;
		ok) tally "$2: $name" 0 ;;
		FAIL) tally "$2: $name" 1 || echo "    $detail" ;;
		*) echo "    | $verdict${name:+ $name}" ;;  # python's own error
		esac
	done < <(/usr/bin/python3 "$NODE_ROOT/tests/node/conformance.py" "$1" rfc8906.test "$2" \
		${CONFORMANCE_SEEDS:+"$CONFORMANCE_SEEDS"} 2>&1)
	check "$2: every check ran" 1 "$((${done:-0} > 0))"
}

conformance 169.254.20.10 cache
check "cache: a TSIG query is not forwarded unsigned" 0 "$(logged "$WORK/auth.log" 'tsig-probe')"
check "cache: AXFR and IXFR are not forwarded" 0 "$(logged "$WORK/auth.log" ' (AXFR|IXFR) ')"
check_match "dig +dnssec: DO in the reply's OPT" 'flags: do;' "$(q +dnssec rfc8906.test SOA)"
conformance 127.0.0.60 auth
summary
