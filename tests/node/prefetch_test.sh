#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# prefetch_test.sh BUILD_DIR: an answer asked for in the last tenth of its
# TTL, or its last second when that is longer (positiveTTL 5 s here,
# Kubernetes' own: from 4 s), is answered from the cache at once and
# fetched anew in the background, before it expires: asked again past the
# old expiry, it is not forwarded; once per TTL, not once per question.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

node_start cache='{positiveTTL: 5s}'

upstream() { # NAME TYPE: how often the upstreams were asked
	cat "$WORK"/dns5[345].log | grep -ci " ${1//./\\.}\. $2 "
}
# at SECONDS: sleeps until SECONDS after the first question.
at() { python3 -c 'import sys, time; time.sleep(max(0, float(sys.argv[1]) + float(sys.argv[2]) - time.time()))' "$start" "$1"; }

start=$(date +%s.%N)
q www.example.com > /dev/null
check "asked: forwarded" 1 "$(upstream www.example.com A)"
at 3.5
q www.example.com > /dev/null
check "at 3.5 s: from the cache, nothing fetched" "1 0" "$(upstream www.example.com A) $(metric resolv_k8s_cache_prefetch_total)"
at 4.2
check_match "at 4.2 s, the last second: the answer" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"
at 4.8
check "fetched anew once, before the old answer expired" "2 1" \
	"$(upstream www.example.com A) $(metric resolv_k8s_cache_prefetch_total)"
at 5.5
check_match "at 5.5 s, past the old expiry: the answer" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"
check "... from the refreshed entry, not forwarded" 2 "$(upstream www.example.com A)"
summary
