#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# hardening_test.sh BUILD_DIR: the library is never weaker than the libc it
# replaces (issue 37): source ports, the stats file, the environment and
# the private allocator, /etc/hosts' memory. Needs root for the pod
# sandboxes; packets stay on loopback.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
pod_init "${1:?usage: hardening_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
cp "$POD_ROOT/tests/tools/kubelet.conf" "$WORK/on.conf"
sed 's/k8s-autopath:on/k8s-autopath:off/' "$WORK/on.conf" > "$WORK/off.conf"

# Source ports: 60 classic walks in one process against a server that
# answers NXDOMAIN (4 candidates each, A and AAAA together on one socket as
# glibc sends them), glibc alone and through the library. glibc opens a
# socket for every candidate, a new random port each; so must we. The
# kernel picks ports at random, so a port may come up twice on either side
# (about once in 240 over the widest range, set here): a margin of 3.
names=$(seq -f 'nosuch%g.example.com' 60)
ports() {
	# shellcheck disable=SC2086 # names: a list of words
	pod "$WORK/ports.log" off "$WORK/off.conf" -- bash -c \
		'echo "1024 65535" > /proc/sys/net/ipv4/ip_local_port_range && LD_PRELOAD=$0 "${@}" >/dev/null' \
		"$1" "$PROBE" $names
	echo "$(wc -l < "$WORK/ports.log") $(cut -d' ' -f1 "$WORK/ports.log" | sort -u | wc -l)"
}
read -r glibc_queries glibc_ports <<<"$(ports "")"
read -r our_queries our_ports <<<"$(ports "$SHIM")"
echo "distinct source ports over 60 classic lookups: glibc $glibc_ports, the library $our_ports ($our_queries queries)"
check "ports: the same walk, query for query" "480 480" "$glibc_queries $our_queries"
check "ports: at least glibc's less the kernel's chance (ours $our_ports, glibc $glibc_ports)" yes \
	"$( ((our_ports + 3 >= glibc_ports && our_ports > 200)) && echo yes || echo no)"

# The stats file sits where others may write (an emptyDir is 0777, no
# sticky bit). A symlink `nobody` planted there to a root-owned 0600 file,
# a file of nobody's, a FIFO, a directory on the way that is nobody's
# symlink to a root-owned 0700 one: a root process leaves each as it was.
dir=$WORK/shared
mkdir -m 0777 "$dir"
printf 'secret\n' > "$WORK/secret"
chmod 0600 "$WORK/secret"
ln -s "$WORK/secret" "$dir/link" && chown -h nobody:nogroup "$dir/link"
printf 'theirs\n' > "$dir/theirs" && chown nobody:nogroup "$dir/theirs"
mkfifo "$dir/fifo"
mkdir -m 0700 "$WORK/roots"
ln -s "$WORK/roots" "$dir/dirlink" && chown -h nobody:nogroup "$dir/dirlink"
stats_lookup() {
	pod "$WORK/stats.log" on "$WORK/on.conf" -- \
		timeout 60 env LD_PRELOAD="$SHIM" RESOLV_K8S_STATS="$1" "$PROBE" web
}
for f in link theirs fifo dirlink/stats; do
	out=$(stats_lookup "$dir/$f" 2>&1)
	check "stats file $f: the lookup answers" 0 "$?" "$out"
done
check "stats file a symlink to root's 0600 file: that file untouched" "secret 600 root" \
	"$(cat "$WORK/secret") $(stat -c '%a %U' "$WORK/secret")"
check "stats file nobody's: left as it was" "theirs nobody" "$(cat "$dir/theirs") $(stat -c %U "$dir/theirs")"
check "stats file a FIFO: still a FIFO" fifo "$(stat -c %F "$dir/fifo")"
check "stats file through a symlinked directory: nothing written in root's" "" "$(ls -A "$WORK/roots")"
stats_lookup "$dir/ours" >/dev/null
check "stats file: one of our own is written" 1 "$(grep -c '^# resolv-k8s pid=' "$dir/ours")"

# A reader holding a shared lock on the stats file (read access is enough;
# here this shell, on a descriptor of its own, for the whole run) delays
# neither a lookup (lookups of 1.5 s each, the server's delay: the 5 s
# write falls in the fourth) nor the exit: the process ends while the lock
# is held, where 60 s would be a hang. What it could not write is skipped,
# the file as the reader saw it.
stats=$dir/locked
stats_lookup "$stats" >/dev/null
before=$(md5sum < "$stats")
exec {lock}<"$stats"
flock -s "$lock"
out=$(pod "$WORK/stats.log" on "$WORK/on.conf" --delay-ms=1500 -- \
	timeout 60 env LD_PRELOAD="$SHIM" RESOLV_K8S_STATS="$stats" "$PROBE" -n 5 web 2>&1)
check "stats file under a shared lock: 5 lookups and the exit, the lock held all along" 0 "$?" "$out"
check "stats file under a shared lock: not written" "$before" "$(md5sum < "$stats")"
exec {lock}<&-

# The private mimalloc reads no MIMALLOC_* variable and writes nothing to
# the program's streams: nothing on stderr, and stderr keeps no
# orientation (glibc's fputs of even an empty string makes it
# byte-oriented, which fails a program's later fwprintf(stderr, ...)).
export MIMALLOC_VERBOSE=1 MIMALLOC_SHOW_STATS=1 MIMALLOC_SHOW_ERRORS=1
for side in "glibc $build/glibc/libresolv-k8s.so $PROBE" \
	"musl $build/musl/libresolv-k8s.so $build/tests/gai-probe-musl" "static - $build/tests/gai-probe-musl-rk8s"; do
	read -r libc lib probe <<<"$side"
	[[ $lib == - ]] && lib=
	pod "$WORK/log" on "$WORK/on.conf" -- env LD_PRELOAD="$lib" "$probe" web > "$WORK/out" 2> "$WORK/err"
	check "MIMALLOC_* set, $libc: the answer, nothing on stderr" "answered 0" \
		"$(grep -q '^web: inet' "$WORK/out" && echo answered) $(wc -l < "$WORK/err")" "$(head -5 "$WORK/err")"
done
unset MIMALLOC_VERBOSE MIMALLOC_SHOW_STATS MIMALLOC_SHOW_ERRORS
check "stderr's orientation untouched (glibc, musl)" "0 0" \
	"$(LD_PRELOAD=$build/glibc/libresolv-k8s.so "$build/tests/fwide-probe") $(LD_PRELOAD=$build/musl/libresolv-k8s.so "$build/tests/fwide-probe-musl")"

# Every variable is read as secure_getenv reads it: a setgid program
# (AT_SECURE) ignores RESOLV_K8S_DEBUG and RESOLV_K8S_STATS; the kill
# switch RESOLV_K8S=off, which can only make the library do less, is read
# there too.
# The static musl archive may be linked into one; glibc's loader preloads
# into one only from /etc/ld.so.preload. The same program without the bit
# is the control.
for side in "static $build/tests/gai-probe-musl-rk8s" "glibc $PROBE"; do
	read -r libc probe <<<"$side"
	cp "$probe" "$WORK/plain" && cp "$probe" "$WORK/setgid"
	chgrp nogroup "$WORK/setgid" && chmod g+s "$WORK/setgid"
	preload=
	if [[ $libc == glibc ]]; then
		preload=$WORK/ld.so.preload
		echo "$build/glibc/libresolv-k8s.so" > "$preload"
	fi
	for p in plain setgid; do
		rm -f "$WORK/stats.$p"
		POD_PRELOAD=$preload pod "$WORK/$p.log" on "$WORK/on.conf" -- \
			env RESOLV_K8S_DEBUG=1 RESOLV_K8S_STATS="$WORK/stats.$p" "$WORK/$p" web > /dev/null 2> "$WORK/$p.err"
		POD_PRELOAD=$preload pod "$WORK/$p.off.log" on "$WORK/on.conf" -- \
			env RESOLV_K8S=off "$WORK/$p" web > /dev/null
		echo "debug=$(grep -q '^resolv-k8s:' "$WORK/$p.err" && echo yes || echo no)" \
			"stats=$([[ -e $WORK/stats.$p ]] && echo yes || echo no)" \
			"off=$(grep -q 'opt=yes' "$WORK/$p.off.log" && echo ignored || echo read)" > "$WORK/$p.seen"
	done
	check "$libc, plain: debug lines, the stats file, RESOLV_K8S=off read" "debug=yes stats=yes off=read" \
		"$(cat "$WORK/plain.seen")"
	check "$libc, setgid (AT_SECURE): neither read, but the kill switch" "debug=no stats=no off=read" \
		"$(cat "$WORK/setgid.seen")" "$(cat "$WORK/setgid.err")"
done

# /etc/hosts is streamed, as both libcs read it: with a 40 MB file, the peak
# resident memory after a lookup (gai-probe -M) within 2 MiB of the libc's
# alone (the library held the whole file: 41 MiB against glibc's 1.7).
cp "$WORK/hosts" "$WORK/hosts.small"
awk 'BEGIN { print "127.0.0.1\tlocalhost"
	for (n = 0; size < 40000000; n++) {
		line = sprintf("10.%d.%d.%d\thost%d.example.internal alias%d", n % 251, n % 241, n % 239, n, n)
		print line; size += length(line) + 1 } }' > "$WORK/hosts"
peak() {
	pod "$WORK/log" on "$WORK/on.conf" -- env LD_PRELOAD="$1" "$2" -M web 2>&1 >/dev/null |
		awk '/^peak_rss_kib/ { print $2 }'
}
for side in "glibc $build/glibc/libresolv-k8s.so $PROBE" \
	"musl $build/musl/libresolv-k8s.so $build/tests/gai-probe-musl"; do
	read -r libc lib probe <<<"$side"
	alone=$(peak "" "$probe") ours=$(peak "$lib" "$probe")
	echo "peak RSS after one lookup, a 40 MB /etc/hosts, $libc: alone $alone KiB, the library $ours KiB"
	check "40 MB /etc/hosts, $libc: the library's peak RSS within 2 MiB of the libc's ($ours KiB, $alone KiB)" yes \
		"$( ((alone > 0 && ours <= alone + 2048)) && echo yes || echo no)"
done
mv "$WORK/hosts.small" "$WORK/hosts"

summary
