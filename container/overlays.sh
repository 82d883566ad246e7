#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# overlays.sh OUT REGISTRY [TAG]: the quick start's two kustomize overlays,
# written in OUT (docs/quick-start.md): OUT/node-cache, the cache's base with
# REGISTRY/resolv-k8s-node:TAG; OUT/webhook, the webhook's base (with
# CERT_MANAGER=1 its cert-manager overlay) with REGISTRY/resolv-k8s-webhook:TAG,
# writing REGISTRY/libresolv-k8s-init:TAG into the pods it patches; and the
# same for the chart (container/chart), OUT/values.yaml. TAG: the
# library's version by default. With IMAGES=DIR (make push and make
# overlays: build/images), the images of DIR's archives by digest instead
# (images/refs.sh: TAG, by default VERSION-HASH, in a comment and the init
# image's reference; the chart's values name both). The settings, from the
# environment, each written into one setting of the overlays (the bases' env
# entries) and its value of the chart:
#   KUBE_DNS=IP        kube-dns's ClusterIP: the pods' nameservers are the
#                      cache's address, then kube-dns (without it, pods keep
#                      kubelet's: the cache must then take kube-dns's address)
#   CACHE_ON_KUBE_DNS=1  the cache takes KUBE_DNS on every node instead
#                      (kube-proxy in iptables mode): pods keep kubelet's DNS
#   NODE_SEARCH=a,b    the node's search domains the webhook appends after the
#                      cluster's (default auto: those of the webhook's own pod)
#   STUB_DOMAINS=JSON  kube-dns's stubDomains, {"corp.example": ["10.0.0.53"]}
#   CLUSTER_DNS=IP     the cache's cluster DNS upstream, instead of the
#                      Service resolv-k8s-upstream's address kubelet gives
#   CLUSTER_DOMAIN=D   default cluster.local
# Then: kubectl apply -k OUT/node-cache -k OUT/webhook, or
# helm install resolv-k8s container/chart -n kube-system -f OUT/values.yaml.
set -euo pipefail
out=${1:?usage: overlays.sh OUT REGISTRY [TAG]}
registry=${2:?usage: overlays.sh OUT REGISTRY [TAG]}
root=$(cd "$(dirname "$0")/.." && pwd)
tag=${3:-$("$root/mk/version.sh")}
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
if [[ ${CACHE_ON_KUBE_DNS:-} == 1 && -z ${KUBE_DNS:-} ]]; then
	echo "overlays.sh: CACHE_ON_KUBE_DNS=1 needs KUBE_DNS, kube-dns's ClusterIP" >&2
	exit 2
fi

# overlay NAME BASE IMAGE: OUT/NAME's kustomization, IMAGE from REGISTRY,
# by its digest where known, and its settings.yaml patch.
overlay() {
	local ref=${pin[$3]} version
	version="newTag: \"$tag\""
	[[ $ref != *@* ]] || version="digest: ${ref#*@}"
	mkdir -p "$out/$1"
	cat > "$out/$1/kustomization.yaml" <<-END
		# overlays.sh: $2 from your registry, $registry/$3$ref, with settings.yaml.
		apiVersion: kustomize.config.k8s.io/v1beta1
		kind: Kustomization
		resources:
		  - $(realpath --relative-to="$out/$1" "$root/$2")
		images:
		  - name: $3
		    newName: $registry/$3
		    $version
		patches:
		  - path: settings.yaml
	END
}
# settings KIND NAME CONTAINER NAME=VALUE...: OUT/NAME's settings.yaml, the
# container's env entries (a strategic merge patch: each replaces the base's).
settings() {
	local kind=$1 name=$2 container=$3 kv
	shift 3
	cat <<-END
		# overlays.sh's settings (the base's $kind says what each is).
		apiVersion: apps/v1
		kind: $kind
		metadata:
		  name: $name
		spec:
		  template:
		    spec:
		      containers:
		        - name: $container
	END
	(($#)) && echo "          env:"
	for kv; do
		printf '            - name: %s\n              value: %s\n' "${kv%%=*}" \
			"$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "${kv#*=}")"
	done
}

cache=$(sed -n '/name: LOCAL_ADDRESS/{n; s/^ *value: //p}' "$root/container/node-cache/base/daemonset.yaml")
overlay node-cache container/node-cache/base resolv-k8s-node
node=()
[[ ${CACHE_ON_KUBE_DNS:-} != 1 ]] || node+=("KUBE_DNS_ADDRESS=$KUBE_DNS")
[[ -z ${STUB_DOMAINS:-} ]] || node+=("STUB_DOMAINS=$STUB_DOMAINS")
[[ -z ${CLUSTER_DNS:-} ]] || node+=("CLUSTER_DNS=$CLUSTER_DNS")
[[ -z ${CLUSTER_DOMAIN:-} ]] || node+=("CLUSTER_DOMAIN=$CLUSTER_DOMAIN")
settings DaemonSet resolv-k8s-node node-cache "${node[@]}" > "$out/node-cache/settings.yaml"

overlay webhook "$webhook_base" resolv-k8s-webhook
hook=("INIT_IMAGE=$registry/libresolv-k8s-init${pin[libresolv-k8s-init]}")
[[ -z ${KUBE_DNS:-} || ${CACHE_ON_KUBE_DNS:-} == 1 ]] || hook+=("NAMESERVERS=$cache,$KUBE_DNS")
[[ -z ${NODE_SEARCH:-} ]] || hook+=("NODE_SEARCH=$NODE_SEARCH")
[[ -z ${CLUSTER_DOMAIN:-} ]] || hook+=("CLUSTER_DOMAIN=$CLUSTER_DOMAIN")
settings Deployment resolv-k8s-webhook webhook "${hook[@]}" > "$out/webhook/settings.yaml"

# The chart's values (container/chart/values.yaml): the images, and each
# setting of the overlays as its value; CERT_MANAGER too. Leaves in JSON,
# which YAML reads.
python3 - "$registry" "${pin[resolv-k8s-node]}" "${pin[resolv-k8s-webhook]}" "${pin[libresolv-k8s-init]}" \
	"${CERT_MANAGER:-}" "$out/values.yaml" "${node[@]}" "${hook[@]}" > "$out/values.yaml" <<-'END'
	import json, sys
	registry, node, webhook, init, cert_manager, path, *settings = sys.argv[1:]
	def image(pin):
	    tag, _, digest = pin[1:].partition("@")
	    return {"tag": tag, "digest": digest}
	values = {"registry": registry, "images": {"node": image(node), "webhook": image(webhook), "init": image(init)},
	          "nodeCache": {}, "webhook": {"certificates": "certManager" if cert_manager == "1" else "self"}}
	chart = {"KUBE_DNS_ADDRESS": ("nodeCache", "kubeDNSAddress", str), "STUB_DOMAINS": ("nodeCache", "stubDomains", json.loads),
	         "CLUSTER_DNS": ("nodeCache", "clusterDNS", str), "CLUSTER_DOMAIN": (None, "clusterDomain", str),
	         "NAMESERVERS": ("webhook", "nameservers", lambda v: v.split(",")),
	         "NODE_SEARCH": (None, "nodeSearch", lambda v: v if v == "auto" else v.split(","))}
	for setting in settings:
	    name, _, value = setting.partition("=")
	    if name in chart:
	        group, key, parse = chart[name]
	        (values[group] if group else values)[key] = parse(value)
	def emit(d, indent=""):
	    for key, value in d.items():
	        if isinstance(value, dict) and value and key != "stubDomains":
	            print(indent + key + ":")
	            emit(value, indent + "  ")
	        else:
	            print(indent + key + ": " + json.dumps(value))
	print("# overlays.sh: the chart's values, the overlays' images and settings:")
	print("# helm install resolv-k8s container/chart -n kube-system -f " + path)
	emit(values)
END
echo "overlays.sh: $out/node-cache, $out/webhook, $out/values.yaml ($registry, ${IMAGES:+the digests of $IMAGES, }$tag; ${node[*]} ${hook[*]})"
