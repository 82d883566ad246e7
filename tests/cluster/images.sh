#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# images.sh BUILD_DIR OUT_DIR: every image the cluster runs, as archives in
# OUT_DIR that each node's containerd imports (no registry is reachable):
# built here with buildah (FROM scratch, offline), under the names kubeadm
# and the pods ask for:
#   registry.k8s.io/pause:3.10.2             Kubernetes' pause.c, from its module
#   registry.k8s.io/coredns/coredns:v1.14.6  tests/coredns's CoreDNS, as its image
#                                            runs it (/coredns, user nonroot)
#   rk8s.test/app-{glibc,musl,musl-static,go,python}:1  the probes
#                                            (tests/pod/gai-probe.c on glibc, with
#                                            tests/node/clients/res_probe.c beside
#                                            it; on musl; statically linked with
#                                            libresolv-k8s.a; tests/node/clients/
#                                            go_probe.go; tests/bench/py_probe.py
#                                            on the machine's python3), each its
#                                            program and what it loads
# and beside them the project's three (BUILD_DIR/images, `make images`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: images.sh BUILD_DIR OUT_DIR}" && pwd)
out=${2:?}
mkdir -p "$out"
bah=(buildah --storage-driver vfs --root "$out/storage" --runroot "$out/run")

# image NAME ENTRYPOINT_JSON USER FILE:PATH...: NAME as a docker archive.
image() {
	local name=$1 entrypoint=$2 user=$3 c file
	shift 3
	c=$("${bah[@]}" from scratch)
	for file in "$@"; do "${bah[@]}" copy "$c" "${file%%:*}" "${file#*:}" > /dev/null; done
	"${bah[@]}" config --entrypoint "$entrypoint" --user "$user" "$c"
	"${bah[@]}" commit -q "$c" "$name" > /dev/null
	"${bah[@]}" rm "$c" > /dev/null
	rm -f "$out/${name//[\/:]/_}.tar"
	"${bah[@]}" push -q "$name" "docker-archive:$out/${name//[\/:]/_}.tar:$name"
}
# loaded PROGRAM: FILE:PATH of each library PROGRAM loads.
loaded() {
	local lib
	for lib in $(ldd "$1" | grep -o '/[^ ]*'); do echo "$(readlink -f "$lib"):$lib"; done
}

kubernetes=$(cd "$here/kubernetes" && go list -m -f '{{.Dir}}' k8s.io/kubernetes)
gcc -Os -static -DVERSION=3.10.2 -o "$out/pause" "$kubernetes/build/pause/linux/pause.c"
image registry.k8s.io/pause:3.10.2 '["/pause"]' 65535:65535 "$out/pause:/pause"
image registry.k8s.io/coredns/coredns:v1.14.6 '["/coredns"]' 65532:65532 "$build/bin/coredns:/coredns"

probes=$build/tests
image rk8s.test/app-glibc:1 '["/usr/bin/gai-probe"]' 1000:1000 \
	"$probes/gai-probe-glibc:/usr/bin/gai-probe" $(loaded "$probes/gai-probe-glibc") \
	"$probes/res-probe:/usr/bin/res-probe" $(loaded "$probes/res-probe")
image rk8s.test/app-musl:1 '["/usr/bin/gai-probe"]' 1000:1000 \
	"$probes/gai-probe-musl:/usr/bin/gai-probe" /lib/ld-musl-x86_64.so.1:/lib/ld-musl-x86_64.so.1
image rk8s.test/app-musl-static:1 '["/usr/bin/gai-probe"]' 1000:1000 \
	"$probes/gai-probe-musl-rk8s:/usr/bin/gai-probe"
image rk8s.test/app-go:1 '["/usr/bin/go-probe"]' 1000:1000 "$probes/go-probe:/usr/bin/go-probe"
python=$(readlink -f /usr/bin/python3)
image rk8s.test/app-python:1 '["/usr/bin/python3", "-I", "/usr/bin/py-probe", "0"]' 1000:1000 \
	"$python:/usr/bin/python3" $(loaded "$python") "/usr/lib/${python##*/}:/usr/lib/${python##*/}" \
	"$here/../bench/py_probe.py:/usr/bin/py-probe"
cp "$build"/images/{init,node,webhook}.tar "$out/"
