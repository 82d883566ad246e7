#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# images_test.sh BUILD_DIR: the OCI archives of `make images`, their amd64
# images unpacked (skopeo, umoci) and run from their own root filesystems
# (the arm64 ones: arm64_test.sh): the init image
# fills a directory with libraries a glibc and a musl program then resolve
# through; the node image serves a query; the webhook image serves HTTPS.
# Every image carries the licenses; each binary's --version is the image's
# version label. Needs root; packets stay on
# loopback in network namespaces.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: images_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)

# unpack NAME: the amd64 image's bundle at $WORK/NAME (rootfs/, config.json).
unpack() {
	skopeo --override-arch amd64 copy -q "oci-archive:$build/images/$1.tar" "oci:$WORK/oci:$1" &&
		umoci unpack --image "$WORK/oci:$1" "$WORK/$1" >/dev/null
}
# config_of NAME KEY: a field of the amd64 image's config, as skopeo shows it.
config_of() {
	skopeo --override-arch amd64 inspect --config "oci-archive:$build/images/$1.tar" |
		python3 -c "import json, sys; print(json.load(sys.stdin)['config'].get('$2'))"
}

for image in init node webhook; do
	check "$image: unpacks" 0 "$(unpack $image; echo $?)"
	labels=$(config_of $image Labels)
	for key in version revision source licenses; do
		check "$image: label $key" yes "$(grep -q "org.opencontainers.image.$key" <<<"$labels" && echo yes)" "$labels"
	done
	check "$image: licensed Apache-2.0" yes "$(grep -q "licenses': 'Apache-2.0'" <<<"$labels" && echo yes)" "$labels"
	check "$image: carries the license" "$(sha256sum < "$POD_ROOT/LICENSE")" \
		"$(sha256sum < "$WORK/$image/rootfs/licenses/libresolv-k8s/LICENSE")"
	check "$image: and those of c-ares and mimalloc" "c-ares/LICENSE.md libresolv-k8s/LICENSE mimalloc/LICENSE" \
		"$(cd "$WORK/$image/rootfs/licenses" && find . -type f | sed 's|^\./||' | sort | xargs)"
done
check "init: runs as nobody" "65534:65534" "$(config_of init User)"

# The package metadata a scanner reads (container/images/deb-status.sh):
# every file copied from a package in that package's sums; each entry at
# the machine's version of the package, or for a library built from
# Debian's source package, the version fetched; Debian's os-release.
# version_of NAME: that version.
version_of() {
	dpkg-query -W -f '${Version}' "$1:amd64" 2>/dev/null || dpkg-query -W -f '${Version}' "$1" 2>/dev/null ||
		sed -n 's/^Version: //p' "$build/third_party/src/$1"_*.dsc 2>/dev/null
}
for image in init node webhook; do
	meta=$(python3 "$POD_ROOT/tests/images/deb_status.py" "$WORK/$image/rootfs" 2>&1)
	entries=$(grep '^entry ' <<<"$meta")
	check "$image: status entries in var/lib/dpkg/status.d, every one a scanner reads" yes \
		"$([[ $entries && $(grep -vc '^entry ' <<<"$meta") == 0 ]] && echo yes)" "$meta"
	check "$image: each at the machine's version (or the source's fetched), for amd64" "" \
		"$(while read -r _ name version arch; do
			[[ $version == "$(version_of "$name")" && $arch == amd64 ]] || echo "$name $version $arch"
		done <<<"$entries")"
	check "$image: Debian's os-release" "debian 12" \
		"$(. "$WORK/$image/rootfs/etc/os-release" && echo "$ID $VERSION_ID")"
done
# names IMAGE: its entries' packages.
names() { python3 "$POD_ROOT/tests/images/deb_status.py" "$WORK/$1/rootfs" | awk '$1 == "entry" { print $2 }' | xargs; }
check_match "init: the Debian sources linked into its programs: c-ares, mimalloc, jsoncpp, OpenSSL, glibc, musl" \
	"^base-files c-ares libc6-dev .*libjsoncpp .*libssl-dev .*mimalloc musl-dev" "$(names init)"
check_match "node: the libraries the server loads, among them libevent and libnftables1" \
	"^base-files .*libc6 .*libevent-2.1-7 .*libnftables1 " "$(names node)"
check_match "webhook: the libraries resolv-k8s loads, and c-ares and mimalloc linked into it" \
	"^base-files c-ares .*libc6 .*libssl3 .*mimalloc" "$(names webhook)"
# Each binary's version is the image's.
for pair in init:/copier:resolv-k8s-init init:/resolv-k8s/bin/resolv-k8s:resolv-k8s \
	node:/usr/bin/resolv-k8s-server:resolv-k8s-server webhook:/usr/bin/resolv-k8s:resolv-k8s; do
	IFS=: read -r image bin name <<<"$pair"
	version=$(config_of "$image" Labels | python3 -c \
		"import ast, sys; print(ast.literal_eval(sys.stdin.read())['org.opencontainers.image.version'])")
	check "$image: $name --version is the image's" "$name $version" \
		"$(chroot "$WORK/$image/rootfs" "$bin" --version 2>&1)"
done
check "node: the server's entrypoint" "['/usr/bin/resolv-k8s-server']" "$(config_of node Entrypoint)"
check "webhook: resolv-k8s, as nobody" "['/usr/bin/resolv-k8s'] 65534:65534" \
	"$(config_of webhook Entrypoint) $(config_of webhook User)"

# The init container's job, as its user, into an emptyDir-like directory.
libs=$WORK/libs
mkdir -p "$libs" && chmod 777 "$libs"
unshare --mount --pid --fork bash -c 'mount --bind "$1" "$2/rootfs/target" 2>/dev/null ||
	{ mkdir -p "$2/rootfs/target" && mount --bind "$1" "$2/rootfs/target"; }
	exec chroot --userspec=65534:65534 "$2/rootfs" /copier /target' - "$libs" "$WORK/init" >/dev/null
check "init: copies both libraries and resolv-k8s" "bin/resolv-k8s
glibc/libresolv-k8s.so
musl/libresolv-k8s.so" "$(cd "$libs" && find . -type f | sed 's|^\./||' | sort)"
check "init: the links of the one preload path, glibc's \$LIB folders and musl's literal one" \
"\$LIB/libresolv-k8s.so -> ../musl/libresolv-k8s.so
lib/aarch64-linux-gnu/libresolv-k8s.so -> ../../glibc/libresolv-k8s.so
lib/libresolv-k8s.so -> ../glibc/libresolv-k8s.so
lib/x86_64-linux-gnu/libresolv-k8s.so -> ../../glibc/libresolv-k8s.so
lib64/libresolv-k8s.so -> ../glibc/libresolv-k8s.so" "$(cd "$libs" && find . -type l -printf '%P -> %l\n' | sort)"

# A program of each libc resolves through what it copied, by the path
# inject writes.
conf=$WORK/resolv.conf
printf 'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 127.0.0.53\noptions ndots:5\n' > "$conf"
for libc in glibc musl; do
	pod "$WORK/$libc.log" on "$conf" -- "$build/tests/gai-probe-$libc" web > "$WORK/plain"
	pod "$WORK/$libc.log" on "$conf" -- env LD_PRELOAD="$libs/\$LIB/libresolv-k8s.so" \
		RESOLV_K8S_DEBUG=1 RESOLV_K8S_STATS="$WORK/stats.prom" "$build/tests/gai-probe-$libc" web \
		> "$WORK/out" 2> "$WORK/err"
	check "init: a $libc program resolves through the copied library, as $libc does" \
		"$(< "$WORK/plain")" "$(< "$WORK/out")" "$(cat "$WORK/err")"
	check "init: ... an answer at all ($libc)" yes "$(grep -q 10.96.1.10 "$WORK/out" && echo yes)"
	check "init: ... and it is the library answering" yes "$(grep -q '^resolv-k8s: web' "$WORK/err" && echo yes)" "$(cat "$WORK/err")"
done

# The copied resolv-k8s in a root that has nothing else (an app image of
# either libc, or none), as `kubectl exec POD -- /opt/resolv-k8s/bin/resolv-k8s`.
bare=$WORK/bare
mkdir -p "$bare/opt/resolv-k8s/bin" && cp "$libs/bin/resolv-k8s" "$bare/opt/resolv-k8s/bin/"
cp "$WORK/stats.prom" "$bare/stats.prom"
check_match "init: its resolv-k8s runs alone: the stats of both programs" "^pid .*total +2 " \
	"$(chroot "$bare" /opt/resolv-k8s/bin/resolv-k8s stats /stats.prom 2>&1)"

# The node image with a config in its usual place, answering from a zone.
root=$WORK/node/rootfs
mkdir -p "$root/etc/resolv-k8s"
cp "$POD_ROOT/tests/fixtures/example.com.zone" "$root/etc/resolv-k8s/"
printf 'listen: ["127.0.0.53:53"]\nservers:\n- {name: data, zones: [example.com], zoneFiles: [example.com.zone]}\n' \
	> "$root/etc/resolv-k8s/config.yaml"
answer=$(unshare --net --mount --pid --fork bash -c 'ip link set lo up
	chroot "$1" /usr/bin/resolv-k8s-server --config /etc/resolv-k8s/config.yaml 2> "$2" &
	for _ in $(seq 600); do grep -qs listening "$2" && break; sleep 0.05; done
	dig +short +time=2 @127.0.0.53 www.example.com' - "$root" "$WORK/node.err")
check "node: serves a query from its own root" "93.184.216.34" "$answer" "$(cat "$WORK/node.err")"

# The webhook image, as nobody, serving HTTPS with a mounted certificate.
root=$WORK/webhook/rootfs
"$POD_ROOT/container/webhook/certs.sh" "$root/tls" > /dev/null
chown -R 65534:65534 "$root/tls"
answer=$(unshare --net --mount --pid --fork bash -c 'ip link set lo up
	chroot --userspec=65534:65534 "$1" /usr/bin/resolv-k8s webhook --cert /tls/tls.crt --key /tls/tls.key \
		--listen 127.0.0.1:8443 --image registry.example.com/dns/libresolv-k8s-init:1 2> "$2" &
	for _ in $(seq 600); do grep -qs listening "$2" && break; sleep 0.05; done
	curl -sS --cacert "$1/tls/ca.crt" --resolve resolv-k8s-webhook.kube-system.svc:8443:127.0.0.1 \
		https://resolv-k8s-webhook.kube-system.svc:8443/healthz' - "$root" "$WORK/webhook.err")
check "webhook: serves HTTPS from its own root, as nobody" "ok" "$answer" "$(cat "$WORK/webhook.err")"
summary
