#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# answers_test.sh BUILD_DIR: pods behind the node cache get the answers
# they had without the shim. The glibc shim through the cache (autopath on)
# against plain glibc through a second cache with autopath off; the musl
# .so and the static musl probe against plain musl. Then the cache against
# the closed-world servers asked directly, TTLs aside, before and after
# the answer is cached.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

node_start
cache_at off 169.254.20.11 autopath='{enabled: false}'

# Services by short name, other namespaces, headless, ExternalName, external
# names, missing names, NODATA, one family only; a group shares its flags.
# corp.example's wildcard answers every dotted name the search list reaches
# (the classic walk's wrong answer): names with a trailing dot are asked as
# they are, and a name of 5 dots as typed first. Once the cache has shown
# support, the shim asks for A and AAAA at once (BOTH): web again, and
# web.shop (a match at candidate 1). shop is NODATA on the walk
# (shop.svc.cluster.local). The shim is also run behind the cache with
# autopath off, which ignores the option (RFC 6891).
groups=(
	"web db w1.workers kubernetes.default legacy.default payments www.example.com example.org
	 b.three.example.org nosuch nosuch.example.com v4only.example.com v6only.example.com
	 empty.nonterminal.example.com google.com www.example.com. example.org. nosuch.example.com.
	 v4only.example.com. v6only.example.com. empty.nonterminal.example.com. web web.shop shop
	 a.b.c.d.wild.example.com"
	"-f inet web kubernetes.default www.example.com v6only.example.com nosuch v6only.example.com.
	 nosuch.example.com."
	"-f inet6 web kubernetes.default www.example.com v4only.example.com db nosuch.example.com
	 www.example.com. v4only.example.com."
	"-F canonname chain.example.com payments web"
)
declare -A shim=(
	[glibc]="env LD_PRELOAD=$SHIM $PROBE_GLIBC"
	[musl-so]="env LD_PRELOAD=$SHIM $PROBE_MUSL"
	[musl-static]=$PROBE_MUSL_STATIC
)
declare -A plain
for g in "${groups[@]}"; do
	read -rd "" -a args <<<"$g"  # every line of the group
	plain[glibc]=$(pod shop-off "$PROBE_GLIBC" "${args[@]}")
	plain[musl-so]=$(pod shop-off "$PROBE_MUSL" "${args[@]}")
	plain[musl-static]=${plain[musl-so]}
	for libc in glibc musl-so musl-static; do
		read -ra cmd <<<"${shim[$libc]}"
		check "$libc ${args[*]:0:3} ...: the plain libc's answers" "${plain[$libc]}" \
			"$(pod shop "${cmd[@]}" "${args[@]}")"
		check "$libc ${args[*]:0:3} ..., autopath off: the plain libc's answers" "${plain[$libc]}" \
			"$(pod shop-off "${cmd[@]}" "${args[@]}")"
	done
done
check_match "plain glibc found the Service and the external name" \
	"web: inet6 stream 6 fd00:10:96::110.*www\.example\.com\.: inet stream 6 93\.184\.216\.34" \
	"$(pod shop-off "$PROBE_GLIBC" web www.example.com.)"
check "the shim's lookups were autopath walks" yes \
	"$( (($(logged "$WORK/cache.log" 'autopath=MATCHED index=[1-9]') > 0)) && echo yes)" \
	"$(tail "$WORK/cache.log")"
check "the autopath-off cache: options ignored" "yes 0" \
	"$( (($(logged "$WORK/off.log" 'opt=yes') > 0)) && echo yes) $(logged "$WORK/off.log" 'autopath=')"

# records: dig's status and records, TTLs dropped.
records() { awk '/->>HEADER<<-/ { print $6 } /^[^;]/ && NF { $2 = ""; print }'; }
while read -r n args; do
	want=$(ask "127.0.0.$n" +noall +comments +answer +authority $args | records)
	sleep 5
for pass in asked cached; do
		check "$args ($pass): the closed world's answer" "$want" \
			"$(q +noall +comments +answer +authority $args | records)"
	done
done <<'END'
53 web.shop.svc.cluster.local A
53 web.shop.svc.cluster.local AAAA
53 db.shop.svc.cluster.local A
53 nope.shop.svc.cluster.local A
53 shop.svc.cluster.local A
53 _http._tcp.web.shop.svc.cluster.local SRV
53 -x 10.96.1.10
53 -x fd00:10:96::110
54 www.example.com AAAA
54 chain.example.com A
54 nosuch.example.com A
54 v4only.example.com AAAA
54 mail.example.com MX
54 txt.example.com TXT
54 x.wild.example.com A
54 google.com.corp.example A
54 b.three.example.org A
END

# ExternalName Services: cluster DNS answers the bare CNAME (as CoreDNS does
# when its own upstream has no answer for the target, as kube-dns did); the
# cache completes the chain through the target's own upstream, as unbound
# does, and keeps each link by its TTL.
# The earlier lookups of payments cached its CNAME (5 s, a Service's TTL) at
# an age unknown here: 5 s on, it has expired and the passes below see it
# fetched, then cached for 4 s before its refresh is due.
upstream_asks() { cat "$WORK/dns53.log" "$WORK/dns55.log" "$WORK/dns54.log" | grep -ci "^[^ ]* $1\. "; }
bare=$(ask 127.0.0.53 +noall +comments +answer payments.shop.svc.cluster.local A | records)
check_match "cluster DNS: payments is the bare CNAME" \
	"^NOERROR,.payments\.shop\.svc\.cluster\.local\.\s+IN\s+CNAME\s+payments\.example\.com\.\s*$" "$bare"
target=$(ask 127.0.0.54 +noall +answer payments.example.com A | records)
asks() { echo "$(upstream_asks payments.shop.svc.cluster.local) $(upstream_asks payments.example.com)"; }
for pass in asked cached; do
	check "payments.shop.svc.cluster.local A ($pass): the chain completed" "$bare
$target" "$(q +noall +comments +answer payments.shop.svc.cluster.local A | records)"
	[[ $pass == asked ]] && before=$(asks)
done
check_match "payments.example.com: the target's link cached on its own" "192\.0\.2\.50" "$(q payments.example.com A)"
check "payments: no link asked upstream again" "$before" "$(asks)"
check_match "legacy.default: a target that exists nowhere is NXDOMAIN, the CNAME kept" \
	"status: NXDOMAIN.*legacy\.default\.svc\.cluster\.local\.\s+[0-9]+\s+IN\s+CNAME\s+legacy\.example\.net\." \
	"$(q legacy.default.svc.cluster.local A)"
summary
