#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# fetch-source.sh DIR PKG=VERSION...: Debian's source packages, patches
# applied, unpacked into DIR. Adds a deb-src entry for the configured Debian
# mirror when there is none.
set -euo pipefail
dir=$1; shift
apt=/etc/apt

has_deb_src() {
	cat $apt/sources.list $apt/sources.list.d/*.list 2>/dev/null | grep -q '^[[:space:]]*deb-src[[:space:]]' ||
	cat $apt/sources.list.d/*.sources 2>/dev/null | grep -qi '^Types:.*deb-src'
}

# One deb822 stanza per "deb" entry of the Debian archive (URI ending in
# /debian: the main archive and its -updates suite, not -security or
# third-party repositories), from one-line and deb822 files alike.
debian_src_stanzas() {
	awk '
	function emit() {
		if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled != "no" && uris ~ /\/debian\/?$/) {
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
	END { emit() }' $(ls $apt/sources.list $apt/sources.list.d/*.list $apt/sources.list.d/*.sources 2>/dev/null)
}

has_versions() {
	local want
	for want in "$@"; do
		apt-cache showsrc --only-source "${want%%=*}" 2>/dev/null |
			grep -qx "Version: ${want#*=}" || return 1
	done
}

# Serialises concurrent "make deps" runs, as mk/packages.sh does.
exec 9>/run/lock/libresolv-k8s-apt
flock 9
if ! has_deb_src; then
	stanzas=$(debian_src_stanzas)
	[[ $stanzas ]] || { echo "deps: no Debian 'deb' entry in $apt to derive a deb-src entry from" >&2; exit 1; }
	echo "deps: adding $apt/sources.list.d/debian-src.sources"
	printf '%s\n' "$stanzas" > $apt/sources.list.d/debian-src.sources
fi
has_versions "$@" || apt-get update -qq

mkdir -p "$dir"
cd "$dir"
for want in "$@"; do
	pkg=${want%%=*} version=${want#*=}
	if ! has_versions "$want"; then
		echo "deps: Debian source $pkg $version is not available; apt offers:" \
			$(apt-cache showsrc --only-source "$pkg" 2>/dev/null | sed -n 's/^Version: //p') >&2
		exit 1
	fi
	echo "deps: apt-get source $pkg=$version"
	apt-get source -qq "$pkg=$version" > "$pkg.log" 2>&1 || { cat "$pkg.log" >&2; exit 1; }
	grep -qx "Version: $version" "${pkg}_$version.dsc" ||
		{ echo "deps: $pkg: ${pkg}_$version.dsc missing or of another version" >&2; exit 1; }
done
