# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# The shell tests' assertions and their count; source it.
#
#   check NAME EXPECTED ACTUAL [DETAIL]  equal; else the diff, then DETAIL
#   check_match [-v] NAME REGEX TEXT     TEXT matches the extended REGEX, '.'
#                                        spanning lines (-v: does not)
#   skip WHAT                            "SKIP - WHAT": a check that cannot run here,
#                                        counted as skipped, never passed
#   summary                              "N passed, M failed[, K skipped]"; false on a
#                                        failure; a suite that only skipped is named in
#                                        $RK8S_SKIPPED (make test counts it as skipped)
#   poll SECONDS CMD...                  CMD until it succeeds, at most SECONDS;
#                                        its status (a wait, no assertion)
#   eventually NAME CMD...               check: CMD succeeds within 10 s
#
# A failed assertion prints "FAIL - NAME" and what explains it, indented.

# The counts, named so that no test's own variable takes them over.
assert_passed=0 assert_failed=0 assert_skipped=0

# tally NAME STATUS: counts one assertion; false, after "FAIL - NAME", when
# STATUS is not 0.
tally() {
	if (($2 == 0)); then
		((++assert_passed))
		return 0
	fi
	((++assert_failed))
	echo "FAIL - $1"
	return 1
}

check() {
	[[ $2 == "$3" ]]
	tally "$1" $? && return
	diff <(echo "$2") <(echo "$3") | sed 's/^/    /'
	[[ -z ${4:-} ]] || sed 's/^/    | /' <<<"$4"
}

check_match() {
	local v=
	[[ $1 == -v ]] && { v=-v; shift; }
	# With -z the text is one record: -v inverts the match of the whole.
	grep -Ezq $v -- "$2" <<<"$3"
	tally "$1" $? && return
	echo "    ${v:+un}wanted /$2/ in:"
	sed 's/^/    | /' <<<"$3"
}

poll() {
	local until=$((SECONDS + $1 + 1))
	shift
	until "$@"; do
		((SECONDS < until)) || return 1
		sleep 0.1
	done
}

eventually() {
	local name=$1
	shift
	poll 10 "$@"
	tally "$name" $? || echo "    still false after 10 s: $*"
}

skip() {
	((++assert_skipped))
	echo "SKIP - $1"
}

summary() {
	local skipped=
	((assert_skipped == 0)) || skipped=", $assert_skipped skipped"
	echo "$assert_passed passed, $assert_failed failed$skipped"
	if ((assert_passed + assert_failed == 0 && assert_skipped > 0)) && [[ ${RK8S_SKIPPED:-} ]]; then
		basename "$0" >> "$RK8S_SKIPPED"
	fi
	((assert_failed == 0))
}
