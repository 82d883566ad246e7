#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# overload_test.sh BUILD_DIR: limits {maxConcurrent: 5} before a silent
# upstream: one client's burst held to its share, SERVFAIL beyond it;
# several clients' REFUSED beyond 5 in flight; counted and said in the log;
# 20000 names later the cache's memory is still small. Another cache, its
# upstream answering, caches 20000 names within its capacity and its memory.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

silent_dns 127.0.0.67
external_dns
cache_at cache 169.254.20.10 servers= limits='{maxConcurrent: 5}' \
	upstreamResolvers='{upstreams: [{type: Network, address: 127.0.0.67}]}'
cache_at answering 169.254.20.11

rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/${PID[$1]}/status"; }
small() { # NAME: its resident memory under 50 MiB
	local kb
	kb=$(rss_kb "$1")
	check "$1: resident memory under 50 MiB" yes "$( ((kb < 50 * 1024)) && echo yes)" "VmRSS $kb kB"
}

# A client alone holds at most half the questions (2 of 5; the loop probe,
# loop_guard.h, asking the silent upstream again every second, may hold one
# more and leave it 1): the rest are turned away at once, SERVFAIL.
burst=$("$BURST" -t 5 169.254.20.10 50 'burst%d.example.com')
check "a burst of 50 from one client: SERVFAIL, none waits out its time" "SERVFAIL 50" "$burst"
share=$(metric 'resolv_k8s_forward_limited_total{limit="share"}')
check "48 or 49 turned away beyond its share, counted" yes "$( ((share == 48 || share == 49)) && echo yes)" "$share"
# Eight clients at once: beyond 5 questions in flight, REFUSED (CoreDNS's
# max_concurrent).
bursts=()
for c in 11 12 13 14 15 16 17 18; do
	"$BURST" -t 5 -s "127.0.0.$c" 169.254.20.10 10 "c$c-%d.example.com" > "$WORK/burst$c.out" &
	bursts+=($!)
done
wait "${bursts[@]}"
refused=$(awk '$1 == "REFUSED" { n += $2 } END { print n + 0 }' "$WORK"/burst1?.out)
check "eight clients: some REFUSED beyond maxConcurrent" yes "$( ((refused > 0)) && echo yes)" "$refused"
# The loop probe, asking ourselves, may be among those refused: counted, seen
# by no client.
counted=$(metric resolv_k8s_forward_max_concurrent_rejects_total)
check "refusals counted (and at most the loop probe's)" yes \
	"$( ((counted == refused || counted == refused + 1)) && echo yes)" "$refused REFUSED, $counted counted"
# Said at most every 10 s, with what was turned away meanwhile.
said_refused() {
	awk '$2 == "overloaded:" && $4 == "questions" { n += $3 } END { print n + 0 }' "$WORK/cache.err"
}
all_said() { (($(said_refused) == $(metric resolv_k8s_forward_limited_total))); }
poll 21 all_said
tally "the log says what was turned away, counted" $? || sed 's/^/    | /' "$WORK/cache.err"
out=$("$BURST" -w 200 -t 5 169.254.20.10 20000 'many%d.example.com')
check_match -v "20000 names: every one answered" "timeout" "$out"
small cache

check "an answering upstream: 20000 names" "NOERROR 20000" \
	"$("$BURST" -w 200 169.254.20.11 20000 'n%d.wild.example.com')"
entries=$(metric resolv_k8s_cache_entries 169.254.20.11)
check "an answering upstream: within the capacity" yes "$( ((entries <= 10000)) && echo yes)" "$entries entries"
small answering
summary
