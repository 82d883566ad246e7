#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# restart_test.sh SERVER: a rolling restart under load loses no query.
# In a pod sandbox, dnsperf sends a steady stream to 127.0.0.10:53 while a
# second instance binds the same address (SO_REUSEPORT) and the first gets
# SIGTERM; every query sent must be answered. Replies are delayed 20 ms so
# the first instance has queries in flight when the signal comes. The same
# restart with SIGKILL must lose some: the test can tell. Prints
# "N passed, M failed".
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source tests/lib/assert.sh

for _ in $(seq 200); do echo "www.example.com A"; echo "mail.example.com AAAA"; done >$work/queries

# start_instance N: an instance on the shared address, its /ready on 127.0.0.1N:8080.
start_instance() {
	cat >$work/$1.yaml <<-EOF
		listen: ["127.0.0.10:53"]
		health: "127.0.0.1$1:8080"
		servers:
		  - name: example
		    zones: [example.com]
		    zoneFiles: [$PWD/tests/fixtures/example.com.zone]
	EOF
	"$server" --config $work/$1.yaml --delay-ms 20 2>>$work/server.log &
	pid=$!
	poll 30 curl -sf -o /dev/null "http://127.0.0.1$1:8080/ready" || echo "instance $1 never got ready" >&2
}

# restart SIGNAL: the number of queries lost by a restart that stops the
# old instance with SIGNAL.
restart() {
	start_instance 1
	local old=$pid
	dnsperf -s 127.0.0.10 -d $work/queries -l 8 -Q 2000 -c 8 -t 2 >$work/perf.txt 2>&1 &
	local perf=$!
	sleep 1
	start_instance 2
	local new=$pid
	sleep 0.5
	kill -"$1" $old
	wait $old
	wait $perf
	kill $new
	wait $new
	sed -n 's/^ *Queries lost: *\([0-9]*\).*/\1/p' $work/perf.txt
}

lost=$(restart TERM)
check "SIGTERM under load: no query lost" 0 "$lost" "$(sed -n '/^Statistics/,$p' $work/perf.txt; cat $work/server.log)"
lost=$(restart KILL)
check_match "SIGKILL under load: some lost (the test can tell)" '^[1-9]' "$lost"
summary
