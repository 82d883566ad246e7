#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# arm64_test.sh BUILD_DIR: the arm64 half of the images' indexes. Each
# archive lists linux/amd64 and linux/arm64, each arm64 image says arm64
# and holds AArch64 files only; then, under qemu-aarch64-static (run inside
# the image's unpacked root, so it finds nothing the image lacks): the
# binaries' versions, the copier's job, the node image's server answering
# dig in a network namespace, and arm64 gai-probes (BUILD_DIR/arm64/tests)
# resolving through the arm64 glibc and musl libraries as their libc does
# alone. Needs root; packets stay on loopback in network namespaces.
set -uo pipefail
source "$(dirname "$0")/../pod/lib.sh"
pod_init "${1:?usage: arm64_test.sh BUILD_DIR}"
build=$(cd "$1" && pwd)
arm64=$build/arm64
qemu=$(command -v qemu-aarch64-static)

# platforms IMAGE: the index's platforms, sorted.
platforms() {
	skopeo inspect --raw "oci-archive:$build/images/$1.tar" | python3 -c 'import json, sys
print(" ".join(sorted(m["platform"]["os"] + "/" + m["platform"]["architecture"]
    for m in json.load(sys.stdin).get("manifests", []))))'
}
# config_of ARCH IMAGE KEY...: fields of that arch's image config.
config_of() {
	local arch=$1 image=$2
	shift 2
	skopeo --override-arch "$arch" inspect --config "oci-archive:$build/images/$image.tar" |
		python3 -c 'import json, sys; c = json.load(sys.stdin)
print(" ".join(str(c.get(k, c["config"].get(k))) for k in sys.argv[1:]))' "$@"
}
# unpack IMAGE: the arm64 image's root at $WORK/IMAGE/rootfs.
unpack() {
	skopeo --override-arch arm64 copy -q "oci-archive:$build/images/$1.tar" "oci:$WORK/oci:$1" &&
		umoci unpack --image "$WORK/oci:$1" "$WORK/$1" > /dev/null
}
# machines ROOT: "MACHINE COUNT" for the ELF files under ROOT.
machines() {
	find "$1" -type f -exec sh -c 'for f; do head -c4 "$f" | grep -q ELF && readelf -h "$f"; done' - {} + |
		sed -n 's/^ *Machine: *//p' | sort | uniq -c | awk '{$1=$1; print}'
}

for image in init node webhook; do
	check "$image: the index lists linux/amd64 and linux/arm64" "linux/amd64 linux/arm64" "$(platforms $image)"
	check "$image: its amd64 image says amd64" "amd64 linux" "$(config_of amd64 $image architecture os)"
	check "$image: its arm64 image says arm64" "arm64 linux" "$(config_of arm64 $image architecture os)"
	check "$image: the same labels, user and entrypoint for both" "$(config_of amd64 $image Labels User Entrypoint)" \
		"$(config_of arm64 $image Labels User Entrypoint)"
	check "$image: the arm64 image unpacks" 0 "$(unpack $image; echo $?)"
	counts=$(machines "$WORK/$image/rootfs")
	check "$image: AArch64 files only" AArch64 "$(cut -d' ' -f2- <<<"$counts")" "$counts"
done
for image in node webhook; do
	check "$image: the arm64 loader" yes "$([[ -e $WORK/$image/rootfs/lib/ld-linux-aarch64.so.1 ]] && echo yes)"
done
# exports SO: its dynamic symbols defined.
exports() { readelf -W --dyn-syms "$1" | awk '$7 != "UND" && $5 == "GLOBAL" { print $8 }' | sort | xargs; }
for libc in glibc musl; do
	check "init: the arm64 $libc library exports what the amd64 one does (libc entry points only)" \
		"$(exports "$build/$libc/libresolv-k8s.so")" "$(exports "$WORK/init/rootfs/resolv-k8s/$libc/libresolv-k8s.so")"
done
# aarch64's oldest glibc is 2.17: nothing newer imported (mk/preload.mk).
check "init: the arm64 glibc library imports GLIBC_2.17 at most" "GLIBC_2.17" \
	"$(readelf -W --dyn-syms "$WORK/init/rootfs/resolv-k8s/glibc/libresolv-k8s.so" |
		sed -n 's/.*@\(GLIBC_[0-9.]*\).*/\1/p' | sort -Vu | tail -1)"
# The package metadata of the arm64 images (deb-status.sh): every copied
# file listed, the libraries copied and linked in of arm64's packages.
for image in init node webhook; do
	meta=$(python3 "$POD_ROOT/tests/images/deb_status.py" "$WORK/$image/rootfs" 2>&1)
	check "$image: arm64 status entries, every file listed" yes \
		"$([[ $(grep -c '^entry ' <<<"$meta") -gt 0 && $(grep -vc '^entry ' <<<"$meta") == 0 ]] && echo yes)" "$meta"
done
check_match "node: its libraries arm64's" "entry libc6 [^ ]+ arm64.*entry libnftables1 [^ ]+ arm64" \
	"$(python3 "$POD_ROOT/tests/images/deb_status.py" "$WORK/node/rootfs")"
check_match "init: c-ares and mimalloc linked in, for arm64" "entry c-ares [^ ]+ arm64.*entry mimalloc [^ ]+ arm64" \
	"$(python3 "$POD_ROOT/tests/images/deb_status.py" "$WORK/init/rootfs")"

if [[ -z $qemu ]]; then
	skip "arm64: no qemu-aarch64-static (Debian's qemu-user-static): nothing arm64 run"
	summary
	exit
fi
if ! out=$("$qemu" "$arm64/images/copier" --version 2>&1); then
	skip "arm64: qemu-aarch64-static cannot run an arm64 program here: $out"
	summary
	exit
fi
# chroot_arm64 ROOT CMD...: CMD of ROOT under qemu, inside ROOT.
chroot_arm64() {
	local root=$1
	shift
	cp "$qemu" "$root/qemu-aarch64-static"
	chroot "$root" /qemu-aarch64-static "$@"
}
version=$("$POD_ROOT/mk/version.sh")
check "node: resolv-k8s-server --version, arm64, from its root" "resolv-k8s-server $version" \
	"$(chroot_arm64 "$WORK/node/rootfs" /usr/bin/resolv-k8s-server --version 2>&1)"
check "webhook: resolv-k8s --version, arm64, from its root" "resolv-k8s $version" \
	"$(chroot_arm64 "$WORK/webhook/rootfs" /usr/bin/resolv-k8s --version 2>&1)"
root=$WORK/init/rootfs
libs=$root/target
mkdir -p "$libs"
chroot_arm64 "$root" /copier /target > /dev/null
for libc in glibc musl; do
	check "init: the arm64 copier copies the $libc library" yes \
		"$(cmp -s "$arm64/$libc/libresolv-k8s.so" "$root/target/$libc/libresolv-k8s.so" && echo yes)"
done

# The node image's server, arm64 in its own root, queried by dig.
root=$WORK/node/rootfs
mkdir -p "$root/etc/resolv-k8s"
cp "$POD_ROOT/tests/fixtures/cluster.json" "$POD_ROOT/tests/fixtures/example.com.zone" "$root/etc/resolv-k8s/"
printf '%s\n' 'listen: ["127.0.0.53:53"]' 'servers:' \
	'- {name: data, zones: [cluster.local, example.com], clusterFile: cluster.json, zoneFiles: [example.com.zone]}' \
	> "$root/etc/resolv-k8s/config.yaml"
cp "$qemu" "$root/qemu-aarch64-static"
answers=$(unshare --net --mount --pid --fork bash -c 'ip link set lo up
	chroot "$1" /qemu-aarch64-static /usr/bin/resolv-k8s-server --config /etc/resolv-k8s/config.yaml 2> "$2" &
	for _ in $(seq 200); do grep -qs listening "$2" && break; sleep 0.05; done
	for q in "www.example.com A" "www.example.com AAAA" "mail.example.com MX" \
		"web.shop.svc.cluster.local A" "web.shop.svc.cluster.local AAAA" "nope.shop.svc.cluster.local A"; do
		echo "$q: $(dig +time=5 +tries=1 @127.0.0.53 $q | sed -n "s/.*status: \([A-Z]*\).*/\1/p")" \
			"$(dig +short +time=5 +tries=1 @127.0.0.53 $q | xargs)"
	done' - "$root" "$WORK/node.err")
check "node: the arm64 server answers dig from its root" "www.example.com A: NOERROR 93.184.216.34
www.example.com AAAA: NOERROR 2606:2800:220:1:248:1893:25c8:1946
mail.example.com MX: NOERROR 10 mx1.example.com.
web.shop.svc.cluster.local A: NOERROR 10.96.1.10
web.shop.svc.cluster.local AAAA: NOERROR fd00:10:96::110
nope.shop.svc.cluster.local A: NXDOMAIN " "$answers" "$(cat "$WORK/node.err")"

# The pods: the arm64 server behind every nameserver (tests/pod/lib.sh),
# the arm64 probes of each libc, without and with that libc's arm64 library
# (for musl also linked with the static archive, libresolv-k8s.a), by the
# path inject writes, in what the arm64 copier laid.
cat > "$WORK/server" <<EOF
#!/bin/sh
exec "$qemu" -L "$root" "$root/usr/bin/resolv-k8s-server" "\$@"
EOF
chmod +x "$WORK/server"
export POD_SERVER=$WORK/server
conf=$WORK/resolv.conf
printf 'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 127.0.0.53\noptions ndots:5\n' > "$conf"
names=(web kubernetes.default www.example.com nope)
for libc in glibc musl; do
	probe=$arm64/tests/gai-probe-$libc
	check "$libc: the probe is arm64" "AArch64" "$(readelf -h "$probe" | sed -n 's/^ *Machine: *//p')"
	pod "$WORK/$libc.log" on "$conf" -- "$qemu" -L / "$probe" "${names[@]}" > "$WORK/plain-$libc" 2>&1
	pod "$WORK/$libc.log" on "$conf" -- "$qemu" -L / -E LD_PRELOAD="$libs/\$LIB/libresolv-k8s.so" \
		-E RESOLV_K8S_DEBUG=1 "$probe" "${names[@]}" > "$WORK/out" 2> "$WORK/err"
	check "$libc: an arm64 program resolves through the arm64 library as $libc does" \
		"$(< "$WORK/plain-$libc")" "$(< "$WORK/out")" "$(cat "$WORK/err")"
	check_match "$libc: ... with answers" "web: inet[^\n]* 10\.96\.1\.10 .*www\.example\.com: inet[^\n]* 93\.184\.216\.34" \
		"$(< "$WORK/out")"
	check "$libc: ... the library answering each, by autopath" ${#names[@]} "$(grep -c 'answered by autopath' "$WORK/err")" \
		"$(cat "$WORK/err")"
done
pod "$WORK/static.log" on "$conf" -- "$qemu" -E RESOLV_K8S_DEBUG=1 "$arm64/tests/gai-probe-musl-rk8s" "${names[@]}" \
	> "$WORK/out" 2> "$WORK/err"
check "musl: a static arm64 program with libresolv-k8s.a resolves as musl does" "$(< "$WORK/plain-musl")" \
	"$(< "$WORK/out")" "$(cat "$WORK/err")"
check "musl: ... the archive answering each, by autopath" ${#names[@]} "$(grep -c 'answered by autopath' "$WORK/err")" \
	"$(cat "$WORK/err")"
summary
