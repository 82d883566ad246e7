#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# push.sh BUILD_DIR REGISTRY [TAG]: the three images of build.sh's archives
# pushed to REGISTRY as REGISTRY/NAME:TAG (TAG: their version by default),
# with every arch each archive holds (skopeo; SKOPEO_FLAGS adds its own,
# e.g. --dest-tls-verify=false or --dest-creds USER:PASS).
set -euo pipefail
build=${1:?usage: push.sh BUILD_DIR REGISTRY [TAG]}
registry=${2:?usage: push.sh BUILD_DIR REGISTRY [TAG]}
registry=${registry%/}
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/^#define RK8S_VERSION "\(.*\)"$/\1/p' "$root/include/resolv-k8s.h")
tag=${3:-$version}
read -ra flags <<<"${SKOPEO_FLAGS:-}"
for image in init:libresolv-k8s-init node:resolv-k8s-node webhook:resolv-k8s-webhook; do
	archive=$build/images/${image%%:*}.tar name=${image#*:}
	skopeo copy -q --all "${flags[@]}" "oci-archive:$archive:$name:$version" "docker://$registry/$name:$tag"
	echo "push: $registry/$name:$tag"
done
