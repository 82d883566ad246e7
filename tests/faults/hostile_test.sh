#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# hostile_test.sh BUILD_DIR: a hostile responder (hostile.py, one mode per
# run) answers the probe: nothing spoofed gets through the shim, and glibc's
# answer wherever glibc answers.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
HOSTILE=$POD_ROOT/tests/faults/hostile.py

conf hostile 127.0.0.66
for mode in garbage short otherid otherq cnameloop cnamepair comploop bigcount \
	badstatus badindex matchedempty echo tc; do
	for side in glibc shim; do
		run $side "$WORK/hostile.conf" -- "$HOSTILE" 127.0.0.66 "$WORK/$side.log" -- "$PROBE" $mode
	done
	g=$(< "$WORK/glibc") s=$(< "$WORK/shim")
	check "hostile $mode: nothing spoofed" "" "$(grep -E '6\.6\.6\.|6666:' <<<"$s")"
	if grep -q ': error' <<<"$g"; then
		check "hostile $mode: an error as glibc" "$(grep -c ': error' <<<"$g") $(tail -1 <<<"$g")" \
			"$(grep -c ': error' <<<"$s") $(tail -1 <<<"$s")"
		[[ $g == "$s" ]] || echo "note - hostile $mode: glibc ${g//$'\n'/ }; shim ${s//$'\n'/ }"
	else
		check "hostile $mode: glibc's answer" "$g" "$s"
	fi
done
summary
