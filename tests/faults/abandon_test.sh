#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# abandon_test.sh BUILD_DIR: a lookup left mid-way, by siglongjmp out of a
# SIGALRM handler or by pthread_cancel, while the server is slow (every
# reply 500 ms late): through the shim under valgrind, no invalid access,
# and the lookups after it answered as glibc answers them when no lookup
# was left, whatever the left lookup's late replies. How glibc itself fares
# is noted: it can fail the next lookup, or hang in gethostbyname.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
LIMIT=30
ABANDON=$(dirname "$PROBE")/abandon
conf slow '127.0.0.53' 'timeout:3 attempts:1'
LEFT=kubernetes.default
AFTER=(web payments.shop www.example.com)

# abandon SIDE HOW FUNC [valgrind]: the program in a pod of its own, its
# output in $WORK/SIDE, valgrind's errors in $WORK/SIDE.vg.
abandon() {
	local side=$1 how=$2 func=$3
	local -a vg=()
	[[ ${4:-} ]] && vg=(valgrind -q --log-file="$WORK/$side.vg")
	run "$side" "$WORK/slow.conf" --delay-ms=500 -- "${vg[@]}" "$ABANDON" "$how" "$func" "$LEFT" "${AFTER[@]}"
}

invalid() { grep -c 'Invalid \|uninitialised\|Syscall param' "$1"; }

for func in gai ghbn_r res ghbn; do
	abandon glibc none "$func"
	unhurt=$(tail -n +3 "$WORK/glibc")
	check "$func unhurt: every name answered" "" "$(grep error <<<"$unhurt")"
	for how in jump cancel; do
		id="$how out of $func"
		abandon shim "$how" "$func" valgrind
		check "$id: the lookup was left" "left" "$(sed -n 2p "$WORK/shim")"
		check "$id: no invalid access through the shim" 0 "$(invalid "$WORK/shim.vg")" \
			"$(head -30 "$WORK/shim.vg")"
		check "$id: the lookups after it, as glibc's unhurt" "$unhurt" "$(tail -n +3 "$WORK/shim")"
		abandon glibc "$how" "$func"
		g=$(tail -n +3 "$WORK/glibc")
		[[ $g == "$unhurt" ]] || echo "note - $id: glibc alone then gave ${g//$'\n'/; }"
	done
done
summary
