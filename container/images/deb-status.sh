#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# deb-status.sh ROOT ARCH SRC_DIR < LIST: the Debian package metadata of an
# image's files, laid under ROOT as distroless images carry it, which is what
# Trivy and Grype read: var/lib/dpkg/status.d/PKG, the package's status
# entry; PKG.md5sums, the files of it the image holds; usr/share/doc/PKG/
# copyright. LIST has a line per file of the image:
#   copy IMAGE_PATH HOST_PATH   a file copied from the machine: its package;
#   link IMAGE_PATH INPUTS      a program of ours, INPUTS its link's trace
#                               (LINK_TRACE in the Makefile): the package of
#                               each archive and object linked into it;
#                               c-ares, mimalloc and jsoncpp, built from
#                               Debian's source packages unpacked in SRC_DIR,
#                               an entry of their source's name and version
#                               (ARCH's, the image's).
# The shared libraries a program loads are listed by their own lines
# (copied). Relative paths are resolved from the directory it runs in,
# the link's.
set -euo pipefail
root=${1:?usage: deb-status.sh ROOT ARCH SRC_DIR < LIST}
arch=${2:?} src=${3:?}
status=$root/var/lib/dpkg/status.d
mkdir -p "$status"

# owner PATH: the installed package ("libc6:amd64") holding PATH, under any
# of its names (ld's path with ../, the merged /usr or not), or nothing.
owner() {
	local p plain real
	plain=$(realpath -s "$1") real=$(readlink -f "$1")
	for p in "$plain" "${plain#/usr}" "/usr$plain" "$real" "${real#/usr}" "/usr$real"; do
		dpkg-query -S "$p" 2>/dev/null | awk -F': ' '!/^diversion/ { print $1; found = 1; exit } END { exit !found }' &&
			return
	done
}

# entry NAME STANZA COPYRIGHT: NAME's status entry (once per image, however many
# files name it) and the copyright file COPYRIGHT, if there is one.
entry() {
	local name=$1 stanza=$2 copyright=$3
	[[ -e $status/$name ]] && return
	printf '%s\n' "$stanza" > "$status/$name"
	if [[ -f $copyright ]]; then
		mkdir -p "$root/usr/share/doc/$name"
		cp "$copyright" "$root/usr/share/doc/$name/copyright"
	fi
}

# installed PKG: its status entry as dpkg has it.
installed() {
	local name=${1%%:*}
	entry "$name" "$(dpkg-query -s "$1")" "/usr/share/doc/$name/copyright"
}

# extracted PATH: a file of a .deb unpacked beside its .deb (an ARCH=arm64
# build's static libraries, mk/tools.mk): that package's entry.
extracted() {
	local dir=${1%%/third_party/dev/*}/third_party/dev rel=${1#*/third_party/dev/} deb name
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -c "$deb" | awk -v f="./$rel" '$NF == f { found = 1 } END { exit !found }' || continue
		name=$(dpkg-deb -f "$deb" Package)
		entry "$name" "$(dpkg-deb -f "$deb" | sed '1a Status: install ok installed')" \
			"$dir/usr/share/doc/$name/copyright"
		return
	done
	echo "deb-status.sh: no .deb in $dir holds $rel" >&2
	exit 1
}

# built SOURCE: a library of ours built from Debian's source package SOURCE.
built() {
	local dsc
	dsc=$(ls "$src/$1"_*.dsc)
	entry "$1" "$(cat <<-END
		Package: $1
		Status: install ok installed
		Source: $1
		Version: $(sed -n 's/^Version: //p' "$dsc")
		Architecture: $arch
		Maintainer: $(sed -n 's/^Maintainer: //p' "$dsc")
		Homepage: $(sed -n 's/^Homepage: //p' "$dsc")
		Description: $1, built from Debian's source package and linked statically
	END
	)" "$(ls -d "$src/$1"-*/)debian/copyright"
}

# linked INPUTS: the packages of what ld read for a program. Relative
# paths are this build's (the third-party archives among them); an absolute
# one is a package's, or a compiler's temporary object.
linked() {
	local input pkg
	while read -r input; do
		case $input in
		*.so | *.so.*) ;;
		*/third_party/*/lib/libcares.a) built c-ares ;;
		*/third_party/*/lib/libmimalloc.a) built mimalloc ;;
		*/third_party/*/lib/libjsoncpp.a) built libjsoncpp ;;
		*/third_party/dev/*) extracted "$input" ;;
		/tmp/*) ;;
		/*)
			pkg=$(owner "$input")
			[[ $pkg ]] || { echo "deb-status.sh: $input is no installed package's" >&2; exit 1; }
			installed "$pkg"
			;;
		esac
	done < <(sed 's/[ (].*//' "$1" | sort -u)
}

while read -r kind image host; do
	case $kind in
	copy)
		pkg=$(owner "$host")
		[[ $pkg ]] || { echo "deb-status.sh: $host is no installed package's" >&2; exit 1; }
		installed "$pkg"
		echo "$(md5sum < "$host" | cut -d' ' -f1)  ${image#/}" >> "$status/${pkg%%:*}.md5sums"
		;;
	link) linked "$host" ;;
	*) echo "deb-status.sh: bad line: $kind $image $host" >&2; exit 2 ;;
	esac
done
