# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034 # server, work: for the sourcing scripts
# The server's shell tests run in a pod sandbox (tests/pod/sandbox.sh);
# source it with the test's arguments, SERVER. Outside a sandbox it runs the
# sourcing script again inside one, which ends it with that run's status.
# Inside: the repository is the current directory, $server the binary,
# $work a directory removed at exit (a script trapping EXIT removes it too).
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if [[ ${1:-} != --inside ]]; then
	exec tests/pod/sandbox.sh -- "$0" --inside "$@"
fi
server=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
