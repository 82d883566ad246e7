#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# demo.sh BUILD_DIR: real programs in a pod sandbox resolve a handful of
# names against a companion server that answers in 20 ms (a remote cluster
# DNS), once with plain glibc and once through the library; prints the
# queries each lookup put on the wire and how long it took.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: demo.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kubelet's resolv.conf for a pod in namespace shop, on a node whose own
# search domain is corp.example, with dnsConfig.options k8s-autopath=on.
cat > "$work/resolv.conf" <<'CONF'
nameserver 127.0.0.10
search shop.svc.cluster.local svc.cluster.local cluster.local corp.example
options ndots:5 k8s-autopath:on
CONF
printf '127.0.0.1\tlocalhost\n' > "$work/hosts"
echo 'hosts: files dns' > "$work/nsswitch.conf"

# Inside the sandbox: the server, then every name with each program, twice.
inside() {
	local log=$work/queries.log
	# corp.example.zone is left out: its wildcard would answer every name.
	"$build/bin/resolv-k8s-server" --listen 127.0.0.10:53 --delay-ms 20 --query-log "$log" \
		--cluster "$root/tests/fixtures/cluster.json" --zone "$root/tests/fixtures/example.com.zone" \
		2> "$work/server.err" &
	until grep -qs listening "$work/server.err"; do sleep 0.05; done
	: > "$log"

	local -A label=([web]="Service, short name" [kubernetes.default]="Service, other namespace"
		[www.example.com]="external name" [nosuch.example.com]="missing name")
	local sent=0 classic=0 ms_plain=0 ms_shim=0
	echo "queries on the wire and milliseconds (getent: the whole process; python3: the call)"
	printf '%-10s %-20s %-26s %16s %16s   %s\n' program name what "plain glibc" "libresolv-k8s" answer
	for prog in getent python3; do
		for name in web kubernetes.default www.example.com nosuch.example.com; do
			local -a row=()
			for shim in "" "$build/preload/\$LIB/libresolv-k8s.so"; do
				local before after t0 ms answer
				before=$(wc -l < "$log")
				t0=$EPOCHREALTIME
				if [[ $prog == getent ]]; then
					answer=$(LD_PRELOAD=$shim RESOLV_K8S_STATS=$work/stats getent ahosts "$name" |
						awk 'NR == 1 { print $1 }') || true
					ms=$(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000 ))
				else
					read -r ms answer < <(LD_PRELOAD=$shim RESOLV_K8S_STATS=$work/stats python3 -c '
import socket, sys, time
t0 = time.perf_counter()
try: answer = socket.getaddrinfo(sys.argv[1], None)[0][4][0]
except socket.gaierror: answer = "-"
print(round((time.perf_counter() - t0) * 1000), answer)' "$name")
				fi
				after=$(wc -l < "$log")
				row+=("$((after - before)) q ${ms} ms" "${answer:--}")
				if [[ $shim ]]; then ((sent += after - before, ms_shim += ms)); else ((classic += after - before, ms_plain += ms)); fi
			done
			[[ ${row[1]} == "${row[3]}" ]] || echo "different answers for $name: ${row[1]} vs ${row[3]}" >&2
			printf '%-10s %-20s %-26s %16s %16s   %s\n' "$prog" "$name" "${label[$name]}" "${row[0]}" "${row[2]}" "${row[1]}"
		done
	done
	echo
	echo "saved $((classic - sent)) of $classic queries, $ms_plain ms -> $ms_shim ms (same answers)"
	echo "the library's own counters (RESOLV_K8S_STATS, \`resolv-k8s stats\`):"
	"$build/bin/resolv-k8s" stats "$work/stats" | sed -n '1p; /^total/p; /^server/p'
}

echo "A pod in namespace shop: ndots:5, 4 search domains; cluster DNS answers in 20 ms."
echo
"$root/tests/pod/sandbox.sh" --resolv "$work/resolv.conf" --hosts "$work/hosts" \
	--nsswitch "$work/nsswitch.conf" -- \
	bash -c "$(declare -f inside); work='$work' root='$root' build='$build' inside"
