#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# run.sh GLIBC_GAI MUSL_GAI OURS_GAI OUTDIR: every case in ./cases through
# the real glibc and musl getaddrinfo and through ours in that dialect, in
# one sandbox (hosts, resolv.conf, gai.conf from this directory); compares
# the printed results case by case.
set -euo pipefail
here=$(dirname "$0")
glibc=$(realpath "$1") musl=$(realpath "$2") ours=$(realpath "$3") out=$4
mkdir -p "$out"
out=$(realpath "$out")
cases=$(realpath "$here/cases")

"$here/../pod/sandbox.sh" --hosts "$here/hosts" --resolv "$here/resolv.conf" --gai "$here/gai.conf" -- \
	bash -c "'$glibc' < '$cases' > '$out/glibc.libc' && '$ours' glibc < '$cases' > '$out/glibc.ours' &&
	         '$musl' < '$cases' > '$out/musl.libc' && '$ours' musl < '$cases' > '$out/musl.ours'"

# Splits a printed run into one file per case, then compares them.
passed=0 failed=0
for dialect in glibc musl; do
	for side in libc ours; do
		rm -rf "$out/$dialect.$side.d" && mkdir "$out/$dialect.$side.d"
		awk -v d="$out/$dialect.$side.d" '/^#/ { f = sprintf("%s/%03d", d, ++n) } { print > f }' \
			"$out/$dialect.$side"
	done
	for want in "$out/$dialect.libc.d"/*; do
		got="$out/$dialect.ours.d/$(basename "$want")"
		if diff -u "$want" "$got" > "$got.diff" 2>&1; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "FAIL $dialect $(head -1 "$want")"
			sed 1,3d "$got.diff"
		fi
	done
done
echo "$passed passed, $failed failed"
((failed == 0))
