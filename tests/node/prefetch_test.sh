#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# prefetch_test.sh BUILD_DIR: an answer asked for in the last tenth of its
# TTL, or its last second when that is longer (positiveTTL 5 s here,
# Kubernetes' own: from 4 s), is answered from the cache at once and
# fetched anew in the background, before it expires: asked again past the
# old expiry, it is not forwarded; once per TTL, not once per question.
# The answers' TTLs tell the entry's age (the cache's clock, not the test's).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

node_start cache='{positiveTTL: 5s}'

upstream() { # NAME TYPE: how often the upstreams were asked
	cat "$WORK"/dns5[345].log | grep -ci " ${1//./\\.}\. $2 "
}
# ttl_is N: asked now, the answer's TTL reads N (the entry's age in whole
# seconds is 5 - N): the cache's own clock, not the test's.
ttl_is() { [[ $(q +noall +answer www.example.com) =~ ^www\.example\.com\.[[:space:]]+$1[[:space:]] ]]; }
# fetches: "ASKED PREFETCHED", how often upstream was asked and how often prefetch did.
fetches() { echo "$(upstream www.example.com A) $(metric resolv_k8s_cache_prefetch_total)"; }
fetched() { [[ $(fetches) == "$1" ]]; }

q www.example.com > /dev/null
check "asked: forwarded" 1 "$(upstream www.example.com A)"
poll 10 ttl_is 2
check "in its fourth second: from the cache, nothing fetched" "1 0" "$(fetches)"
poll 10 ttl_is 1
tally "in its last second: answered from the cache (TTL 1)" $?
poll 5 fetched "2 1"
check "... and fetched anew once, before the old answer expired" "2 1" "$(fetches)"
sleep 1.1
check_match "past the old expiry: the answer" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"
check "... from the refreshed entry, not forwarded" 2 "$(upstream www.example.com A)"
summary
