#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# config_test.sh BUILD_DIR: a bad configuration file stops start-up with
# "FILE:LINE: what" and exit status 1, before anything is served; SIGHUP
# applies a changed file (a new zone, the cache kept; logLevel and its query
# log), and a broken one is reported while the old configuration keeps
# serving.
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
refused log-level 2 "logLevel: 'debug' is not one of" "$listen
logLevel: debug
$upstream"
refused query-log-alone 2 "queryLog: needs logLevel Debug or Trace" "$listen
queryLog: /tmp/queries.log
$upstream"
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

# The query log: Debug has denials and errors, Trace every query, each line
# "TIME CLIENT QNAME QTYPE opt=.. RCODE SECONDS"; Normal writes none. The
# loop probes of each reload (HINFO) are denials too.
stamped='^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{6}Z [0-9.]+:[0-9]+ '
lines() { grep -v ' HINFO ' "$WORK/queries.log"; }
logged_now() { lines | grep -Ec " $1\\. A opt=no $2 [0-9]+\.[0-9]{6}\$"; }
for level in Debug Trace Normal; do
	node_config "$WORK/cache.yaml" 169.254.20.10 servers="[$CLUSTER_SERVER,
  {name: extra, zones: [extra.test], forwardPlugin: {upstreams: [127.0.0.56]}}]" \
		logLevel=$level queryLog=$([[ $level != Normal ]] && echo queries.log)
	reload "configuration reloaded"
	q "ok-$level.extra.test" > /dev/null
	q www.extra.test > /dev/null
	q web.shop.svc.cluster.local > /dev/null
	check "$level: a denial logged" "$([[ $level == Normal ]] && echo 0 || echo 1)" \
		"$(logged_now "ok-$level\\.extra\\.test" NXDOMAIN)"
done
check_match "the lines: time, client, question, rcode, seconds" "${stamped}ok-Debug\.extra\.test\. A opt=no NXDOMAIN 0\.[0-9]{6}[[:space:]]*$" \
	"$(lines | head -n 1)"
check "Debug: answers not logged, Trace: logged" 1 "$(logged_now 'web\.shop\.svc\.cluster\.local' NOERROR)"
check "Normal: nothing more" 4 "$(lines | wc -l)"

printf 'listen: ["169.254.20.10:53"]\nservers: [\n' > "$WORK/cache.yaml"
reload "$WORK/cache.yaml:[0-9]*: .*(the old configuration keeps serving)"
check_match "broken: the new zone still served" "$(ans www.extra.test A 192.0.2.200)" "$(q www.extra.test)"
check_match "broken: the cluster still served" "$(ans web.shop.svc.cluster.local A 10.96.1.10)" \
	"$(q web.shop.svc.cluster.local)"
check "broken: still running" 0 "$(kill -0 "${PID[cache]}"; echo $?)"
summary
