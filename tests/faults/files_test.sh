#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# files_test.sh BUILD_DIR: the files the shim reads, changing under its
# lookups: resolv.conf and /etc/hosts rewritten mid-run, gai.conf read while
# the process forks. Needs BUILD_DIR/tests/gai-conf-fork.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
GAI_FORK=$(dirname "$PROBE")/gai-conf-fork

# rewrite_during FILE FIRST SECOND CONF NAME: one process looks NAME up (4
# threads x 150) while FILE is rewritten in place 150 times, FIRST then
# SECOND, and once more afterwards; the outcomes in $WORK/rewrite.
rewrite_during() {
	local file=$1 first=$2 second=$3 conf=$4 name=$5
	swap() {
		for ((i = 0; i < 150; i++)); do
			cat "$first" > "$file"
			cat "$second" > "$file"
		done
	}
	(export -f swap; export file first second
	 pod "$WORK/rewrite.log" on "$conf" -- timeout $LIMIT bash -c \
		'swap & env LD_PRELOAD="$0" "$@"; wait; env LD_PRELOAD="$0" "$@"' \
		"$SHIM" "$STORM" -t 4 -n 150 "$name") > "$WORK/rewrite" 2>&1
}

# resolv.conf: kubernetes is kubernetes.default only under the second
# file's search list.
conf live '127.0.0.53 127.0.0.54'
printf 'search default.svc.cluster.local\nnameserver 127.0.0.54\noptions ndots:5 timeout:1 attempts:1\n' \
	> "$WORK/default.conf"
rewrite_during "$WORK/live.conf" "$WORK/one.conf" "$WORK/default.conf" "$WORK/live.conf" kubernetes
check "rewritten resolv.conf: exit" 0 "$?"
check "rewritten resolv.conf: outcomes" "yes" \
	"$(awk '$2 != "10.96.0.1" && $0 !~ /^[0-9]+ error -[23]$/ { bad = 1 } END { if (!bad) print "yes" }' "$WORK/rewrite")"
check "rewritten resolv.conf: the last file counts" "600 10.96.0.1" "$(tail -1 "$WORK/rewrite")"

# /etc/hosts: web is 10.9.9.9 in the second file only.
cp "$WORK/hosts" "$WORK/hosts.orig"
{ cat "$WORK/hosts.orig"; printf '10.9.9.9\tweb\n'; } > "$WORK/hosts.web"
rewrite_during "$WORK/hosts" "$WORK/hosts.orig" "$WORK/hosts.web" "$WORK/one.conf" web
check "rewritten hosts: exit" 0 "$?"
check "rewritten hosts: no error" "" "$(grep error "$WORK/rewrite")"
check "rewritten hosts: the last file counts" "600 10.9.9.9" "$(tail -1 "$WORK/rewrite")"
cp "$WORK/hosts.orig" "$WORK/hosts"

# gai.conf, a FIFO: a thread waits in reading it (sorting web's A and AAAA)
# when the process forks; the child must not wait for a lock that thread
# held (the core's reader once kept one across the read). glibc reads the
# file under pthread_once, which a forked child runs afresh: glibc answers.
mkfifo "$WORK/gai.fifo"
POD_GAI=$WORK/gai.fifo same "gai.conf read across fork" "$WORK/one.conf" -- "$GAI_FORK" web
check "gai.conf read across fork: the child answers" "child fd00:10:96::110
child exit 0" "$(head -2 "$WORK/shim")"
summary
