# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034 # IN_CGROUP, CGROUPS: for the sourcing scripts
# A container's memory limit for the node tests (source it after lib.sh):
#
#   memory_cgroup NAME       a new memory cgroup of MEMORY_LIMIT bytes (128 MiB,
#                            the DaemonSet's limit; no swap), v2 or v1, named NAME and
#                            a random number (a sandbox's pids repeat); prints its path
#   oom_kills DIR            how many processes the kernel killed there
#   "${IN_CGROUP[@]}" DIR CMD...  CMD in the cgroup DIR from its first
#                            instruction, with the same pid
#   rss_mib PID              its VmRSS in MiB
#   alive WHAT PID DIR       check: running, and the kernel killed nothing in DIR
#   CGROUPS+=(NAME:DIR)      the server started as NAME stopped and DIR removed at exit

MEMORY_LIMIT=$((128 << 20))

memory_cgroup() {
	local dir
	if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
		dir=/sys/fs/cgroup/$1-$SRANDOM
		grep -qw memory /sys/fs/cgroup/cgroup.subtree_control || echo +memory > /sys/fs/cgroup/cgroup.subtree_control
		mkdir "$dir" && echo $MEMORY_LIMIT > "$dir/memory.max" && echo 0 > "$dir/memory.swap.max"
	else
		dir=/sys/fs/cgroup/memory/$1-$SRANDOM
		mkdir "$dir" && echo $MEMORY_LIMIT > "$dir/memory.limit_in_bytes"
	fi
	echo "$dir"
}

oom_kills() {
	local events=$1/memory.events
	[[ -f $events ]] || events=$1/memory.oom_control
	awk '$1 == "oom_kill" { print $2 }' "$events"
}

CGROUPS=()
remove_cgroups() {
	local c
	for c in "${CGROUPS[@]}"; do
		stop "${c%%:*}"
		rmdir "${c#*:}"
	done
}
trap remove_cgroups EXIT

IN_CGROUP=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh)
rss_mib() { awk '$1 == "VmRSS:" { print int($2 / 1024) }' "/proc/$1/status"; }
alive() {
	check "$1: still running" yes "$(kill -0 "$2" 2>/dev/null && echo yes)"
	check "$1: no OOM kill" 0 "$(oom_kills "$3")"
}
