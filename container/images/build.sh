#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# build.sh BUILD_DIR VERSION: the three images as OCI archives in
# BUILD_DIR/images/, with buildah (vfs storage under BUILD_DIR, FROM scratch,
# no daemon, no registry). Each image is built for each of ARCHES (default
# "amd64 arm64"): amd64 from BUILD_DIR, arm64 from BUILD_DIR/arm64; its
# archive holds the index of them:
#   init.tar  the glibc and musl preload libraries, a static resolv-k8s and
#             a static copier (entrypoint: copies them into /target), as
#             user 65534;
#   node.tar  resolv-k8s-server and exactly the libraries it loads (its
#             network setup is built in: netlink and nftables), as root:
#             it binds port 53 and changes the node's network;
#   webhook.tar  resolv-k8s and its libraries, as user 65534: the admission
#             webhook (`resolv-k8s webhook`).
# Each carries the Debian package metadata of what it holds as distroless
# images do, for scanners (deb-status.sh): the status entry of every
# package a file was copied from, or linked statically into ours, and
# Debian's os-release.
set -euo pipefail
build=$(cd "${1:?usage: build.sh BUILD_DIR VERSION}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
version=${2:?}
out=$build/images
bah=(buildah --storage-driver vfs --root "$out/storage" --runroot "$out/run")
labels=(
	--label org.opencontainers.image.version="$version"
	--label org.opencontainers.image.revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
	--label org.opencontainers.image.source="$(git config --get remote.origin.url 2>/dev/null || echo libresolv-k8s)"
	--label org.opencontainers.image.licenses=Apache-2.0
	--label org.opencontainers.image.created="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
)

# image NAME ARCHIVE SETUP...: per arch, a scratch container with the
# licenses (ours, and those of c-ares and mimalloc, linked into the
# libraries), SETUP run with its id as $c, the arch's build directory as
# $from and $list the file deb-status.sh reads, the package metadata,
# committed as NAME:VERSION-ARCH; the manifest list NAME:VERSION of both,
# written with its images as an OCI archive.
image() {
	local name=$1 archive=$2 arch
	shift 2
	# An earlier run's list (rmi would take its amd64 image instead), or
	# an image of that name from before the lists.
	"${bah[@]}" manifest rm "$name:$version" >/dev/null 2>&1 ||
		"${bah[@]}" rmi "$name:$version" >/dev/null 2>&1 || true
	"${bah[@]}" manifest create "$name:$version" >/dev/null
	for arch in ${ARCHES:-amd64 arm64}; do
		from=$build
		[[ $arch == amd64 ]] || from=$build/$arch
		c=$("${bah[@]}" from scratch)
		"${bah[@]}" config --arch "$arch" --os linux "$c"
		"${bah[@]}" copy "$c" "$root/LICENSE" /licenses/libresolv-k8s/LICENSE >/dev/null
		"${bah[@]}" copy "$c" "$build"/third_party/src/c-ares-*/LICENSE.md /licenses/c-ares/LICENSE.md >/dev/null
		"${bah[@]}" copy "$c" "$build"/third_party/src/mimalloc-*/LICENSE /licenses/mimalloc/LICENSE >/dev/null
		list=$out/meta/$name-$arch.list
		rm -rf "$out/meta/$name-$arch" && mkdir -p "$out/meta/$name-$arch" && : > "$list"
		put /usr/lib/os-release /etc/os-release
		put /etc/debian_version /etc/debian_version
		"$@"
		(cd "$root" && container/images/deb-status.sh "$out/meta/$name-$arch" "$arch" "$build/third_party/src" < "$list")
		"${bah[@]}" copy "$c" "$out/meta/$name-$arch" / >/dev/null
		"${bah[@]}" config "${labels[@]}" --label org.opencontainers.image.title="$name" "$c"
		"${bah[@]}" commit -q "$c" "$name:$version-$arch" >/dev/null
		"${bah[@]}" rm "$c" >/dev/null
		"${bah[@]}" manifest add "$name:$version" "containers-storage:localhost/$name:$version-$arch" >/dev/null
	done
	rm -f "$archive"
	"${bah[@]}" manifest push -q --all "$name:$version" "oci-archive:$archive:$name:$version"
	echo "images: $archive"
}

# put HOST_PATH IMAGE_PATH: a file of the machine's packages.
put() {
	"${bah[@]}" copy "$c" "$1" "$2" >/dev/null
	echo "copy $2 $1" >> "$list"
}
# ours FILE IMAGE_PATH: a program of ours, and what it was linked from.
ours() {
	"${bah[@]}" copy "$c" "$1" "$2" >/dev/null
	[[ -f $1.inputs ]] || { echo "images: no $1.inputs (linked before make kept it): rm $1 and make again" >&2; exit 1; }
	echo "link $2 $1.inputs" >> "$list"
}

init_files() {
	ours "$from/images/copier" /copier
	ours "$from/glibc/libresolv-k8s.so" /resolv-k8s/glibc/libresolv-k8s.so
	ours "$from/musl/libresolv-k8s.so" /resolv-k8s/musl/libresolv-k8s.so
	ours "$from/bin/resolv-k8s-static" /resolv-k8s/bin/resolv-k8s
	"${bah[@]}" config --entrypoint '["/copier"]' --cmd '["/target"]' --user 65534:65534 "$c"
}

# The libraries a program of $arch loads, as ldd lists them: for arm64 its
# own loader lists them, run by qemu (ldd cannot read arm64 programs).
loaded() {
	case $arch in
	amd64) ldd "$1" ;;
	arm64) qemu-aarch64-static /lib/ld-linux-aarch64.so.1 --list "$1" ;;
	esac
}

# A program, and each library it loads at the path the loader looks in.
program() {
	ours "$1" "/usr/bin/$(basename "$1")"
	local lib libs
	libs=$(loaded "$1") || { echo "images: cannot list the libraries of $1" >&2; exit 1; }
	for lib in $(grep -o '/[^ ]*' <<<"$libs"); do
		put "$(readlink -f "$lib")" "$lib"
	done
}

node_files() {
	program "$from/bin/resolv-k8s-server"
	"${bah[@]}" config --entrypoint '["/usr/bin/resolv-k8s-server"]' \
		--cmd '["--config", "/etc/resolv-k8s/config.yaml"]' --user 0:0 "$c"
}

# `resolv-k8s`, whose `webhook` command the admission webhook runs.
webhook_files() {
	program "$from/bin/resolv-k8s"
	"${bah[@]}" config --entrypoint '["/usr/bin/resolv-k8s"]' --cmd '["--help"]' --user 65534:65534 "$c"
}

image libresolv-k8s-init "$out/init.tar" init_files
image resolv-k8s-node "$out/node.tar" node_files
image resolv-k8s-webhook "$out/webhook.tar" webhook_files
