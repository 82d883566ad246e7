#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# suite_test.sh BUILD_DIR: glibc's own resolver tests (build.sh's, in
# BUILD_DIR/glibc-suite) run plainly and with the library preloaded, each
# in a network and mount namespace of its own (the tests make their own
# inside it, and their servers on 127.0.0.1). A test that passes plainly
# must pass with the library, unless known-differences names it (the
# README's known differences): those are counted apart, and one that passes
# now fails the suite until its line goes. A test failing plainly too is
# reported, not failed.
set -uo pipefail
source "$(dirname "$0")/../lib/assert.sh"
build=${1:?usage: suite_test.sh BUILD_DIR}
suite=$build/glibc-suite
preload=$(realpath "$build/glibc/libresolv-k8s.so")
known=$(sed -n 's/^\([a-z0-9_-]*\) .*/\1/p' "$(dirname "$0")/known-differences")
out=$suite/runs
rm -rf "$out" && mkdir -p "$out"

echo "glibc-suite: glibc $(cat "$suite/version") against the system's $(ldd --version | head -1 | sed 's/.* //')"
sed 's/^/not built: /' "$suite/bin/../unbuilt"

# run TEST LOG [ENV...]: the test's status.
run() {
	local t=$1 log=$2
	shift 2
	unshare --net --mount env LOCPATH="$suite/locale" LD_LIBRARY_PATH="$suite/lib" "$@" "$suite/bin/$t" > "$log" 2>&1
}

built=0 plain=0 with=0 differ=0
for bin in "$suite"/bin/*; do
	t=$(basename "$bin")
	((++built))
	start=$SECONDS
	run "$t" "$out/$t.plain"
	p=$?
	run "$t" "$out/$t.rk8s" LD_PRELOAD="$preload"
	w=$?
	echo "$t: plainly $p, with the library $w ($((SECONDS - start)) s)"
	((p == 0)) && ((++plain))
	((w == 0)) && ((++with))
	if ((p != 0)); then
		echo "plainly failing: $t (status $p), with the library: status $w"
		continue
	fi
	if grep -qx "$t" <<<"$known"; then
		((++differ))
		check "$t: a known difference, still failing with the library" 1 $((w != 0)) \
			"passes now: take its line out of known-differences and the README"
		continue
	fi
	check "$t with the library" 0 "$w" "$(tail -20 "$out/$t.rk8s")"
done
echo "glibc-suite: $built built, $plain pass plainly, $with pass with the library, $differ known differences"
summary
