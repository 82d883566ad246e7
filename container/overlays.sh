#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# overlays.sh OUT REGISTRY [TAG]: the quick start's two kustomize overlays,
# written in OUT (docs/quick-start.md): OUT/node-cache, the cache's base with
# REGISTRY/resolv-k8s-node:TAG; OUT/webhook, the webhook's base (with
# CERT_MANAGER=1 its cert-manager overlay) with REGISTRY/resolv-k8s-webhook:TAG,
# writing REGISTRY/libresolv-k8s-init:TAG into the pods it patches and,
# with KUBE_DNS=IP (kube-dns's ClusterIP), the cache's address then kube-dns
# as their nameservers (without it, pods keep kubelet's: the cache must then
# take kube-dns's address, container/README.md). TAG: the library's version
# by default. With IMAGES=DIR (make push and make overlays: build/images),
# the images of DIR's archives by digest instead (images/refs.sh: TAG, by
# default VERSION-HASH, in a comment and the init image's reference).
# Written for kustomize 2.0 too (bases, patchesJson6902). Then:
# kubectl apply -k OUT/node-cache -k OUT/webhook.
set -euo pipefail
out=${1:?usage: overlays.sh OUT REGISTRY [TAG]}
registry=${2:?usage: overlays.sh OUT REGISTRY [TAG]}
root=$(cd "$(dirname "$0")/.." && pwd)
tag=${3:-$(sed -n 's/^#define RK8S_VERSION "\(.*\)"$/\1/p' "$root/include/resolv-k8s.h")}
registry=${registry%/}
# pin[NAME]: ":TAG", or with IMAGES ":TAG@DIGEST".
declare -A pin=([libresolv-k8s-init]=":$tag" [resolv-k8s-node]=":$tag" [resolv-k8s-webhook]=":$tag")
if [[ ${IMAGES:-} ]]; then
	while read -r _ name _ image_tag digest; do
		pin[$name]=":$image_tag@$digest"
	done < <("$root/container/images/refs.sh" "$IMAGES" ${3:+"$3"})
fi
webhook_base=container/webhook/base
[[ ${CERT_MANAGER:-} != 1 ]] || webhook_base=container/webhook/overlays/cert-manager

# overlay NAME BASE IMAGE: OUT/NAME's kustomization, IMAGE from REGISTRY,
# by its digest where known.
overlay() {
	local ref=${pin[$3]}
	mkdir -p "$out/$1"
	cat > "$out/$1/kustomization.yaml" <<-END
		# overlays.sh: $2 from your registry, $registry/$3$ref.
		apiVersion: kustomize.config.k8s.io/v1beta1
		kind: Kustomization
		bases:
		  - $(realpath --relative-to="$out/$1" "$root/$2")
		images:
		  - name: $3
		    newName: $registry/$3
	END
	if [[ $ref == *@* ]]; then
		echo "    digest: ${ref#*@}" >> "$out/$1/kustomization.yaml"
	else
		echo "    newTag: \"$tag\"" >> "$out/$1/kustomization.yaml"
	fi
}
overlay node-cache container/node-cache/base resolv-k8s-node
overlay webhook "$webhook_base" resolv-k8s-webhook
cat >> "$out/webhook/kustomization.yaml" <<-END
	patchesJson6902:
	  - target: {group: apps, version: v1, kind: Deployment, name: resolv-k8s-webhook}
	    path: args.yaml
END
# arg VALUE...: added to the webhook's arguments.
arg() {
	local v
	for v; do echo "- {op: add, path: /spec/template/spec/containers/0/args/-, value: \"$v\"}"; done
}
cache=$(sed -n 's/^ *- address=//p' "$root/container/node-cache/base/kustomization.yaml")
{
	echo "# What the webhook writes into the pods it patches: the init image, and"
	echo "# with KUBE_DNS the node-local cache first, kube-dns second."
	arg --image "$registry/libresolv-k8s-init${pin[libresolv-k8s-init]}"
	[[ -z ${KUBE_DNS:-} ]] || arg --nameserver "$cache" --nameserver "$KUBE_DNS"
} > "$out/webhook/args.yaml"
echo "overlays.sh: $out/node-cache, $out/webhook ($registry, ${IMAGES:+the digests of $IMAGES, }$tag${KUBE_DNS:+, nameservers $cache $KUBE_DNS})"
