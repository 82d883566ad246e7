# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# CoreDNS as kubeadm deploys it, fed the objects of a kubectl dump by the
# stand-in API server (kube_objects_api.py); source it in a sandbox (only
# loopback reachable) with BUILD set to the build directory.
#
#   coredns_start ADDR UPSTREAM [CLUSTER]  CoreDNS on ADDR:53 (its health on
#                 ADDR:8080, ready ADDR:8181, metrics ADDR:9153) with kubeadm's
#                 Corefile, forwarding to UPSTREAM; the API server on
#                 COREDNS_API (127.0.0.1:8001) serving CLUSTER
#                 (tests/fixtures/cluster.json); returns once CoreDNS is
#                 ready (its informers synced), prints nothing, both stopped
#                 on EXIT (the trap is the function's); their logs in
#                 COREDNS_WORK
COREDNS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
COREDNS_API=${COREDNS_API:-127.0.0.1:8001}
COREDNS_PIDS=()

# kubeadm's Corefile (cmd/kubeadm/app/phases/addons/dns/manifests.go), but
# for `bind` and the addresses of health, ready and prometheus: a pod has
# an address of its own, a test shares loopback.
coredns_corefile() { # ADDR UPSTREAM
	cat <<-END
		.:53 {
		    bind $1
		    errors
		    health $1:8080 {
		       lameduck 5s
		    }
		    ready $1:8181
		    kubernetes cluster.local in-addr.arpa ip6.arpa {
		       endpoint http://$COREDNS_API
		       pods insecure
		       fallthrough in-addr.arpa ip6.arpa
		       ttl 30
		    }
		    prometheus $1:9153
		    forward . $2 {
		       max_concurrent 1000
		    }
		    cache 30 {
		       disable success cluster.local
		       disable denial cluster.local
		    }
		    loop
		    reload
		    loadbalance
		}
	END
}

coredns_start() {
	local addr=$1
	COREDNS_WORK=$(mktemp -d)
	coredns_corefile "$addr" "$2" > "$COREDNS_WORK/Corefile"
	trap coredns_stop EXIT
	python3 "$COREDNS_ROOT/tests/lib/kube_objects_api.py" "${3:-$COREDNS_ROOT/tests/fixtures/cluster.json}" \
		"$COREDNS_API" 2> "$COREDNS_WORK/api.log" &
	COREDNS_PIDS+=($!)
	poll 10 grep -qs listening "$COREDNS_WORK/api.log" &&
		{ "$BUILD/bin/coredns" -conf "$COREDNS_WORK/Corefile" > "$COREDNS_WORK/coredns.log" 2>&1 &
		  COREDNS_PIDS+=($!); } &&
		poll 20 curl -sf -o /dev/null "http://$addr:8181/ready" && return
	echo "FAIL - CoreDNS did not start on $addr" >&2
	sed 's/^/    | /' "$COREDNS_WORK/api.log" "$COREDNS_WORK/coredns.log" >&2
	exit 1
}

coredns_stop() {
	kill -KILL "${COREDNS_PIDS[@]}" 2>/dev/null
	wait "${COREDNS_PIDS[@]}" 2>/dev/null
	rm -rf "$COREDNS_WORK"
}
