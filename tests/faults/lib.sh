# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034 # STORM, LIMIT, NAMES: for the sourcing scripts
# What the fault tests share; source it with BUILD_DIR as $1. Each test runs
# the glibc shim (servers with autopath on) against plain glibc, every run in
# its own pod sandbox and bounded by timeout. Needs BUILD_DIR/tests/lookup-storm.
#
#   conf NAME "NAMESERVERS" [OPTIONS]  the k8s search list in $WORK/NAME.conf;
#                                      $WORK/one.conf: 127.0.0.53 alone
#   run SIDE CONF [FAULT...] -- CMD... one pod: CMD's output and "status N" in
#                                      $WORK/SIDE, its query log in $WORK/SIDE.log;
#                                      SIDE "shim" preloads the shim
#   same ID CONF [FAULT...] -- CMD...  check: glibc's output and the shim's agree
#   dropped LOG                        how many queries the server dropped
source "$(dirname "${BASH_SOURCE[0]}")/../pod/lib.sh"
pod_init "${1:?usage: $(basename "$0") BUILD_DIR}"
STORM=$(dirname "$PROBE")/lookup-storm
LIMIT=60
NAMES=(web kubernetes.default www.example.com nosuch)

conf() {
	{
		echo 'search shop.svc.cluster.local svc.cluster.local cluster.local'
		# shellcheck disable=SC2086 # NAMESERVERS is a list of words
		printf 'nameserver %s\n' $2
		echo "options ndots:5 ${3:-timeout:1 attempts:1}"
	} > "$WORK/$1.conf"
}
conf one '127.0.0.53'

run() {
	local side=$1 conf=$2
	shift 2
	local -a pre=(env)
	[[ $side == shim ]] && pre=(env LD_PRELOAD="$SHIM")
	local -a faults=()
	while [[ $1 != -- ]]; do faults+=("$1"); shift; done
	shift
	pod "$WORK/$side.log" on "$conf" "${faults[@]}" -- timeout $LIMIT "${pre[@]}" "$@" > "$WORK/$side" 2>&1
	echo "status $?" >> "$WORK/$side"
}

same() {
	local id=$1
	shift
	run glibc "$@"
	run shim "$@"
	check "$id" "$(< "$WORK/glibc")" "$(< "$WORK/shim")"
}

dropped() { grep -c ' dropped' "$1"; }
