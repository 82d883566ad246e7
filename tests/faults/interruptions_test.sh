#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# interruptions_test.sh BUILD_DIR: lookups through the shim interrupted
# mid-flight: the server restarted under them, their waits cut by EINTR.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# The server restarted three times while lookups run: no crash, no hang and
# no wrong address; the libc's errors while it is down, its answer once it
# is back.
restarts() {
	local d i
	(while [[ ! -e $WORK/restarted ]]; do "$@" -t 2 -n 100 web; done) > "$WORK/during" &
	for i in 1 2 3; do
		sleep 0.3
		# The last one started serves (its process is the server's, not yet a shell).
		((i == 1)) || poll 30 grep -qs listening "$WORK/server.$((i - 1))"
		for d in /proc/[0-9]*; do
			[[ $(readlink "$d/exe") == "$POD_SERVER" ]] || continue
			kill "${d#/proc/}"
			# Gone, or a zombie: its socket is closed either way.
			while [[ $(cut -d' ' -f3 "$d/stat" 2>/dev/null) == [^Z] ]]; do sleep 0.05; done
		done
		# One lookup while it is down, whatever the storm's timing.
		"$@" -n 1 web >> "$WORK/down"
		sleep 0.3
		# shellcheck disable=SC2086 # POD_DATA is a list of words
		"$POD_SERVER" --listen 127.0.0.53:53 $POD_DATA --autopath on 2> "$WORK/server.$i" &
	done
	poll 30 grep -qs listening "$WORK/server.3"
	touch "$WORK/restarted"
	wait %1
	"$@" -n 50 web
}
(export -f restarts poll; export WORK
 pod "$WORK/restart.log" on "$WORK/one.conf" -- timeout $LIMIT bash -c 'restarts "$@"' - \
	env LD_PRELOAD="$SHIM" "$STORM") > "$WORK/restart" 2>&1
check "server restarts: exit" 0 "$?"
check "server restarts: after" "50 fd00:10:96::110" "$(< "$WORK/restart")"
# What glibc does then: EAI_AGAIN when refused; after a timeout (the server
# killed with the query in hand) glibc still asks the name as it is, which
# does not exist: EAI_NONAME; a pair cut in half leaves the A record alone.
check "server restarts: web's addresses or the libc's errors" "" \
	"$(awk '$2 != "fd00:10:96::110" && $2 != "10.96.1.10" && $0 !~ /^[0-9]+ error -[23]$/' "$WORK/during")"
check "server restarts: lookups failed while it was down" "1 error -3
1 error -3
1 error -3" "$(< "$WORK/down")"

# EINTR: every thread signalled every 500 us while it waits for a slow
# server; glibc's answers.
same "EINTR" "$WORK/one.conf" --delay-ms=5 -- "$STORM" -t 2 -n 20 -i www.example.com
check "EINTR: signals delivered" "" "$(grep 'no interrupt' "$WORK/shim")"
summary
