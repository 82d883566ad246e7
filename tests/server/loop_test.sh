#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# loop_test.sh SERVER: forwarding loops, found as CoreDNS's loop plugin finds
# them. In a pod sandbox: a cache forwarding to itself is refused at start
# (the configuration check); two caches forwarding to each other, and a
# cache whose cluster.local zone goes to a stub that sends everything back,
# say so on stderr, answer what they would have forwarded SERVFAIL (no
# storm: a handful of queries), report not ready, and still serve their
# own data and other zones. A cache whose upstream answers finds no loop,
# and a reload onto such an upstream ends the refusal.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source tests/lib/assert.sh

# cache N CONFIG...: an instance on 127.0.0.5N:53 (health on :8080), its
# YAML after `listen`; query log in $work/N.log, stderr in $work/N.err,
# process ${pid[N]}.
declare -A pid
cache() {
	local n=$1
	shift
	printf 'listen: ["127.0.0.5%s:53"]\nhealth: "127.0.0.5%s:8080"\n' "$n" "$n" > "$work/$n.yaml"
	printf '%s\n' "$@" >> "$work/$n.yaml"
	"$server" --config "$work/$n.yaml" --query-log "$work/$n.log" 2> "$work/$n.err" &
	pid[$n]=$!
	poll 30 started "$n" $!
}
# started N PID: N listens, or its process ended (refused at start).
started() { grep -qs listening "$work/$1.err" || ! kill -0 "$2" 2> /dev/null; }
forward_all_to() { printf 'upstreamResolvers:\n  upstreams: [{type: Network, address: %s}]\n' "$1"; }
data='servers:
  - name: data
    zones: [example.com]
    zoneFiles: ['"$PWD"'/tests/fixtures/example.com.zone]'
rcode() { dig +time=5 +tries=1 "@127.0.0.5$1" "$2" | sed -n 's/.*status: \([A-Z]*\).*/\1/p'; }
ready() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.5$1:8080/ready"; }
said() { grep -c "^resolv-k8s-server: loop: .*forwarded to $2, came back" "$work/$1.err"; }
ready_is() { [[ $(ready "$1") == "$2" ]]; }
# twins A B: caches A and B, each the other's upstream. One finds the loop
# (its probe comes back through the other) and breaks it: the second to
# start as a rule, the first when its probe, asked again each second while
# it gets SERVFAIL, goes round before the second's own. Waits for it;
# $finder is the one, $finds how many times either said so.
twins() {
	cache "$1" 'servers: []' "$(forward_all_to "127.0.0.5$2")"
	cache "$2" 'servers: []' "$(forward_all_to "127.0.0.5$1")"
	poll 10 either_said "$1" "$2"
	finds=$(($(said "$1" "127.0.0.5$2:53") + $(said "$2" "127.0.0.5$1:53")))
	finder=$2
	said_so "$2" "127.0.0.5$1:53" || finder=$1
}
said_so() { (($(said "$1" "$2") > 0)); }
either_said() { said_so "$1" "127.0.0.5$2:53" || said_so "$2" "127.0.0.5$1:53"; }

# To itself, directly: refused at start, the configuration named.
cache 1 "$data" "$(forward_all_to 127.0.0.51)"
check_match "itself: refused at start" "1.yaml:[0-9]+: upstreamResolvers: upstream 127.0.0.51:53 is this server's own listen address" \
	"$(cat "$work/1.err")"

# Two caches, each the other's upstream.
twins 2 3
check "each other: one says so" 1 "$finds" "$(cat "$work/2.err" "$work/3.err")"
check "each other: SERVFAIL from both" "SERVFAIL SERVFAIL" "$(rcode 2 www.other.test) $(rcode 3 www.other.test)"
# No storm: each query seen once by the one asked, once by the other.
check "each other: no storm" 3 "$(cat "$work/2.log" "$work/3.log" | grep -c 'www\.other\.test')" \
	"$(cat "$work/2.log" "$work/3.log")"
poll 10 ready_is "$finder" 503
check "each other: the one that says so not ready" 503 "$(ready "$finder")"
kill "${pid[2]}" "${pid[3]}"

# One zone through a stub that sends everything back; the rest answers.
cache 6 "$data"  # the real upstream: example.com's data, REFUSED for other names
cache 5 'servers: []' "$(forward_all_to 127.0.0.54)"
cache 4 "$data" '  - name: cluster
    zones: [cluster.local]
    forwardPlugin: {upstreams: ["127.0.0.55"]}' "$(forward_all_to 127.0.0.56)"
poll 10 said_so 4 127.0.0.55:53
check "one zone: said for the cluster's upstream only" "1 0" \
	"$(said 4 127.0.0.55:53) $(grep -c 'loop:.*127.0.0.56' "$work/4.err")" "$(cat "$work/4.err")"
check "one zone: the looping zone is SERVFAIL" SERVFAIL "$(rcode 4 web.shop.svc.cluster.local)"
check "one zone: the other upstream's answers pass" "REFUSED NOERROR" \
	"$(rcode 4 www.other.test) $(rcode 4 mail.example.com)"

# No loop; then a reload from a loop onto an upstream that answers.
cache 7 'servers: []' "$(forward_all_to 127.0.0.56)"
poll 10 ready_is 7 200
check "an upstream that answers: no loop said, ready" "0 200" "$(grep -c loop: "$work/7.err") $(ready 7)"
check "an upstream that answers: its answer" NOERROR "$(rcode 7 www.example.com)"
twins 9 8
n=$finder
check "before the reload: a loop" "1 SERVFAIL" "$finds $(rcode "$n" www.example.com)"
printf 'listen: ["127.0.0.5%s:53"]\nhealth: "127.0.0.5%s:8080"\nservers: []\n%s\n' "$n" "$n" "$(forward_all_to 127.0.0.56)" > "$work/$n.yaml"
kill -HUP "${pid[$n]}"
poll 10 grep -q "configuration reloaded" "$work/$n.err"
poll 10 ready_is "$n" 200
check "after the reload onto an upstream that answers: no new loop, answers, ready" "1 NOERROR 200" \
	"$(grep -c loop: "$work/$n.err") $(rcode "$n" www.example.com) $(ready "$n")" "$(cat "$work/$n.err")"
summary
