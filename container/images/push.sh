#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# push.sh BUILD_DIR REGISTRY [TAG]: the three images of build.sh's archives
# pushed to REGISTRY as REGISTRY/NAME:TAG with every arch each archive holds
# (skopeo; SKOPEO_FLAGS adds its own, e.g. --dest-tls-verify=false or
# --dest-creds USER:PASS). TAG: VERSION-HASH by default, HASH of the
# image's digest (refs.sh); the digests are kept as they are, so that
# REGISTRY/NAME@DIGEST is the image pushed, which the overlays name.
set -euo pipefail
build=${1:?usage: push.sh BUILD_DIR REGISTRY [TAG]}
registry=${2:?usage: push.sh BUILD_DIR REGISTRY [TAG]}
registry=${registry%/}
read -ra flags <<<"${SKOPEO_FLAGS:-}"
refs=$("$(dirname "$0")/refs.sh" "$build/images" ${3:+"$3"})
pushed=$(mktemp)
trap 'rm -f "$pushed"' EXIT
while read -r archive name version tag digest; do
	skopeo copy -q --all --preserve-digests "${flags[@]}" --digestfile "$pushed" \
		"oci-archive:$build/images/$archive.tar:$name:$version" "docker://$registry/$name:$tag"
	[[ $(< "$pushed") == "$digest" ]] ||
		{ echo "push: $registry/$name:$tag: the registry has $(< "$pushed"), not $digest" >&2; exit 1; }
	echo "push: $registry/$name:$tag@$digest"
done <<<"$refs"
