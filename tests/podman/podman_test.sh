#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# podman_test.sh BUILD_DIR: the images under a real container engine,
# Debian's podman (with runc; storage, networks and state of its own under
# a work directory) in a network namespace. The node image runs the
# node-local cache on the namespace's network; the webhook image patches
# application pods; `podman kube play` plays them with the init image, all
# three pulled from a registry they were pushed to as `make push` does (the
# overlays and the chart's values it writes naming them by digest): a
# Debian application (glibc, with the library), an Alpine-style one (musl,
# patched as the glibc one: the one LD_PRELOAD value finds the musl build)
# and one on the marker path (no library), each built offline with buildah. Asserts each pod's answers,
# that the library answered, and the queries the cache saw: one per lookup
# once the cache has shown support (two for the first), A and AAAA per
# lookup on the marker path. Skipped, saying why, where podman cannot run a
# container.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: podman_test.sh BUILD_DIR}" && pwd)
source "$root/tests/lib/assert.sh"
skipped() {
	skip "podman: $1"
	summary
	exit
}
[[ $(id -u) == 0 ]] || skipped "needs root"
for tool in podman runc buildah; do command -v $tool > /dev/null || skipped "no $tool"; done
if [[ -z ${PODMAN_SANDBOX:-} ]]; then
	exec unshare --net --mount --pid --fork --mount-proc env PODMAN_SANDBOX=1 "$0" "$@"
fi
ip link set lo up
# Everything podman makes, in memory: gone with this mount namespace.
work=$(mktemp -d)
mount -t tmpfs tmpfs "$work"
trap '"${P[@]}" rm -af -t 0 > /dev/null 2>&1; umount -R -l "$work"; rm -rf "$work"' EXIT
# Podman's global state stays in this mount namespace.
for dir in /etc/cni/net.d /var/lib/cni /run/netns /run/libpod /run/containers; do
	mkdir -p "$dir" && mount -t tmpfs tmpfs "$dir"
done
# Limits the machine's hard limits allow; cgroupfs, as no systemd runs here.
cat > "$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=$(ulimit -Hu):$(ulimit -Hu)"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF=$work/containers.conf
storage=(--root "$work/storage" --runroot "$work/run" --storage-driver vfs)
P=(podman "${storage[@]}")
bah=(buildah "${storage[@]}")

# The quick start's registry: Debian's (distribution's) on this namespace's
# loopback; the images pushed by container/images/push.sh and the overlays
# written by container/overlays.sh, as `make push` runs them; podman, whose
# storage starts empty, pulls the images by the digests the overlays name.
cat > "$work/registry.yml" <<EOF
version: 0.1
storage: {filesystem: {rootdirectory: $work/registry}}
http: {addr: 127.0.0.1:5087}
log: {level: error, accesslog: {disabled: true}}
EOF
docker-registry serve "$work/registry.yml" > "$work/registry.log" 2>&1 &
for _ in $(seq 100); do curl -sf http://127.0.0.1:5087/v2/ > /dev/null && break; sleep 0.1; done
reg=127.0.0.1:5087/rk8s
SKOPEO_FLAGS=--dest-tls-verify=false "$root/container/images/push.sh" "$build" "$reg" > "$work/push" 2>&1
pushed=$?
version=$("$root/mk/version.sh")
declare -A tag digest
while read -r _ name _ image_tag image_digest; do
	tag[$name]=$image_tag digest[$name]=$image_digest
done < <("$root/container/images/refs.sh" "$build/images")
check "push.sh: the three images pushed, each tagged its version and the start of its digest" \
	"0 $(for name in libresolv-k8s-init resolv-k8s-node resolv-k8s-webhook; do
		printf 'push: %s ' "$reg/$name:$version-${digest[$name]:7:12}@${digest[$name]}"; done | xargs)" \
	"$pushed $(xargs < "$work/push")"
check "the registry holds them" '{"repositories":["rk8s/libresolv-k8s-init","rk8s/resolv-k8s-node","rk8s/resolv-k8s-webhook"]}' \
	"$(curl -s http://127.0.0.1:5087/v2/_catalog)"
# served NAME REFERENCE: the digest the registry serves for a tag or digest.
served() {
	curl -sI -H 'Accept: application/vnd.oci.image.index.v1+json' "http://127.0.0.1:5087/v2/rk8s/$1/manifests/$2" |
		tr -d '\r' | sed -n 's/^docker-content-digest: //Ip'
}
for name in libresolv-k8s-init resolv-k8s-node resolv-k8s-webhook; do
	check "registry: $name's tag is its digest" "${digest[$name]} ${digest[$name]}" \
		"$(served "$name" "${tag[$name]}") $(served "$name" "${digest[$name]}")"
done

# The overlays `make push` writes, rendered: every image by its digest; and
# the chart with the values it writes beside them, by tag and digest.
IMAGES=$build/images "$root/container/overlays.sh" "$work/deploy" "$reg" > /dev/null
HELM_CACHE_HOME=$work/helm HELM_CONFIG_HOME=$work/helm HELM_DATA_HOME=$work/helm "$build/bin/helm" template resolv-k8s \
	"$root/container/chart" -n kube-system -f "$work/deploy/values.yaml" > "$work/chart.yaml"
for dir in node-cache webhook; do "$build/bin/kubectl" kustomize "$work/deploy/$dir" 2> /dev/null; echo ---; done > "$work/deploy.yaml"
# rendered NAME [FILE]: the references of image NAME in the overlays (or
# FILE), the webhook's INIT_IMAGE (--image) among them.
rendered() {
	python3 - "${2:-$work/deploy.yaml}" "$1" <<-'EOF' | sort -u | xargs
		import sys, yaml
		for doc in yaml.safe_load_all(open(sys.argv[1])):
		    for c in ((doc or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])):
		        env = [e["value"] for e in c.get("env", []) if e["name"] == "INIT_IMAGE"]
		        for ref in [c["image"]] + env:
		            if ref.split("@")[0].rsplit("/", 1)[-1].split(":")[0] == sys.argv[2]:
		                print(ref)
	EOF
}
check "overlays: the node image by digest" "$reg/resolv-k8s-node@${digest[resolv-k8s-node]}" "$(rendered resolv-k8s-node)"
check "overlays: the webhook image by digest" "$reg/resolv-k8s-webhook@${digest[resolv-k8s-webhook]}" \
	"$(rendered resolv-k8s-webhook)"
check "overlays: the init image the webhook writes, by tag and digest" \
	"$reg/libresolv-k8s-init:${tag[libresolv-k8s-init]}@${digest[libresolv-k8s-init]}" "$(rendered libresolv-k8s-init)"
check "the chart with make push's values: every image by tag and digest" \
	"$(for name in libresolv-k8s-init resolv-k8s-node resolv-k8s-webhook; do printf '%s ' "$reg/$name:${tag[$name]}@${digest[$name]}"; done | xargs)" \
	"$(for name in libresolv-k8s-init resolv-k8s-node resolv-k8s-webhook; do rendered $name "$work/chart.yaml"; done | xargs)"
node_image=$(rendered resolv-k8s-node) webhook_image=$(rendered resolv-k8s-webhook) init_image=$(rendered libresolv-k8s-init)
"${P[@]}" run --rm --network none --tls-verify=false "$node_image" --version > "$work/smoke" 2>&1 ||
	skipped "cannot run a container here: $(tail -1 "$work/smoke")"

# app-glibc: gai-probe and the libraries ldd lists for it, nothing else of
# Debian's libc6 (no libpthread.so.0, no libdl.so.2); app-musl: gai-probe
# for musl and musl's loader, as Alpine has them.
app_image() {
	local name=$1 probe=$2 c lib
	shift 2
	c=$("${bah[@]}" from scratch)
	"${bah[@]}" copy "$c" "$probe" /usr/bin/gai-probe > /dev/null
	for lib in "$@"; do "${bah[@]}" copy "$c" "$(readlink -f "$lib")" "$lib" > /dev/null; done
	"${bah[@]}" config --entrypoint '["/usr/bin/gai-probe"]' "$c"
	"${bah[@]}" commit -q "$c" "localhost/$name:1" > /dev/null
	"${bah[@]}" rm "$c" > /dev/null
}
# shellcheck disable=SC2046 # ldd's paths
app_image app-glibc "$build/tests/gai-probe-glibc" $(ldd "$build/tests/gai-probe-glibc" | grep -o '/[^ ]*')
app_image app-musl "$build/tests/gai-probe-musl" /lib/ld-musl-x86_64.so.1

# The pods' network; the cache and the webhook on the namespace's own, so
# the pods reach the cache at the bridge's address.
"${P[@]}" network create --subnet 10.89.0.0/24 --gateway 10.89.0.1 pods > /dev/null
cache=$work/cache
mkdir -p "$cache"
cp "$root/tests/fixtures/cluster.json" "$root/tests/fixtures/example.com.zone" "$cache/"
cat > "$cache/config.yaml" <<'EOF'
listen: ["0.0.0.0:53"]
autopath: {hostSearch: []}
servers:
  - name: data
    zones: [cluster.local, example.com]
    clusterFile: cluster.json
    zoneFiles: [example.com.zone]
EOF
"${P[@]}" run -d --name cache --network host -v "$cache:/etc/resolv-k8s" "$node_image" \
	--config /etc/resolv-k8s/config.yaml --query-log /etc/resolv-k8s/queries.log > /dev/null
"$root/container/webhook/certs.sh" "$work/certs" > /dev/null
chmod 644 "$work/certs/tls.key"
"${P[@]}" run -d -q --name webhook --network host --tls-verify=false -v "$work/certs:/tls:ro" "$webhook_image" \
	webhook --cert /tls/tls.crt --key /tls/tls.key --listen 127.0.0.1:8443 --nameserver 10.89.0.1 \
	--image "$init_image" > /dev/null
for _ in $(seq 100); do
	"${P[@]}" logs cache 2>&1 | grep -q listening && "${P[@]}" logs webhook 2>&1 | grep -q listening && break
	sleep 0.1
done

names=(web kubernetes.default www.example.com)
# play NAME IMAGE ANNOTATIONS: the pod, through the webhook, played; its log.
play() {
	local name=$1 image=$2 annotations=$3
	cat > "$work/$name.json" <<EOF
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$name", "namespace": "shop", "annotations": {$annotations}},
 "spec": {"restartPolicy": "Never", "containers": [{"name": "app", "image": "localhost/$image:1",
   "args": ["-t", "stream", $(printf '"%s", ' "${names[@]}" | sed 's/, $//')],
   "env": [{"name": "RESOLV_K8S_DEBUG", "value": "1"}]}]}}
EOF
	python3 - "$work/$name.json" > "$work/$name.review" <<-'EOF'
		import json, sys
		pod = json.load(open(sys.argv[1]))
		print(json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
		    "uid": "u", "kind": {"group": "", "version": "v1", "kind": "Pod"},
		    "resource": {"group": "", "version": "v1", "resource": "pods"},
		    "namespace": "shop", "operation": "CREATE", "object": pod}}))
	EOF
	curl -sS --cacert "$work/certs/ca.crt" --resolve resolv-k8s-webhook.kube-system.svc:8443:127.0.0.1 \
		--data-binary "@$work/$name.review" https://resolv-k8s-webhook.kube-system.svc:8443/mutate > "$work/$name.response"
	python3 - "$work/$name.json" "$work/$name.response" > "$work/$name.patched.json" <<-'EOF'
		import base64, json, jsonpatch, sys
		pod = json.load(open(sys.argv[1]))
		r = json.load(open(sys.argv[2]))["response"]
		pod = jsonpatch.apply_patch(pod, json.loads(base64.b64decode(r["patch"])))
		# podman 4.3 holds annotation values to a label's 63 characters, which
		# Kubernetes does not: inject's status (a few hundred) stays out of the play.
		del pod["metadata"]["annotations"]["resolv-k8s.io/injected"]
		print(json.dumps(pod))
	EOF
	before=$(wc -l < "$cache/queries.log")
	"${P[@]}" kube play --tls-verify=false --network pods "$work/$name.patched.json" > "$work/$name.play" 2>&1
	for _ in $(seq 200); do
		[[ $("${P[@]}" inspect -f '{{.State.Status}}' "$name-app" 2>/dev/null) == exited ]] && break
		sleep 0.1
	done
	"${P[@]}" logs "$name-app" > "$work/$name.out" 2> "$work/$name.trace"
	sleep 0.3  # the cache writes a query's line with its reply
}
# A program's answers: musl names the canonical name on every result.
answers() { grep -v '^resolv-k8s' "$1" | sed 's/ canon=.*//'; }
# The queries the cache saw for the last pod.
queries() { tail -n +$((before + 1)) "$cache/queries.log"; }

# glibc's own walk first, through the marker path: the answers to expect.
play marker app-glibc '"resolv-k8s.io/autopath": "marker"'
check_match "marker pod: played" "Pod:" "$(< "$work/marker.play")"
expected=$(answers "$work/marker.out")
check_match "marker pod: Services here and in another namespace, an external name" \
	"web: inet stream 6 10.96.1.10 0.*kubernetes.default: inet stream 6 10.96.0.1 0.*www.example.com: inet stream 6 93.184.216.34 0" \
	"$expected" "$(< "$work/marker.trace")"
check "marker pod: no library" 0 "$(grep -c 'resolv-k8s:' "$work/marker.trace")"
check "marker pod: glibc's A and AAAA for each name, under the marker" \
	"$((2 * ${#names[@]})) $((2 * ${#names[@]}))" \
	"$(queries | wc -l) $(queries | grep -c 'search\.shop\.cluster\.local\.ap\.k8s\.io')" "$(queries)"

play glibc app-glibc ''
check "glibc pod: glibc's answers" "$expected" "$(answers "$work/glibc.out")" "$(< "$work/glibc.trace")"
check "glibc pod: the library answered, by autopath" 3 "$(grep -c 'answered by autopath' "$work/glibc.trace")" \
	"$(< "$work/glibc.trace")"
check "glibc pod: one query per lookup once support is shown" $((${#names[@]} + 1)) "$(queries | wc -l)" \
	"$(queries)"

play musl app-musl ''
check "musl pod: the same addresses (musl's order)" "$(sort <<<"$expected")" "$(answers "$work/musl.out" | sort)" \
	"$(< "$work/musl.trace")"
check "musl pod: the musl library answered, by autopath" 3 "$(grep -c 'answered by autopath' "$work/musl.trace")" \
	"$(< "$work/musl.trace")"
check "musl pod: one query per lookup once support is shown" $((${#names[@]} + 1)) "$(queries | wc -l)" "$(queries)"
summary
