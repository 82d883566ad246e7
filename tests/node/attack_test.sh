#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# attack_test.sh BUILD_DIR: the node cache, with its default limits in a
# 128 MiB memory cgroup, attacked by 12 pods (IPv4 and IPv6, UDP, TCP and
# HTTP) that mix at random what hostile or buggy pods do (tests/node/attack.py:
# big answers, unanswered names, names whose TTL flips to 0, NXDOMAIN
# floods, CNAME chains and loops, autopath options and marker names with
# many suffixes, EDNS sizes, trickled and idle connections, endless HTTP
# headers), beside a bystander whose cache hits and misses are all answered
# NOERROR within clientTimeout. One run per seed of ATTACK_SEEDS (1 2 3),
# each ATTACK_SECONDS (10) long; a broken invariant names its seed, and
# `ATTACK_SEEDS=N make test-node-attack` replays it.
set -uo pipefail
SEEDS=${ATTACK_SEEDS:-1 2 3}
SECONDS_EACH=${ATTACK_SECONDS:-10}
# lib.sh's bound on a hung test counts the attacks' time.
read -ra seeds <<<"$SEEDS"
export SOAK_SECONDS=${SOAK_SECONDS:-$((${#seeds[@]} * (SECONDS_EACH + 10)))}
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cgroup.sh"
ATTACK=$NODE_ROOT/tests/node/attack.py

# The attackers' addresses, and the cache's on IPv6.
for i in $(seq 1 12); do ip -6 addr add "fd00:ca::1:$(printf %x "$i")/128" dev lo nodad; done
ip -6 addr add fd00:ca::10/128 dev nodelocaldns nodad

# Upstreams: cluster DNS, the external resolver (big.test: 4000 addresses a
# name, 64 KB), one that never answers (silent.test) and one whose TTLs
# flip to 0 (flip.test).
{
	echo '$ORIGIN big.test.'
	echo '@ 60 IN SOA ns hostmaster 1 7200 1800 604800 60'
	for i in $(seq 0 3999); do echo "* 300 IN A 10.$((i / 250)).$((i % 250)).1"; done
} > "$WORK/big.test.zone"
silent_dns 127.0.0.67
start flip /usr/bin/python3 "$ATTACK" flip 127.0.0.68
cluster_dns 53
cluster_dns 55
external_dns --zone "$WORK/big.test.zone"
servers="[$CLUSTER_SERVER, {name: silent, zones: [silent.test], forwardPlugin: {upstreams: [127.0.0.67]}},
  {name: flip, zones: [flip.test], forwardPlugin: {upstreams: [127.0.0.68]}}]"

cg=$(memory_cgroup rk8s-attack)
CGROUPS+=("cache:$cg")
node_config "$WORK/cache.yaml" 169.254.20.10 servers="$servers" \
	listen='["169.254.20.10:53", "[fd00:ca::10]:53"]'
start cache "${IN_CGROUP[@]}" "$cg" "$SERVER" --config "$WORK/cache.yaml"
idle_kib=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/${PID[cache]}/status")

for seed in $SEEDS; do
	lines=$(wc -l < "$WORK/cache.err")
	/usr/bin/python3 "$ATTACK" run "$seed" "$SECONDS_EACH" "${PID[cache]}" "$idle_kib" v6 > "$WORK/attack.out" 2>&1
	status=$?
	said=$(($(wc -l < "$WORK/cache.err") - lines))
	echo "    seed $seed: $(head -1 "$WORK/attack.out"); $said log lines"
	grep '^note' "$WORK/attack.out"
	check "seed $seed: every invariant held (replay: ATTACK_SEEDS=$seed)" 0 "$status" \
		"$(cat "$WORK/attack.out"; tail -n "$said" "$WORK/cache.err" | cut -c1-200 | head -20)"
	alive "seed $seed" "${PID[cache]}" "$cg"
	# The log is rate-limited: a line or two a kind every 10 s.
	check "seed $seed: the log bounded" yes "$( ((said <= 10 * (SECONDS_EACH / 10 + 1))) && echo yes)" \
		"$said lines: $(tail -n "$said" "$WORK/cache.err" | cut -c1-120 | sort | uniq -c | sort -rn | head -5)"
done
echo "    RSS at idle $((idle_kib >> 10)) MiB, after the attacks $(rss_mib "${PID[cache]}") MiB"
summary
