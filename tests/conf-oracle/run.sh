#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# run.sh GLIBC_RES CONF_PRINT FIXTURE_DIR
#
# For each FIXTURE_DIR/NAME.conf, runs glibc's own reading (GLIBC_RES) and
# ours (CONF_PRINT) in a sandbox with the fixture over /etc/resolv.conf and
# diffs them. NAME.env may set LOCALDOMAIN=, RES_OPTIONS= (one per line,
# the value is the rest of the line) and HOSTNAME= (default below).
set -uo pipefail
(($# == 3)) || { echo "usage: $0 GLIBC_RES CONF_PRINT FIXTURE_DIR" >&2; exit 2; }
oracle=$(realpath "$1") ours=$(realpath "$2") dir=$3
sandbox=$(dirname "$0")/../pod/sandbox.sh

# Runs PROG in the fixture's sandbox, with its own host name.
run() {
	local conf=$1 prog=$2 host=pod-0.oracle.example
	local -a vars=()
	if [[ -f ${conf%.conf}.env ]]; then
		while IFS= read -r line; do
			case $line in
			HOSTNAME=*) host=${line#HOSTNAME=} ;;
			*=*) vars+=("$line") ;;
			esac
		done <"${conf%.conf}.env"
	fi
	"$sandbox" --resolv "$conf" -- unshare --uts \
		bash -c 'printf %s "$1" >/proc/sys/kernel/hostname && shift && exec "$@"' set-host "$host" \
		env -u LOCALDOMAIN -u RES_OPTIONS "${vars[@]}" "$prog"
}

passed=0 failed=0
for conf in "$dir"/*.conf; do
	name=$(basename "$conf" .conf)
	if glibc=$(run "$conf" "$oracle") && mine=$(run "$conf" "$ours") &&
		diff -u --label "glibc $name" --label "ours $name" <(echo "$glibc") <(echo "$mine"); then
		passed=$((passed + 1))
	else
		echo "conf-oracle: $name FAILED" >&2
		failed=$((failed + 1))
	fi
done
echo "conf-oracle: $passed passed, $failed failed"
((failed == 0))
