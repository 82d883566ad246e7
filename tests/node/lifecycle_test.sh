#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lifecycle_test.sh BUILD_DIR: SIGTERM with queries in flight (an upstream
# answering after 1 s): they are answered, new ones are not taken, the
# cache exits within 5 s. Two caches on one address (SO_REUSEPORT) both
# serve, and while the first drains after SIGTERM the second answers every
# new query, UDP and TCP.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

zone "$WORK/slow.test.zone" slow.test '* 60 IN A 192.0.2.100'
cluster_dns 53
cluster_dns 55
external_dns
start dns56 "$SERVER" --listen 127.0.0.56:53 --zone "$WORK/slow.test.zone" --delay-ms 1000 \
	--query-log "$WORK/dns56.log"
slow="servers=[$CLUSTER_SERVER, {name: slow, zones: [slow.test], forwardPlugin: {upstreams: [127.0.0.56]}}]"

# in_flight COUNT PREFIX: the slow upstream got COUNT queries named PREFIX*.
in_flight() { (($(grep -c " $2[0-9]*\.slow\.test\. " "$WORK/dns56.log") == $1)); }
# slow_burst PREFIX: 20 queries the slow upstream holds, from 20 source ports.
slow_burst() {
	"$BURST" -p -t 5 169.254.20.10 20 "$1%d.slow.test" > "$WORK/$1.out" &
	poll 10 in_flight 20 "$1"
}
exited() { ! kill -0 "$1" 2>/dev/null; }
# stopped NAME: it exits within 5 s of SIGTERM, with status 0.
stopped() {
	poll 5 exited "${PID[$1]}"
	tally "$1: exits within 5 s" $?
	wait "${PID[$1]}"
	check "$1: exit status" 0 $?
}
# Every UDP socket on the address connected: it takes no datagram of a client.
left_group() { [[ -z $(ss -Hlun 'src 169.254.20.10 and sport = :53') ]]; }

cache_at cache 169.254.20.10 "$slow"
slow_burst drain
burst=$!
kill -TERM "${PID[cache]}"
poll 5 left_group
check_match "draining: a new UDP query is not taken" "connection refused|timed out" \
	"$(q www.example.com +time=1)"
check_match "draining: a new TCP connection is not taken" "connection refused|timed out|end of file" \
	"$(q www.example.com +tcp +time=1)"
wait $burst
check "draining: the queries in flight answered" "NOERROR 20" "$(< "$WORK/drain.out")"
stopped cache

cache_at first 169.254.20.10 "$slow"
start second "$SERVER" --config "$WORK/first.yaml" --query-log "$WORK/second.log"
check "two instances: answers" "NOERROR 40" "$("$BURST" -p 169.254.20.10 40 'both%d.wild.example.com')"
check "two instances: both serve" "yes yes" \
	"$( (($(logged "$WORK/first.log" ' both') > 0)) && echo yes) $( (($(logged "$WORK/second.log" ' both') > 0)) && echo yes)"
slow_burst roll
burst=$!
kill -TERM "${PID[first]}"
check "first draining: UDP queries answered" "NOERROR 100" \
	"$("$BURST" -p -w 4 169.254.20.10 100 'udp%d.wild.example.com')"
for i in $(seq 10); do
	check_match "first draining: TCP query $i answered" "status: NOERROR" "$(q "tcp$i.wild.example.com" +tcp)"
done
wait $burst
check "first draining: its queries in flight answered" "NOERROR 20" "$(< "$WORK/roll.out")"
stopped first
check_match "first gone: the second answers" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"
summary
