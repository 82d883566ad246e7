#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# refs.sh IMAGES_DIR [TAG]: a line per image of build.sh's archives in
# IMAGES_DIR, "ARCHIVE NAME VERSION TAG DIGEST": DIGEST is its index's, what
# a registry serves for it once pushed as it is (push.sh); TAG the one given,
# or VERSION-HASH, HASH the digest's first 12 hex digits: a tag that changes
# when the images do. push.sh and overlays.sh name the images so.
set -euo pipefail
dir=${1:?usage: refs.sh IMAGES_DIR [TAG]}
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$("$root/mk/version.sh")
for image in init:libresolv-k8s-init node:resolv-k8s-node webhook:resolv-k8s-webhook; do
	archive=$dir/${image%%:*}.tar name=${image#*:}
	[[ -f $archive ]] || { echo "refs.sh: no $archive: make images first" >&2; exit 1; }
	digest=$(tar -xOf "$archive" index.json | python3 -c 'import json, sys
ref = sys.argv[1]
for m in json.load(sys.stdin)["manifests"]:
    if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == ref:
        print(m["digest"])' "$name:$version")
	[[ $digest == sha256:* ]] || { echo "refs.sh: $archive holds no $name:$version" >&2; exit 1; }
	hash=${digest#sha256:}
	echo "${image%%:*} $name $version ${2:-$version-${hash:0:12}} $digest"
done
