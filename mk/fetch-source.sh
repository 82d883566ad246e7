#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# fetch-source.sh DIR PKG=VERSION...: Debian's source packages, patches
# applied, unpacked into DIR: each at VERSION or the latest Debian update
# of it that apt offers (VERSION+deb12u1 and the like, from
# bookworm-security or a point release). Writes deb-src entries for the
# machine's Debian archives (the main one, its -updates and -security
# suites) unless the machine has deb-src entries of its own.
set -euo pipefail
dir=$1; shift
apt=/etc/apt
ours=$apt/sources.list.d/debian-src.sources

# The machine's source lists, ours left out.
lists=()
for f in "$apt"/sources.list "$apt"/sources.list.d/*.list "$apt"/sources.list.d/*.sources; do
	[[ -f $f && $f != "$ours" ]] && lists+=("$f")
done

# deb-src entries other than the ones this script writes.
has_own_deb_src() {
	cat "${lists[@]}" /dev/null | grep -Eqi '^[[:space:]]*deb-src[[:space:]]|^Types:.*deb-src'
}

# One deb822 stanza per "deb" entry of the Debian archive (URI ending in
# /debian or /debian-security: the main archive, its -updates and -security
# suites, not third-party repositories), from one-line and deb822 files
# alike.
debian_src_stanzas() {
	awk '
	function emit() {
		if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled != "no" && uris ~ /\/debian(-security)?\/?$/) {
			print "Types: deb-src\nURIs: " uris "\nSuites: " suites "\nComponents: " comps
			if (key != "") print "Signed-By: " key
			print ""
		}
		types = uris = suites = comps = key = enabled = ""
	}
	FNR == 1 { emit() }
	FILENAME ~ /\.sources$/ {
		if (/^[ \t]*$/) { emit(); next }
		if (/^#/) next
		field = tolower($1); sub(/^[^:]*:[ \t]*/, "")
		if (field == "types:") types = $0
		else if (field == "uris:") uris = $0
		else if (field == "suites:") suites = $0
		else if (field == "components:") comps = $0
		else if (field == "signed-by:") key = $0
		else if (field == "enabled:") enabled = tolower($0)
		next
	}
	$1 == "deb" {
		line = $0; key = ""
		if (match(line, /\[[^]]*\]/)) {
			opts = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, 1, RSTART - 1) substr(line, RSTART + RLENGTH)
			if (match(opts, /signed-by=[^ \t]+/)) key = substr(opts, RSTART + 10, RLENGTH - 10)
		}
		n = split(line, w)
		types = "deb"; uris = w[2]; suites = w[3]; comps = w[4]
		for (i = 5; i <= n; i++) comps = comps " " w[i]
		emit()
	}
	END { emit() }' "${lists[@]}" /dev/null
}

# newest PKG=VERSION: VERSION or the newest update of it apt offers.
newest() {
	local v best=
	for v in $(apt-cache showsrc --only-source "${1%%=*}" 2>/dev/null | sed -n 's/^Version: //p'); do
		[[ $v == "${1#*=}" || $v == "${1#*=}"+* ]] || continue
		[[ -z $best ]] || dpkg --compare-versions "$v" gt "$best" && best=$v
	done
	echo "$best"
}

# Serialises concurrent "make deps" runs, as mk/packages.sh does.
exec 9>/run/lock/libresolv-k8s-apt
flock 9
updated=
if ! has_own_deb_src; then
	stanzas=$(debian_src_stanzas)
	[[ $stanzas ]] || { echo "deps: no Debian 'deb' entry in $apt to derive a deb-src entry from" >&2; exit 1; }
	if [[ $(cat "$ours" 2>/dev/null) != "$stanzas" ]]; then
		echo "deps: writing $ours"
		printf '%s\n' "$stanzas" > "$ours"
		apt-get update -qq
		updated=1
	fi
fi

mkdir -p "$dir"
cd "$dir"
for want in "$@"; do
	pkg=${want%%=*}
	version=$(newest "$want")
	if [[ -z $version && -z $updated ]]; then
		apt-get update -qq
		updated=1
		version=$(newest "$want")
	fi
	if [[ -z $version ]]; then
		echo "deps: Debian source $want (or an update of it) is not available; apt offers:" \
			$(apt-cache showsrc --only-source "$pkg" 2>/dev/null | sed -n 's/^Version: //p') >&2
		exit 1
	fi
	echo "deps: apt-get source $pkg=$version"
	apt-get source -qq "$pkg=$version" > "$pkg.log" 2>&1 || { cat "$pkg.log" >&2; exit 1; }
	grep -qx "Version: $version" "${pkg}_$version.dsc" ||
		{ echo "deps: $pkg: ${pkg}_$version.dsc missing or of another version" >&2; exit 1; }
done
