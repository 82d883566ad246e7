#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# descriptors_test.sh BUILD_DIR: glibc's answers through the shim when the
# program took every descriptor, when ulimit leaves few, and with 0-2 closed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

same "descriptors exhausted" "$WORK/one.conf" -- "$STORM" -e -n 2 www.example.com
# Descriptors the test's caller left open (a flock's) closed first: the
# program has 0-2 and one free, whoever runs the test.
same "ulimit -n 4" "$WORK/one.conf" -- bash -c 'for fd in $(ls /proc/$$/fd); do ((fd > 2)) && eval "exec $fd>&-"; done
	ulimit -n 4 && exec "$@"' - "$PROBE" "${NAMES[@]}"
same "stdin and stderr closed" "$WORK/one.conf" -- bash -c 'exec 0<&- 2>&- "$@"' - "$PROBE" "${NAMES[@]}"
run glibc "$WORK/one.conf" -- bash -c 'exec 0<&- 1>&- 2>&- "$@"' - "$PROBE" "${NAMES[@]}"
run shim "$WORK/one.conf" -- bash -c 'exec 0<&- 1>&- 2>&- "$@"' - "$PROBE" "${NAMES[@]}"
check "0-2 closed: exit" "$(< "$WORK/glibc")" "$(< "$WORK/shim")"
check "0-2 closed: the shim still asks" "yes" "$([[ -s $WORK/shim.log ]] && echo yes)"
summary
