#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# config_test.sh BUILD_DIR: a bad configuration file stops start-up with
# "FILE:LINE: what" and exit status 1, before anything is served; SIGHUP
# applies a changed file (a new zone, the cache kept), and a broken one is
# reported while the old configuration keeps serving.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

listen='listen: ["169.254.20.10:53"]'
upstream='upstreamResolvers: {upstreams: [{type: Network, address: 127.0.0.54}]}'
# refused NAME LINE WHAT CONTENT: start-up stops with one line
# "FILE:LINE: WHAT..." and exit status 1.
refused() {
	local file=$WORK/$1.yaml out rc
	printf '%s\n' "$4" > "$file"
	out=$(timeout 5 "$SERVER" --config "$file" 2>&1)
	rc=$?
	check_match "$1: exit 1, one line: FILE:LINE: what" "^1 1 resolv-k8s-server: $file:$2: $3" \
		"$rc $(wc -l <<<"$out") $out"
}
refused syntax 3 "end of map flow not found" "$listen
upstreamResolvers: {upstreams: [{type: Network, address: 127.0.0.54}]"
refused unknown-key 3 "cache: unknown key 'colour'" "$listen
$upstream
cache: {capacity: 10, colour: blue}"
refused policy 4 "policy: 'random' is not one of" "$listen
upstreamResolvers:
  upstreams: [{type: Network, address: 127.0.0.54}]
  policy: random"
refused duration 3 "negativeTTL: '30' needs a unit" "$listen
cache:
  negativeTTL: 30
$upstream"
refused zone-twice 4 "zones: X.test. is already served by 'a'" "$listen
servers:
  - {name: a, zones: [x.test], forwardPlugin: {upstreams: [127.0.0.54]}}
  - {name: b, zones: [X.test], forwardPlugin: {upstreams: [127.0.0.54]}}"
refused missing-file 3 "zoneFiles: [^ ]*/missing.zone: No such file" "$listen
servers:
  - {name: a, zones: [x.test], zoneFiles: [missing.zone]}"
refused own-address 2 "upstreamResolvers: upstream 169.254.20.10:53 is this server's own" "$listen
upstreamResolvers: {upstreams: [{type: Network, address: 169.254.20.10}]}"
check_match "refused: nothing served" "connection refused|timed out" "$(q www.example.com)"

node_start
zone "$WORK/extra.test.zone" extra.test 'www 60 IN A 192.0.2.200'
start dns56 "$SERVER" --listen 127.0.0.56:53 --zone "$WORK/extra.test.zone"
check_match "before: the zone is not ours" "status: NXDOMAIN" "$(q before.extra.test)"
check_match "before: www.example.com" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"

# reload REGEX: SIGHUP, then a line of the cache's matches REGEX.
reload() {
	local lines
	lines=$(wc -l < "$WORK/cache.err")
	kill -HUP "${PID[cache]}"
	said() { tail -n +$((lines + 1)) "$WORK/cache.err" | grep -q "$1"; }
	eventually "SIGHUP: $1" said "$1"
}
node_config "$WORK/cache.yaml" 169.254.20.10 servers="[$CLUSTER_SERVER,
  {name: extra, zones: [extra.test], forwardPlugin: {upstreams: [127.0.0.56]}}]"
reload "configuration reloaded"
check_match "reloaded: the new zone" "$(ans www.extra.test A 192.0.2.200)" "$(q www.extra.test)"
check_match "reloaded: the cache kept" "$(ans www.example.com A 93.184.216.34)" "$(q www.example.com)"
check "reloaded: the cache kept, nothing forwarded" 1 "$(grep -c ' www\.example\.com\. A ' "$WORK/dns54.log")"

printf 'listen: ["169.254.20.10:53"]\nservers: [\n' > "$WORK/cache.yaml"
reload "$WORK/cache.yaml:[0-9]*: .*(the old configuration keeps serving)"
check_match "broken: the new zone still served" "$(ans www.extra.test A 192.0.2.200)" "$(q www.extra.test)"
check_match "broken: the cluster still served" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" \
	"$(q web.shop.svc.cluster.local)"
check "broken: still running" 0 "$(kill -0 "${PID[cache]}"; echo $?)"
summary
