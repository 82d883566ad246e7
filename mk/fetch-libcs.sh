#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# fetch-libcs.sh DIR: the glibc and musl packages of Debian bullseye,
# trixie and sid, and experimental's glibc (amd64; its other packages
# sid's), downloaded with a private apt configuration (the machine's lists
# untouched) and unpacked into DIR/SUITE/root. A suite whose stamp names
# the same packages is not fetched again.
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
suites=(bullseye trixie sid experimental)
# linux-libc-dev: glibc's headers include the kernel's.
glibc_packages=(libc6 libc6-dev libc-bin linux-libc-dev)
apt=/etc/apt

# "URI KEYRING" of the machine's first deb entry of the Debian archive (URI
# ending in /debian), from deb822 and one-line files alike.
debian_mirror() {
	awk '
	function emit() {
		if (types ~ /(^|[ \t])deb([ \t]|$)/ && uris ~ /\/debian\/?$/) { print uris, key; exit }
		types = uris = key = ""
	}
	FNR == 1 { emit() }
	FILENAME ~ /\.sources$/ {
		if (/^[ \t]*$/) { emit(); next }
		field = tolower($1); sub(/^[^:]*:[ \t]*/, "")
		if (field == "types:") types = $0
		else if (field == "uris:") uris = $1
		else if (field == "signed-by:") key = $0
		next
	}
	$1 == "deb" {
		types = "deb"; key = ""
		if (match($0, /signed-by=[^] \t]+/)) key = substr($0, RSTART + 10, RLENGTH - 10)
		sub(/\[[^]]*\][ \t]*/, ""); uris = $2
		emit()
	}
	END { emit() }' $(ls $apt/sources.list $apt/sources.list.d/*.list $apt/sources.list.d/*.sources 2>/dev/null)
}

version() { dpkg-deb -W --showformat '${Package} ${Version}' "$s/debs/$1"_*.deb; }

read -r uri key <<<"$(debian_mirror)"
[[ $uri ]] || { echo "libcs: no Debian 'deb' entry in $apt" >&2; exit 1; }
for suite in "${suites[@]}"; do
	s=$dir/$suite
	# experimental holds glibc alone, above sid's: taken from it first.
	packages=("${glibc_packages[@]}" musl musl-dev) lists=$suite release=()
	[[ $suite == experimental ]] && packages=("${glibc_packages[@]}") lists="sid experimental" \
		release=(-o APT::Default-Release=experimental)
	if [[ $(cat "$s/stamp" 2>/dev/null) != "${packages[*]}" ]]; then
		rm -rf "$s" && mkdir -p "$s/lists/partial" "$s/cache/archives/partial" "$s/debs"
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n%s\n' \
			"$uri" "$lists" "${key:+Signed-By: $key}" > "$s/debian.sources"
		# No dpkg status: the machine's installed versions are no candidates.
		opts=(-q -o Dir::Etc::SourceList="$s/debian.sources" -o Dir::Etc::SourceParts=/dev/null
			-o Dir::State::status=/dev/null -o Dir::State::Lists="$s/lists" -o Dir::Cache="$s/cache"
			-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
			-o APT::Architecture=amd64 -o APT::Architectures=amd64 "${release[@]}")
		if ! { apt-get "${opts[@]}" update && (cd "$s/debs" && apt-get "${opts[@]}" download "${packages[@]}"); } \
			> "$s/apt.log" 2>&1; then
			cat "$s/apt.log" >&2
			exit 1
		fi
		for deb in "$s"/debs/*.deb; do dpkg-deb -x "$deb" "$s/root"; done
		# As installed: absolute links resolve inside the root, /lib and
		# /lib64 of a merged /usr exist (ld follows libc.so's paths there).
		find "$s/root" -type l -lname '/*' | while read -r link; do
			ln -sfnr "$s/root$(readlink "$link")" "$link"
		done
		for d in lib lib64; do [[ -e $s/root/$d ]] || ln -s usr/$d "$s/root/$d"; done
		echo "${packages[*]}" > "$s/stamp"
	fi
	echo "libcs: $suite: $(version libc6)${packages[5]:+, $(version musl)} in $s/root"
done
