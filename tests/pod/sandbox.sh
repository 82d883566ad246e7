#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# sandbox.sh [--resolv FILE] [--hosts FILE] [--nsswitch FILE] [--gai FILE] [--preload FILE] -- CMD ARGS...
#
# Runs CMD like a pod sees DNS: in new network, mount and pid namespaces with
# only loopback (127.0.0.0/8 and ::1), each FILE (or FIFO) bind-mounted
# read-only over its /etc file (--preload: /etc/ld.so.preload). Exits with CMD's status; whatever CMD leaves
# running is killed with the namespace. Needs root.
set -euo pipefail
own_etc=$(cd "$(dirname "$0")/../lib" && pwd)/own_etc.sh

usage() {
	echo "usage: $0 [--resolv FILE] [--hosts FILE] [--nsswitch FILE] [--gai FILE] [--preload FILE] -- CMD ARGS..." >&2
	exit 2
}

# Runs as pid 1 of the sandbox: "inside SRC DST... -- CMD ARGS...".
inside() {
	set -eu
	ip link set lo up
	local -a binds=()
	local missing=
	while [[ $1 != -- ]]; do
		binds+=("$1" "$2")
		[[ -e $2 ]] || missing=1
		shift 2
	done
	shift
	# A file /etc lacks needs something to mount on: an /etc of its own.
	[[ ! $missing ]] || own_etc
	set -- "${binds[@]}" -- "$@"
	while [[ $1 != -- ]]; do
		[[ -e $2 ]] || : > "$2"
		mount --bind -o ro "$1" "$2"
		shift 2
	done
	shift
	# Not exec: as pid 1, CMD would ignore default-action signals.
	local status=0
	"$@" || status=$?
	exit $status
}

binds=()
while (($#)); do
	case $1 in
	--resolv) target=/etc/resolv.conf ;;
	--hosts) target=/etc/hosts ;;
	--nsswitch) target=/etc/nsswitch.conf ;;
	--gai) target=/etc/gai.conf ;;
	--preload) target=/etc/ld.so.preload ;;
	--) shift; break ;;
	*) usage ;;
	esac
	(($# >= 2)) || usage
	[[ -f $2 || -p $2 ]] || { echo "$0: $2: not a file" >&2; exit 2; }
	binds+=("$(realpath "$2")" "$target")
	shift 2
done
(($#)) || usage

exec unshare --net --mount --propagation private --pid --fork --mount-proc \
	bash -c "source $(printf %q "$own_etc"); $(declare -f inside); inside \"\$@\"" sandbox "${binds[@]}" -- "$@"
