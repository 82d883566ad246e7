#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# load.sh SERVER: dnsperf against resolv-k8s-server in a pod sandbox, plain
# queries then autopath queries (shop's search list), SECONDS_EACH (10) each.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
seconds=${SECONDS_EACH:-10}
"$server" --listen 127.0.0.53:53 --cluster tests/fixtures/cluster.json \
	--zone tests/fixtures/example.com.zone --zone tests/fixtures/corp.example.zone 2>/dev/null &
pid=$!
trap 'kill $pid; rm -rf "$work"' EXIT
for _ in $(seq 50); do
	dig +time=1 +tries=1 @127.0.0.53 cluster.local SOA >/dev/null 2>&1 && break
	sleep 0.1
done

# What a pod in namespace "shop" sends first for: a local service, another
# namespace's service, an external name, a name that does not exist.
cat >"$work/queries" <<'END'
web.shop.svc.cluster.local A
web.shop.svc.cluster.local AAAA
kubernetes.default.shop.svc.cluster.local A
www.example.com.shop.svc.cluster.local A
www.example.com.shop.svc.cluster.local AAAA
nope.shop.svc.cluster.local A
END
# Version 1, flags Q, suffixes shop.svc.cluster.local svc.cluster.local cluster.local .
option=0101
option+=0473686f700373766307636c7573746572056c6f63616c00
option+=0373766307636c7573746572056c6f63616c00
option+=07636c7573746572056c6f63616c00
option+=00

run() {
	echo "== $1"
	shift
	dnsperf -s 127.0.0.53 -d "$work/queries" -l "$seconds" -c 8 "$@" |
		grep -E 'Queries (sent|completed|lost)|Queries per second|Average Latency'
}
run plain -e
run "autopath (one query per lookup instead of up to 4)" -E "65431:$option"
