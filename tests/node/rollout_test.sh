#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# rollout_test.sh BUILD_DIR: no stall while the cache is away, for a pod
# injected with the node-local cache first and kube-dns second (inject's
# own dnsConfig, written into resolv.conf as kubelet writes it: timeout:1
# attempts:2), behind a veth as a pod is, on a node whose kube-proxy DNATs
# kube-dns's ClusterIP. First the cache's address drops every packet (an
# nftables rule in the sandbox): a lookup with glibc alone and with the
# library resolves, each asking the dead address once (a timeout of 1 s),
# and the library's process asks it once for a name glibc asks it once per
# candidate. Then a DaemonSet-style rollout under a stream of lookups: the
# old instance gone (its link-local address kept, refusing at once), the new
# one started 2 s later; no lookup fails, and the address refuses queries
# while no instance listens (at once up to the kernel's ICMP budget, six
# and then one a second to a pod; past it a query waits its 1 s timeout).
# Counted in the pod's network; the times are printed, not asserted.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

kube_proxy_node
node_config "$WORK/cache.yaml" 169.254.25.10 \
	'nodeSetup={interface: nodecache, checkInterval: 1s, lockFile: '"$WORK/node.lock"'}' \
	"servers=[{name: cluster, zones: [cluster.local, in-addr.arpa, ip6.arpa], forwardPlugin: {upstreams: [10.244.0.53]}}]"
start cache "$SERVER" --config "$WORK/cache.yaml"

# The pod's resolv.conf from inject's dnsConfig, as kubelet writes it.
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec:\n  containers: [{name: a, image: a}]\n' |
	"$BUILD/bin/resolv-k8s" inject --image init:1 --nameserver 169.254.25.10,10.96.0.10 --host-search corp.example - |
	python3 -c 'import sys, yaml
d = yaml.safe_load(sys.stdin)["spec"]["dnsConfig"]
print("\n".join("nameserver " + n for n in d["nameservers"]))
print("search " + " ".join(d["searches"]))
print("options " + " ".join(o["name"] + (":" + o["value"] if "value" in o else "") for o in d["options"]))' > "$WORK/injected.conf"
check "the pod's resolv.conf, inject's" "nameserver 169.254.25.10
nameserver 10.96.0.10
search shop.svc.cluster.local svc.cluster.local cluster.local corp.example
options ndots:5 timeout:1 attempts:2 k8s-autopath:on" "$(< "$WORK/injected.conf")"

# In the pod's network: its queries to the cache's address, and what came
# back from there.
watch_pod 169.254.25.10
# timed CMD...: CMD in the pod; its output, then "ms N" and "asked N" (its
# queries to the cache's address) on lines of their own.
timed() {
	local t0=$EPOCHREALTIME out asked
	asked=$(watched queries)
	out=$(pod injected "$@" 2>&1)
	echo "$out"
	echo "ms $(((${EPOCHREALTIME/./} - ${t0/./}) / 1000))"
	echo "asked $(($(watched queries) - asked))"
}
ms_of() { sed -n 's/^ms //p' <<<"$1"; }
asked() { sed -n 's/^asked //p' <<<"$1"; }
web_answer=$(pod injected getent ahostsv4 web | head -1)
check_match "cache up: glibc resolves web" "^10\.96\.1\.10 " "$web_answer"

# The cache's address drops every packet.
nft -f - <<-END
	table inet drop_test {
		chain prerouting { type filter hook prerouting priority -400; ip daddr 169.254.25.10 meta l4proto { tcp, udp } th dport 53 drop; }
	}
END
glibc=$(timed getent ahostsv4 web)
shim=$(timed env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -f inet web)
check_match "dropped: glibc resolves web" "^10\.96\.1\.10 " "$glibc"
check "dropped: ... asking the dead address once" 1 "$(asked "$glibc")" "$glibc"
check_match "dropped: the library resolves web" "10\.96\.1\.10" "$shim"
check "dropped: ... asking the dead address once" 1 "$(asked "$shim")" "$shim"
glibc_walk=$(timed "$PROBE_GLIBC" -f inet www.example.com)
shim_walk=$(timed env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -f inet www.example.com)
check "dropped: the library answers a name that walks the search list as glibc does (www.example.com)" \
	"$(grep -v '^ms \|^asked ' <<<"$glibc_walk")" "$(grep -v '^ms \|^asked ' <<<"$shim_walk")"
check "dropped: ... glibc asking the dead address once a candidate, the library once in the process" "5 1" \
	"$(asked "$glibc_walk") $(asked "$shim_walk")" "$glibc_walk$shim_walk"
many=$(timed "$BUILD/bin/resolv-k8s" lookup web kubernetes.default www.example.com nosuch.example.com)
check "dropped: four lookups in one process (resolv-k8s lookup): the dead address asked once (A and AAAA)" 2 "$(asked "$many")" "$many"
echo "rollout: cache's address dropping: web: glibc $(ms_of "$glibc") ms, library $(ms_of "$shim") ms;" \
	"www.example.com: glibc $(ms_of "$glibc_walk") ms (a second per candidate), library $(ms_of "$shim_walk") ms;" \
	"four names in one process $(ms_of "$many") ms"
nft delete table inet drop_test

# The rollout: a lookup stream (glibc, and the library) from 1 s before the
# old instance goes until 4 s after the new one listens.
stream() { # NAME CMD...: lookups until $WORK/stop, "status ms" each
	local name=$1 t0 status
	shift
	until [[ -e $WORK/stop ]]; do
		t0=$EPOCHREALTIME
		pod injected "$@" > /dev/null 2>&1
		status=$?
		echo "$status $(((${EPOCHREALTIME/./} - ${t0/./}) / 1000))" >> "$WORK/$name.times"
		sleep 0.05
	done
}
before="$(watched queries) $(watched replies) $(watched refusals)"
stream glibc getent ahostsv4 web &
glibc_stream=$!
stream shim env LD_PRELOAD="$SHIM" "$PROBE_GLIBC" -f inet kubernetes.default &
shim_stream=$!
sleep 1
kill -TERM "${PID[cache]}"
wait "${PID[cache]}"
check "rollout: the old instance gone, its link-local address kept" "0 169.254.25.10/32" \
	"$? $(ip -4 -br addr show dev nodecache | awk '{ $1 = $2 = ""; print }' | xargs)"
sleep 2
start cache2 "$SERVER" --config "$WORK/cache.yaml"
sleep 4
touch "$WORK/stop"
wait "$glibc_stream" "$shim_stream"
read -r queries replies refusals <<<"$before"
queries=$(($(watched queries) - queries)) replies=$(($(watched replies) - replies)) refusals=$(($(watched refusals) - refusals))
check "rollout: the cache's address refused queries (the old instance gone) and answered (the new one)" yes \
	"$( ((refusals > 0 && replies > 0)) && echo yes)" "refusals $refusals, replies $replies"
echo "rollout: $queries queries to the cache's address: $replies answered, $refusals refused," \
	"$((queries - replies - refusals)) left to their timeout (past the kernel's ICMP budget)"
for name in glibc shim; do
	count=$(wc -l < "$WORK/$name.times")
	unresolved=$(awk '$1 != 0' "$WORK/$name.times" | wc -l)
	slowest=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$WORK/$name.times")
	check "rollout, $name: every lookup resolved" "0" "$unresolved"
	echo "rollout: $name: $count lookups, $unresolved failed, the slowest $slowest ms"
done
check "rollout: the new instance answers" "0 1" \
	"$(pod injected getent ahostsv4 web > /dev/null; echo $?) $(ask 169.254.25.10 +short web.shop.svc.cluster.local | grep -c 10.96.1.10)"
summary
