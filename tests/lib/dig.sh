# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# What the dig tests share; source it. The autopath option
# (docs/autopath-protocol.md) as dig writes and prints it, a record as a
# regex of dig's output.
#
#   wire NAME                   NAME in uncompressed wire format, as hex
#   opt FLAGS SUFFIX...         the query option, +ednsopt=65431:HEX (Q added to FLAGS)
#   reply STATUS INDEX [FLAGS]  the reply option as dig prints it
#   ans OWNER TYPE RDATA        the record's line, any TTL

wire() {
	local name=${1%.} hex= label
	if [[ -n $name ]]; then
		IFS=. read -ra labels <<<"$name"
		for label in "${labels[@]}"; do
			hex+=$(printf %02x ${#label})$(printf %s "$label" | od -An -tx1 | tr -d ' \n')
		done
	fi
	echo "${hex}00"
}

opt() {
	local flags=$1 hex
	shift
	hex=01$(printf %02x $((flags | 1)))
	for s in "$@"; do hex+=$(wire "$s"); done
	echo "+ednsopt=65431:$hex"
}

reply() {
	printf 'OPT=65431: 01 %02x %02x %02x' "${3:-0}" "$1" "$2"
}

ans() {
	printf '%s\.\s+[0-9]+\s+IN\s+%s\s+%s' "${1//./\\.}" "$2" "${3//./\\.}"
}
