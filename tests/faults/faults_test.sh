#!/bin/bash
# faults_test.sh BUILD_DIR: the glibc shim (servers with autopath on) against
# plain glibc under faults, each run in its own pod sandbox and bounded by
# timeout: dead and silent nameservers, SERVFAIL and REFUSED, resolv.conf
# and /etc/hosts rewritten mid-run, descriptors exhausted or closed, the
# server restarting, EINTR, a hostile responder, 16 threads with a fork. Needs BUILD_DIR/tests/lookup-storm.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: faults_test.sh BUILD_DIR}"
STORM=$(dirname "$PROBE")/lookup-storm
HOSTILE=$POD_ROOT/tests/faults/hostile.py
LIMIT=60
NAMES=(web kubernetes.default www.example.com nosuch)

# conf NAME "NAMESERVERS" [OPTIONS]: the k8s search list; $WORK/NAME.conf.
conf() {
	{
		echo 'search shop.svc.cluster.local svc.cluster.local cluster.local'
		printf 'nameserver %s\n' $2
		echo "options ndots:5 ${3:-timeout:1 attempts:1}"
	} > "$WORK/$1.conf"
}

# run SIDE CONF [FAULT...] -- CMD...: one pod, CMD bounded by timeout, with
# the shim preloaded when SIDE is "shim"; output in $WORK/SIDE, query log in
# $WORK/SIDE.log, the exit status appended as "status N".
run() {
	local side=$1 conf=$2
	shift 2
	local -a pre=(env)
	[[ $side == shim ]] && pre=(env LD_PRELOAD="$SHIM")
	local -a faults=()
	while [[ $1 != -- ]]; do faults+=("$1"); shift; done
	shift
	pod "$WORK/$side.log" on "$conf" "${faults[@]}" -- timeout $LIMIT "${pre[@]}" "$@" > "$WORK/$side" 2>&1
	echo "status $?" >> "$WORK/$side"
}

# same ID CONF [FAULT...] -- CMD...: glibc's and the shim's output are equal.
same() {
	local id=$1
	shift
	run glibc "$@"
	run shim "$@"
	check "$id" "$(< "$WORK/glibc")" "$(< "$WORK/shim")"
}

dropped() { grep -c ' dropped' "$1"; }

# Each nameserver down (nothing listens: ICMP port unreachable).
conf dead-first '127.0.0.9 127.0.0.53'
conf dead-last '127.0.0.53 127.0.0.9'
conf all-dead '127.0.0.9 127.0.0.10'
for c in dead-first dead-last all-dead; do
	same "$c" "$WORK/$c.conf" -- "$PROBE" "${NAMES[@]}"
done

# Silent servers: the same answers, and the dropped name asked as often.
for opts in 'timeout:1 attempts:1' 'timeout:1 attempts:2'; do
	conf silent '127.0.0.53' "$opts"
	# One lookup per process: a second one would ask with BOTH, and the
	# server applies NAME/AAAA faults to AAAA queries only.
	for drop in www.example.com.svc.cluster.local www.example.com \
		web.shop.svc.cluster.local/AAAA www.example.com.shop.svc.cluster.local/AAAA; do
		name=${drop%%.svc*}
		name=${name%.shop}
		name=${name%/AAAA}
		same "silent $drop, $opts" "$WORK/silent.conf" --drop="$drop" -- "$PROBE" "$name"
		if [[ $drop == */AAAA ]]; then
			# Deliberate: after one family timed out glibc resends the pair
			# one by one (send_dg's single-request switch); we do not.
			check "silent $drop, $opts: no more retries than glibc" ok \
				"$( (($(dropped "$WORK/shim.log") <= $(dropped "$WORK/glibc.log"))) && echo ok)"
		else
			check "silent $drop, $opts: retries" "$(dropped "$WORK/glibc.log")" "$(dropped "$WORK/shim.log")"
		fi
	done
done
conf two-silent '127.0.0.53 127.0.0.54' 'timeout:1 attempts:2'
same "second server silent" "$WORK/two-silent.conf" 54:--drop=www.example.com.svc.cluster.local \
	--drop=nothing.invalid -- "$PROBE" www.example.com
same "first server silent" "$WORK/two-silent.conf" 53:--drop=web.shop.svc.cluster.local \
	--drop=nothing.invalid -- "$PROBE" web
check "first server silent: retries" "$(dropped "$WORK/glibc.log")" "$(dropped "$WORK/shim.log")"

# SERVFAIL and REFUSED at chosen candidates, autopath on.
conf one '127.0.0.53'
conf two '127.0.0.53 127.0.0.54'
for rcode in SERVFAIL REFUSED; do
	for at in web.shop.svc.cluster.local www.example.com.svc.cluster.local \
		www.example.com.cluster.local/AAAA www.example.com nosuch.shop.svc.cluster.local; do
		same "$rcode at $at" "$WORK/one.conf" --rcode="$at=$rcode" -- "$PROBE" "${NAMES[@]}"
	done
	same "$rcode from the first of two servers" "$WORK/two.conf" \
		53:--rcode=www.example.com.svc.cluster.local=$rcode -- "$PROBE" "${NAMES[@]}"
done

# Descriptors: all taken by the program; few left by ulimit; 0-2 closed.
same "descriptors exhausted" "$WORK/one.conf" -- "$STORM" -e -n 2 www.example.com
same "ulimit -n 4" "$WORK/one.conf" -- bash -c 'ulimit -n 4 && exec "$@"' - "$PROBE" "${NAMES[@]}"
same "stdin and stderr closed" "$WORK/one.conf" -- bash -c 'exec 0<&- 2>&- "$@"' - "$PROBE" "${NAMES[@]}"
run glibc "$WORK/one.conf" -- bash -c 'exec 0<&- 1>&- 2>&- "$@"' - "$PROBE" "${NAMES[@]}"
run shim "$WORK/one.conf" -- bash -c 'exec 0<&- 1>&- 2>&- "$@"' - "$PROBE" "${NAMES[@]}"
check "0-2 closed: exit" "$(< "$WORK/glibc")" "$(< "$WORK/shim")"
check "0-2 closed: the shim still asks" "yes" "$([[ -s $WORK/shim.log ]] && echo yes)"

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
conf shop '127.0.0.53'
printf 'search default.svc.cluster.local\nnameserver 127.0.0.54\noptions ndots:5 timeout:1 attempts:1\n' \
	> "$WORK/default.conf"
rewrite_during "$WORK/live.conf" "$WORK/shop.conf" "$WORK/default.conf" "$WORK/live.conf" kubernetes
check "rewritten resolv.conf: exit" 0 "$?"
check "rewritten resolv.conf: outcomes" "yes" \
	"$(awk '$2 != "10.96.0.1" && $0 !~ /^[0-9]+ error -[23]$/ { bad = 1 } END { if (!bad) print "yes" }' "$WORK/rewrite")"
check "rewritten resolv.conf: the last file counts" "600 10.96.0.1" "$(tail -1 "$WORK/rewrite")"

# /etc/hosts: web is 10.9.9.9 in the second file only.
cp "$WORK/hosts" "$WORK/hosts.orig"
{ cat "$WORK/hosts.orig"; printf '10.9.9.9\tweb\n'; } > "$WORK/hosts.web"
rewrite_during "$WORK/hosts" "$WORK/hosts.orig" "$WORK/hosts.web" "$WORK/shop.conf" web
check "rewritten hosts: exit" 0 "$?"
check "rewritten hosts: no error" "" "$(grep error "$WORK/rewrite")"
check "rewritten hosts: the last file counts" "600 10.9.9.9" "$(tail -1 "$WORK/rewrite")"
cp "$WORK/hosts.orig" "$WORK/hosts"

# The server restarted three times while lookups run: no crash, no hang and
# no wrong address; the libc's errors while it is down, its answer once it
# is back.
restarts() {
	local d i
	(while [[ ! -e $WORK/restarted ]]; do "$@" -t 2 -n 100 web; done) > "$WORK/during" &
	for i in 1 2 3; do
		sleep 0.3
		for d in /proc/[0-9]*; do
			[[ $(readlink "$d/exe") == "$POD_SERVER" ]] || continue
			kill "${d#/proc/}"
			# Gone, or a zombie: its socket is closed either way.
			while [[ $(cut -d' ' -f3 "$d/stat" 2>/dev/null) == [^Z] ]]; do sleep 0.05; done
		done
		sleep 0.3
		# shellcheck disable=SC2086 # POD_DATA is a list of words
		"$POD_SERVER" --listen 127.0.0.53:53 $POD_DATA --autopath on 2> "$WORK/server.$i" &
	done
	until grep -qs listening "$WORK/server.3"; do sleep 0.05; done
	touch "$WORK/restarted"
	wait %1
	"$@" -n 50 web
}
(export -f restarts; export WORK
 pod "$WORK/restart.log" on "$WORK/one.conf" -- timeout $LIMIT bash -c 'restarts "$@"' - \
	env LD_PRELOAD="$SHIM" "$STORM") > "$WORK/restart" 2>&1
check "server restarts: exit" 0 "$?"
check "server restarts: after" "50 fd00:10:96::110" "$(< "$WORK/restart")"
# What glibc does then: EAI_AGAIN when refused; after a timeout (the server
# killed with the query in hand) glibc still asks the name as it is, which
# does not exist: EAI_NONAME; a pair cut in half leaves the A record alone.
check "server restarts: web's addresses or the libc's errors" "" \
	"$(awk '$2 != "fd00:10:96::110" && $2 != "10.96.1.10" && $0 !~ /^[0-9]+ error -[23]$/' "$WORK/during")"
check "server restarts: lookups failed while it was down" "yes" \
	"$(grep -q error "$WORK/during" && echo yes)"

# EINTR: every thread signalled every 500 us while it waits for a slow
# server; glibc's answers.
same "EINTR" "$WORK/one.conf" --delay-ms=5 -- "$STORM" -t 2 -n 20 -i www.example.com
check "EINTR: signals delivered" "" "$(grep 'no interrupt' "$WORK/shim")"

# A hostile responder: nothing spoofed, glibc's answers wherever it answers.
conf hostile 127.0.0.66
for mode in garbage short otherid otherq cnameloop cnamepair comploop bigcount \
	badstatus badindex matchedempty echo tc; do
	for side in glibc shim; do
		run $side "$WORK/hostile.conf" -- "$HOSTILE" 127.0.0.66 "$WORK/$side.log" -- "$PROBE" $mode
	done
	g=$(< "$WORK/glibc") s=$(< "$WORK/shim")
	check "hostile $mode: nothing spoofed" "" "$(grep -E '6\.6\.6\.|6666:' <<<"$s")"
	if grep -q ': error' <<<"$g"; then
		check "hostile $mode: an error as glibc" "$(grep -c ': error' <<<"$g") $(tail -1 <<<"$g")" \
			"$(grep -c ': error' <<<"$s") $(tail -1 <<<"$s")"
		[[ $g == "$s" ]] || echo "note - hostile $mode: glibc ${g//$'\n'/ }; shim ${s//$'\n'/ }"
	else
		check "hostile $mode: glibc's answer" "$g" "$s"
	fi
done

# 16 threads x 200 lookups, one fork half-way (glibc itself may deadlock in
# such a child, so the shim alone).
run shim "$WORK/one.conf" -- "$STORM" -t 16 -n 200 -k web
check "16 threads, fork" "3200 fd00:10:96::110
1 child-ok
status 0" "$(< "$WORK/shim")"
summary
