# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# CoreDNS as kubeadm deploys it, fed the objects of a kubectl dump by the
# real API server (kube_api.sh); source it in a sandbox (only loopback
# reachable) with BUILD set to the build directory.
#
#   coredns_start ADDR UPSTREAM [CLUSTER]  CoreDNS on ADDR:53 (its health on
#                 ADDR:8080, ready ADDR:8181, metrics ADDR:9153) with kubeadm's
#                 Corefile, forwarding to UPSTREAM; the API server on
#                 127.0.0.1:6443 holding CLUSTER (tests/fixtures/cluster.json);
#                 returns once CoreDNS is ready (its informers synced), prints
#                 nothing, CoreDNS stopped on EXIT (the trap is the
#                 function's), the API server with the sandbox; the logs in
#                 COREDNS_WORK
COREDNS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$COREDNS_ROOT/tests/lib/kube_api.sh"

# kubeadm's Corefile (cmd/kubeadm/app/phases/addons/dns/manifests.go), but
# for `bind` and the addresses of health, ready and prometheus (a pod has
# an address of its own, a test shares loopback) and `kubeconfig` (a pod's
# service account is the admin's kubeconfig here).
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
		       kubeconfig $COREDNS_WORK/api/super-admin.conf
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
	kube_api_start "$COREDNS_WORK/api" "${3:-$COREDNS_ROOT/tests/fixtures/cluster.json}"
	coredns_corefile "$addr" "$2" > "$COREDNS_WORK/Corefile"
	trap coredns_stop EXIT
	"$BUILD/bin/coredns" -conf "$COREDNS_WORK/Corefile" > "$COREDNS_WORK/coredns.log" 2>&1 &
	COREDNS_PID=$!
	poll 20 curl -sf -o /dev/null "http://$addr:8181/ready" && return
	echo "FAIL - CoreDNS did not start on $addr" >&2
	sed 's/^/    | /' "$COREDNS_WORK/coredns.log" >&2
	exit 1
}

coredns_stop() {
	kill -KILL "$COREDNS_PID" 2>/dev/null
	wait "$COREDNS_PID" 2>/dev/null
	rm -rf "$COREDNS_WORK"
}
