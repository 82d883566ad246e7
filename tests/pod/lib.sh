# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034 # PROBE, SHIM: for the sourcing scripts
# Shared helpers of the pod tests; source it. Outside the sandbox: pod_init,
# pod, queries, opt_count, and the assertions of tests/lib/assert.sh. Inside
# (run by `pod`): pod_run.
#
#   pod_init BUILD_DIR              paths, a work directory
#   pod LOG MODE CONF [FAULT...] -- CMD...
#       CMD in a sandbox with /etc/resolv.conf = CONF (and /etc/gai.conf =
#       $POD_GAI, /etc/ld.so.preload = $POD_PRELOAD if set), one resolv-k8s-server
#       (--autopath MODE, --query-log LOG) per live nameserver of CONF:
#       127.0.0.53-55 and ::1; any other address is dead (ICMP unreachable).
#       FAULT: a server flag as --flag=VALUE, for every server, or
#       N:--flag=VALUE for 127.0.0.N only (v6:... for ::1).
#   queries LOG [strict]  "qname qtype status" per query, client and option
#       stripped; A and AAAA of one name, which glibc sends together, sorted
#       unless strict
#   opt_count LOG QTYPE   queries of QTYPE that carried the autopath option
#
# POD_DATA: the servers' data flags (default: the shared fixtures and ours).

POD_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh
POD_ROOT=$(cd "$(dirname "$POD_LIB")/../.." && pwd)
source "$POD_ROOT/tests/lib/assert.sh"

pod_init() {
	local build
	build=$(cd "${1:?usage: pod_init BUILD_DIR}" && pwd)
	export POD_SERVER=$build/bin/resolv-k8s-server
	PROBE=$build/tests/gai-probe-glibc
	# POD_SHIM= (empty) runs the "with shim" side without it: harness checks.
	# The one LD_PRELOAD value inject writes: glibc's loader finds its build.
	SHIM=${POD_SHIM-$build/preload/\$LIB/libresolv-k8s.so}
	local f
	for f in $SHIM; do [[ -e $f ]] || { echo "no $f" >&2; exit 1; }; done
	: "${POD_DATA:=--cluster $POD_ROOT/tests/fixtures/cluster.json
		--zone $POD_ROOT/tests/fixtures/example.com.zone
		--zone $POD_ROOT/tests/fixtures/corp.example.zone
		--zone $POD_ROOT/tests/pod/fixtures/example.org.zone}"
	export POD_DATA
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
	printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n' > "$WORK/hosts"
	echo 'hosts: files dns' > "$WORK/nsswitch.conf"
}

pod() {
	local log=$1 mode=$2 conf=$3
	shift 3
	: > "$log"
	"$POD_ROOT/tests/pod/sandbox.sh" --resolv "$conf" --hosts "$WORK/hosts" \
		--nsswitch "$WORK/nsswitch.conf" ${POD_GAI:+--gai "$POD_GAI"} \
		${POD_PRELOAD:+--preload "$POD_PRELOAD"} -- \
		bash -c 'source "$0"; pod_run "$@"' "$POD_LIB" "$log" "$mode" "$@" < /dev/null
}

# Inside the sandbox: pod_run LOG MODE [FAULT...] -- CMD...
pod_run() {
	local log=$1 mode=$2 ns id listen
	shift 2
	local -a faults=()
	while [[ $1 != -- ]]; do faults+=("$1"); shift; done
	shift
	local -A started=()
	for ns in $(awk '$1 == "nameserver" { print $2 }' /etc/resolv.conf); do
		case $ns in
		127.0.0.5[345]) id=${ns##*.} listen=$ns:53 ;;
		::1) id=v6 listen='[::1]:53' ;;
		*) continue ;;
		esac
		[[ ${started[$id]:-} ]] && continue
		started[$id]=1
		local -a args=() f
		for f in "${faults[@]}"; do
			[[ $f == *:--* && ${f%%:--*} != "$id" ]] && continue
			f=--${f#*--}
			args+=("${f%%=*}" "${f#*=}")
		done
		rm -f "$log.$id.err"  # an earlier run's "listening" must not count
		# shellcheck disable=SC2086 # POD_DATA is a list of words
		"$POD_SERVER" --listen "$listen" $POD_DATA --autopath "$mode" --query-log "$log" \
			"${args[@]}" 2> "$log.$id.err" &
		local tries=0
		until grep -qs listening "$log.$id.err"; do
			if ! kill -0 $! 2>/dev/null || ((++tries > 200)); then
				echo "pod: the server on $listen did not start:" >&2
				cat "$log.$id.err" >&2
				return 1
			fi
			sleep 0.05
		done
	done
	"$@"
}

queries() {
	awk '{
		if ($2 != prev) group++
		prev = $2
		printf "%06d %s %s %s\n", group, $2, $3, $5
	}' "$1" | if [[ ${2:-} ]]; then cat; else sort -s -k1,1 -k3,3; fi | cut -d' ' -f2-
}

opt_count() {
	awk -v t="$2" '$3 == t && $4 == "opt=yes"' "$1" | wc -l
}
