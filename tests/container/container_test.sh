#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# container_test.sh BUILD_DIR: container/'s manifests and `resolv-k8s inject`
# against the Kubernetes API's schemas (validate.mjs with
# BUILD_DIR/node_modules): every manifest; each kustomization as `kubectl
# kustomize` renders it (without a warning), what the overlay changes, and
# the node cache's rendered configurations run by the server in a sandbox
# with the DaemonSet's settings; the quick start's overlays for a cluster
# outside kubeadm's Service range; inject's output for
# inputs/: valid, the fields it adds, a second run byte-identical, other
# objects byte for byte, bad input refused. Needs root for the sandbox,
# whose packets stay in it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/tests/lib/assert.sh"
build=$(cd "${1:?usage: container_test.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/lib.sh"
cd "$root" || exit 1
inputs=tests/container/inputs
version=$(mk/version.sh)

# inject with the init image from a registry (--image is needed), or bare.
image=registry.example.com/dns/libresolv-k8s-init:$version
inject() { "$build/bin/resolv-k8s" inject --image "$image" "$@"; }
inject_bare() { "$build/bin/resolv-k8s" inject "$@"; }

# The checker itself: a wrong type, and a field no schema has.
cat > "$work/faulty.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: typed}
spec:
  containers: [{name: app, image: app:1, env: [{name: MODE, value: on}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: misspelt}
spec:
  containers: [{name: app, image: app:1, readinessProbe: {httpGet: {hostt: x, port: 80}}}]
EOF
out=$(models check "$work/faulty.yaml")
check "validator: a bare on is a bool, a misspelt field is unknown; exit 1" "1 $work/faulty.yaml: object 1 (Pod/typed): data/spec/containers/0/env/0/value must be string
$work/faulty.yaml: object 2 (Pod/misspelt): unknown field spec.containers[0].readinessProbe.httpGet.hostt
$work/faulty.yaml: 0 valid" "$? $out"

# Every manifest on its own; overlays hold patches, checked rendered.
while read -r manifest; do
	check_match "$manifest: valid" "^$manifest: [1-9][0-9]* valid" "$(models check "$manifest")"
done < <(find container -name '*.yaml' ! -path '*/overlays/*' ! -path 'container/chart/*' ! -name 'kustom*.yaml' \
	! -name config.yaml | sort)

# Rendered, each with kubectl's own kustomize (BUILD_DIR/bin/kubectl, 1.31:
# mk/container.mk), which has nothing to warn of.
for dir in base overlays/example overlays/from-nodelocaldns overlays/upstream-tls; do
	out=$work/$(basename "$dir").yaml
	"$build/bin/kubectl" kustomize "container/node-cache/$dir" > "$out" 2> "$work/err"
	check "kustomize $dir: renders, no warning" "0" "$?$(cat "$work/err")"
	check "kustomize $dir: 6 objects, valid" "$out: 6 valid" "$(models check "$out")"
	check "kustomize $dir: in kube-system" '"kube-system"' "$(field "$out" metadata.namespace | sort -u)"
	field "$out" 'data[config.yaml]' ConfigMap | unjson > "$work/$(basename "$dir")-config.yaml"
	check "kustomize $dir: the cache forwards the cluster's zones to CLUSTER_DNS over TCP" \
		'{"protocolStrategy":"TCP","upstreams":["${CLUSTER_DNS}"]}' \
		"$(field "$work/$(basename "$dir")-config.yaml" 'servers[name=cluster].forwardPlugin')"
	check "kustomize $dir: CLUSTER_DNS is resolv-k8s-upstream's address as kubelet gives it; the Service's own is the cluster's to pick" \
		'CLUSTER_DNS=$(RESOLV_K8S_UPSTREAM_SERVICE_HOST) 0' \
		"$(env_of "$out" | grep ^CLUSTER_DNS=) $(grep -c clusterIP "$out")"
	check "kustomize $dir: the DaemonSet mounts the generated ConfigMap" "$(field "$out" metadata.name ConfigMap)" \
		"$(field "$out" "$pod.volumes[name=config].configMap.name" DaemonSet)"
done

base=$work/base.yaml
while read -r path want; do
	check "base: DaemonSet $path" "$want" "$(field "$base" "$path" DaemonSet)"
done <<EOF
$pod.containers[0].image "resolv-k8s-node:$version"
$pod.containers[0].args ["--config","/etc/resolv-k8s/config.yaml"]
$pod.hostNetwork true
$pod.dnsPolicy "Default"
$pod.priorityClassName "system-node-critical"
$pod.nodeSelector {"kubernetes.io/os":"linux"}
$pod.tolerations [{"key":"CriticalAddonsOnly","operator":"Exists"},{"effect":"NoExecute","operator":"Exists"},{"effect":"NoSchedule","operator":"Exists"}]
$pod.containers[0].resources {"limits":{"memory":"128Mi"},"requests":{"cpu":"25m","memory":"32Mi"}}
$pod.containers[0].securityContext {"allowPrivilegeEscalation":false,"capabilities":{"add":["NET_ADMIN","NET_BIND_SERVICE"],"drop":["ALL"]},"readOnlyRootFilesystem":true,"seccompProfile":{"type":"RuntimeDefault"}}
spec.updateStrategy {"rollingUpdate":{"maxUnavailable":"10%"},"type":"RollingUpdate"}
spec.template.metadata.annotations {"prometheus.io/port":"9254","prometheus.io/scrape":"true"}
EOF
check "base: the settings" 'CLUSTER_DNS=$(RESOLV_K8S_UPSTREAM_SERVICE_HOST)
CLUSTER_DOMAIN=cluster.local
KEEP_LINK_LOCAL=true
KUBE_DNS_ADDRESS=
LOCAL_ADDRESS=169.254.53.10
POD_NAMESPACE=kube-system
STUB_DOMAINS={}' "$(env_of "$base")"
check "base: resolv-k8s-upstream selects kube-dns's pods, UDP and TCP" \
	'"resolv-k8s-upstream" {"k8s-app":"kube-dns"} ["UDP","TCP"]' \
	"$(field "$base" metadata.name Service) $(field "$base" spec.selector Service) $(field "$base" 'spec.ports' Service | python3 -c 'import json, sys; print(json.dumps([p["protocol"] for p in json.load(sys.stdin)], separators=(",", ":")))')"
# Nothing of NodeLocal DNSCache's: its address, interface, ports, Service.
check "base: none of NodeLocal DNSCache's names, so both run on one node" \
	'["${LOCAL_ADDRESS}","${KUBE_DNS_ADDRESS}"] "127.0.0.1:9255" "0.0.0.0:9254" "resolv-k8s"' \
	"$(for key in listen health metrics nodeSetup.interface; do field "$work/base-config.yaml" "$key"; done | xargs -d '\n')"
check "base: the probes on the health port" '9255 9255' \
	"$(field "$base" "$pod.containers[0].livenessProbe.httpGet.port" DaemonSet) $(field "$base" "$pod.containers[0].readinessProbe.httpGet.port" DaemonSet)"
check "from-nodelocaldns: NodeLocal's address, nothing else changed" "$(env_of "$base" | sed 's/169\.254\.53\.10/169.254.20.10/')" \
	"$(env_of "$work/from-nodelocaldns.yaml")"
check "from-nodelocaldns: no port 53 declared (NodeLocal's pods declare it on the node), the metrics port kept" \
	'[{"containerPort":9254,"name":"metrics","protocol":"TCP"}]' \
	"$(field "$work/from-nodelocaldns.yaml" "$pod.containers[0].ports" DaemonSet)"
check "from-nodelocaldns: ... the configuration is the base's" "$(cat "$work/base-config.yaml")" \
	"$(cat "$work/from-nodelocaldns-config.yaml")"

# DNS over TLS to the upstreams: the base's configuration but
# upstreamResolvers, whose caBundle is the ConfigMap upstream-ca mounted
# read-only.
tls=$work/upstream-tls.yaml
check "upstream-tls: the configuration is the base's but upstreamResolvers" "True" \
	"$(python3 -c 'import sys, yaml
a, b = (yaml.safe_load(open(f)) for f in sys.argv[1:])
a.pop("upstreamResolvers"), b.pop("upstreamResolvers")
print(a == b or (a, b))' "$work/base-config.yaml" "$work/upstream-tls-config.yaml")"
check "upstream-tls: upstreamResolvers over TLS, the bundle in the ConfigMap upstream-ca's read-only volume" \
	'"TLS" "/etc/resolv-k8s-ca/upstream-ca/ca-bundle.crt" true "upstream-ca"' \
	"$(field "$work/upstream-tls-config.yaml" upstreamResolvers.transportConfig.transport) $(field "$work/upstream-tls-config.yaml" upstreamResolvers.transportConfig.tls.caBundle) $(
	   field "$tls" "$pod.containers[0].volumeMounts[mountPath=/etc/resolv-k8s-ca/upstream-ca].readOnly" DaemonSet) $(
	   field "$tls" "$pod.volumes[name=upstream-ca].configMap.name" DaemonSet)"
check "upstream-tls: the base's volumes kept" '"/etc/resolv-k8s" "/run/resolv-k8s"' \
	"$(field "$tls" "$pod.containers[0].volumeMounts[name=config].mountPath" DaemonSet) $(field "$tls" "$pod.containers[0].volumeMounts[name=node-lock].mountPath" DaemonSet)"

example=$work/example.yaml
check "overlay: the image from the registry" '"registry.example.com/dns/resolv-k8s-node:0.2.0"' \
	"$(field "$example" "$pod.containers[0].image" DaemonSet)"
check "overlay: nodeSelector added to" '{"kubernetes.io/os":"linux","node-role.example.com/dns-cache":"true"}' \
	"$(field "$example" "$pod.nodeSelector" DaemonSet)"
check "overlay: tolerations replaced" \
	'[{"key":"CriticalAddonsOnly","operator":"Exists"},{"effect":"NoSchedule","key":"node-role.kubernetes.io/infra","operator":"Exists"}]' \
	"$(field "$example" "$pod.tolerations" DaemonSet)"
check "overlay: its settings, the base's for the rest" \
	"$(env_of "$base" | sed 's/^KUBE_DNS_ADDRESS=$/KUBE_DNS_ADDRESS=10.32.0.10/; s/^STUB_DOMAINS=.*/STUB_DOMAINS={"corp.example": ["10.32.8.53", "10.32.9.53"]}/')" \
	"$(env_of "$example")"

# The admission webhook, rendered: its base and the cert-manager overlay.
for dir in base overlays/cert-manager; do
	out=$work/webhook-$(basename "$dir").yaml
	"$build/bin/kubectl" kustomize "container/webhook/$dir" > "$out" 2> "$work/err"
	check "kustomize webhook $dir: renders, no warning" "0" "$?$(cat "$work/err")"
done
check "kustomize webhook base: 10 objects, valid" "$work/webhook-base.yaml: 10 valid" \
	"$(models check "$work/webhook-base.yaml")"
hook=webhooks[0]
while read -r path want; do
	check "webhook base: $path" "$want" "$(field "$work/webhook-base.yaml" "$path" MutatingWebhookConfiguration)"
done <<EOF
$hook.failurePolicy "Ignore"
$hook.timeoutSeconds 5
$hook.sideEffects "None"
$hook.reinvocationPolicy "IfNeeded"
$hook.namespaceSelector.matchLabels {"resolv-k8s.io/inject":"enabled"}
$hook.clientConfig.service {"name":"resolv-k8s-webhook","namespace":"kube-system","path":"/mutate","port":443}
$hook.namespaceSelector.matchExpressions [{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["kube-system"]}]
EOF
check "webhook base: the image of this version, two replicas" "\"resolv-k8s-webhook:$version\" 2" \
	"$(field "$work/webhook-base.yaml" "$pod.containers[0].image" Deployment) $(field "$work/webhook-base.yaml" spec.replicas Deployment)"
check "webhook base: its settings: its own certificate, the init image named, no nameservers, the node's search domains of its own pod" \
	"'webhook' '--tls-secret' 'resolv-k8s-webhook-tls' '--listen' ':8443' '--image' 'libresolv-k8s-init:$version' '--nameserver' '' '--host-search' 'auto' '--cluster-domain' 'cluster.local'" \
	"$(webhook_args "$work/webhook-base.yaml")"
check "webhook base: in kube-system, its token mounted, its empty Opaque Secret, its roles on that Secret (no create) and configuration alone" \
	'"kube-system" true "Opaque" [{"apiGroups":[""],"resourceNames":["resolv-k8s-webhook-tls"],"resources":["secrets"],"verbs":["get","update"]}] [{"apiGroups":["admissionregistration.k8s.io"],"resourceNames":["resolv-k8s"],"resources":["mutatingwebhookconfigurations"],"verbs":["get","patch"]}]' \
	"$(field "$work/webhook-base.yaml" metadata.namespace Deployment) $(field "$work/webhook-base.yaml" "$pod.automountServiceAccountToken" Deployment) $(field "$work/webhook-base.yaml" type Secret) $(field "$work/webhook-base.yaml" rules Role) $(field "$work/webhook-base.yaml" rules ClusterRole)"
check "webhook cert-manager: the Secret mounted (cert-manager's: none of the base's), no token, no role" \
	"'webhook' '--cert' '/tls/tls.crt' '--key' '/tls/tls.key' '--listen' ':8443' '--image' 'libresolv-k8s-init:$version' '--nameserver' '' '--host-search' 'auto' '--cluster-domain' 'cluster.local' false 0" \
	"$(webhook_args "$work/webhook-cert-manager.yaml") $(field "$work/webhook-cert-manager.yaml" "$pod.automountServiceAccountToken" Deployment) $(grep -c '^kind: \(.*Role\|Secret\)$' "$work/webhook-cert-manager.yaml")"
check "webhook cert-manager: a CA chain, the serving Certificate issued by the CA's Issuer" \
	'{"selfSigned":{}} true {"kind":"Issuer","name":"resolv-k8s-webhook-selfsigned"} {"ca":{"secretName":"resolv-k8s-webhook-ca"}} {"kind":"Issuer","name":"resolv-k8s-webhook-ca"}' \
	"$(field "$work/webhook-cert-manager.yaml" spec Issuer resolv-k8s-webhook-selfsigned) $(field "$work/webhook-cert-manager.yaml" spec.isCA Certificate resolv-k8s-webhook-ca) $(field "$work/webhook-cert-manager.yaml" spec.issuerRef Certificate resolv-k8s-webhook-ca) $(field "$work/webhook-cert-manager.yaml" spec Issuer resolv-k8s-webhook-ca) $(field "$work/webhook-cert-manager.yaml" spec.issuerRef Certificate resolv-k8s-webhook)"
check "webhook cert-manager: the CA injected from its serving Certificate" '"kube-system/resolv-k8s-webhook"' \
	"$(field "$work/webhook-cert-manager.yaml" 'metadata.annotations[cert-manager.io/inject-ca-from]' MutatingWebhookConfiguration)"
check "webhook cert-manager: 5 valid, the Issuers and Certificates of cert-manager's API" \
	"$work/webhook-cert-manager.yaml: 5 valid, 4 of other APIs" "$(models check "$work/webhook-cert-manager.yaml")"

# The quick start's overlays (container/overlays.sh), rendered: every image,
# and the init image the webhook writes (its INIT_IMAGE), from the registry
# given, at the tag given; with CERT_MANAGER=1 the webhook's cert-manager
# overlay, and with KUBE_DNS the pods' nameservers; the settings each in
# its place. KUBE_DNS is outside kubeadm's 10.96.0.0/12, as on EKS, GKE or
# AKS: nothing of kubeadm's range may be left in them.
quick_start_images() {
	python3 -c 'import sys, yaml
for doc in yaml.safe_load_all(open(sys.argv[1])):
    spec = (doc or {}).get("spec", {}).get("template", {}).get("spec", {})
    for c in spec.get("initContainers", []) + spec.get("containers", []):
        print(c["image"])
        print("\n".join("--image " + e["value"] for e in c.get("env", []) if e["name"] == "INIT_IMAGE"))' "$1" | sed '/^$/d' | sort
}
for cm in 0 1; do
	kube_dns=
	((cm)) && kube_dns=172.20.0.10
	KUBE_DNS=$kube_dns CERT_MANAGER=$cm "$root/container/overlays.sh" "$work/deploy$cm" registry.example.com:5000/dns 7.1 > /dev/null
	for dir in node-cache webhook; do
		out=$work/deploy$cm-$dir.yaml
		"$build/bin/kubectl" kustomize "$work/deploy$cm/$dir" > "$out" 2> "$work/err"
		check "quick start (CERT_MANAGER=$cm) $dir: renders, no warning" "0" "$?$(cat "$work/err")"
		check_match "quick start (CERT_MANAGER=$cm) $dir: valid" "^$out: [1-9][0-9]* valid" "$(models check "$out")"
	done
	check "quick start (CERT_MANAGER=$cm): every image and the webhook's --image from the registry, at the tag" \
		"--image registry.example.com:5000/dns/libresolv-k8s-init:7.1
registry.example.com:5000/dns/resolv-k8s-node:7.1
registry.example.com:5000/dns/resolv-k8s-webhook:7.1" \
		"$(cat "$work/deploy$cm-node-cache.yaml" <(echo ---) "$work/deploy$cm-webhook.yaml" > "$work/deploy$cm.yaml"
		   quick_start_images "$work/deploy$cm.yaml")"
done
check "quick start, KUBE_DNS=172.20.0.10: nothing of kubeadm's 10.96.0.0/12 in the overlays" "" \
	"$(grep -rn '10\.96\.' "$work/deploy1" "$work/deploy1.yaml")"
check "quick start: with KUBE_DNS the webhook writes the cache first, kube-dns second; without, no nameserver" \
	"'--nameserver' '' '--nameserver' '169.254.53.10,172.20.0.10'" \
	"$(for cm in 0 1; do webhook_args "$work/deploy$cm-webhook.yaml" | grep -o "'--nameserver' '[^']*'"; done | xargs -d '\n')"
check "quick start: the cert-manager overlay's Certificates (the CA's, the serving one) with CERT_MANAGER=1 alone" "0 2" \
	"$(grep -c '^kind: Certificate$' "$work/deploy0-webhook.yaml") $(grep -c '^kind: Certificate$' "$work/deploy1-webhook.yaml")"
KUBE_DNS=172.20.0.10 CACHE_ON_KUBE_DNS=1 NODE_SEARCH=ec2.internal,compute.internal STUB_DOMAINS='{"corp.example": ["172.20.8.53"]}' \
	CLUSTER_DNS=172.20.0.11 CLUSTER_DOMAIN=k8s.example "$root/container/overlays.sh" "$work/deploy2" registry.example.com/dns > /dev/null
"$build/bin/kubectl" kustomize "$work/deploy2/node-cache" > "$work/deploy2-node-cache.yaml" 2> "$work/err"
"$build/bin/kubectl" kustomize "$work/deploy2/webhook" > "$work/deploy2-webhook.yaml" 2>> "$work/err"
check "quick start, every setting: the cache's, each in its place" \
	'CLUSTER_DNS=172.20.0.11
CLUSTER_DOMAIN=k8s.example
KEEP_LINK_LOCAL=true
KUBE_DNS_ADDRESS=172.20.0.10
LOCAL_ADDRESS=169.254.53.10
POD_NAMESPACE=kube-system
STUB_DOMAINS={"corp.example": ["172.20.8.53"]}' "$(env_of "$work/deploy2-node-cache.yaml")$(cat "$work/err")"
check "quick start, every setting: the webhook's (the cache on kube-dns's address: no nameserver)" \
	"'--image' 'registry.example.com/dns/libresolv-k8s-init:$version' '--nameserver' '' '--host-search' 'ec2.internal,compute.internal' '--cluster-domain' 'k8s.example'" \
	"$(webhook_args "$work/deploy2-webhook.yaml" | grep -o "'--image'.*")"
check "quick start: CACHE_ON_KUBE_DNS without KUBE_DNS: refused" 2 \
	"$(CACHE_ON_KUBE_DNS=1 "$root/container/overlays.sh" "$work/deploy3" r > /dev/null 2>&1; echo $?)"

# The base's configuration as the node runs it (lib.sh's serve); then the
# example overlay's: its kube-dns address answers too.
check "base: the server runs its config with its settings; the probes, DNS and metrics ports answer" "200
200
93.184.216.34
counted" "$(serve base 169.254.53.10)" "$(cat "$work/base.err")"
check "overlay: the server runs its config with its settings; kube-dns's address answers" "200
200
93.184.216.34
counted" "$(serve example 10.32.0.10 10.32.8.53 10.32.9.53)" "$(cat "$work/example.err")"
check_match "overlay: ... listening on the link-local address and kube-dns's, with the stub zone" \
	"3 forwarders.*listening on 169.254.53.10:53, 10.32.0.10:53" "$(cat "$work/example.err")"

# Monitoring: every metric the dashboard and the rules name is one the
# server or the webhook exports (their families, histograms' _bucket, _sum
# and _count).
"$root/container/webhook/certs.sh" "$work/certs" > /dev/null
# shellcheck disable=SC2016 # expanded in the sandbox
"$root/tests/pod/sandbox.sh" --resolv "$work/resolv.conf" -- bash -c '
	"$1" webhook --cert "$2/tls.crt" --key "$2/tls.key" --listen 127.0.0.1:8443 --image init:1 2> /dev/null &
	for _ in $(seq 600); do curl -sk https://127.0.0.1:8443/metrics > "$3" && break; sleep 0.05; done' - \
	"$build/bin/resolv-k8s" "$work/certs" "$work/webhook.metrics"
exported=$(sed -n 's/^# TYPE \(resolv_k8s_[a-z_]*\) .*/\1/p' "$work/base.err.metrics" "$work/webhook.metrics" | sort -u)
named=$(grep -oh 'resolv_k8s_[a-z_]*' container/chart/monitoring/* | sed -E 's/_(bucket|sum|count)$//' | sort -u)
check "monitoring: the dashboard and rules name only exported metrics" "" \
	"$(comm -23 <(echo "$named") <(echo "$exported"))" "exported: $(echo $exported)"
check_match "monitoring: they name the families operators watch" \
	"queries_total.*request_duration_seconds.*webhook_errors_total.*webhook_requests_total" "$(echo $named)"
check "monitoring: the dashboard is JSON with its panels" 12 \
	"$(python3 -c 'import json; print(len(json.load(open("container/chart/monitoring/dashboard.json"))["panels"]))')"
check "monitoring: a PodMonitor and a PrometheusRule of seven alerts, for the DaemonSet's pods and port" \
	"PodMonitor resolv-k8s-node metrics PrometheusRule 7" \
	"$(python3 -c 'import yaml
m = yaml.safe_load(open("container/chart/monitoring/podmonitor.yaml")); r = yaml.safe_load(open("container/chart/monitoring/prometheusrule.yaml"))
print(m["kind"], m["spec"]["selector"]["matchLabels"]["k8s-app"], m["spec"]["podMetricsEndpoints"][0]["port"], r["kind"], len(r["spec"]["groups"][0]["rules"]))')"
check "monitoring: the webhook's PodMonitor (HTTPS) and eight alerts, for its Deployment's pods and port" \
	"PodMonitor resolv-k8s-webhook https https PrometheusRule 8 resolv-k8s-webhook https" \
	"$(python3 -c 'import yaml
m = yaml.safe_load(open("container/chart/monitoring/webhook-podmonitor.yaml")); r = yaml.safe_load(open("container/chart/monitoring/webhook-prometheusrule.yaml"))
d = yaml.safe_load(open("container/webhook/base/deployment.yaml"))
e = m["spec"]["podMetricsEndpoints"][0]
print(m["kind"], m["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"], e["port"], e["scheme"], r["kind"], len(r["spec"]["groups"][0]["rules"]),
      d["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/name"], d["spec"]["template"]["spec"]["containers"][0]["ports"][0]["name"])')"
check "monitoring: no namespace of their own (applied in the cache's and the webhook's, whichever they are)" "absent absent absent absent" \
	"$(python3 -c 'import sys, yaml; print(" ".join(yaml.safe_load(open(f))["metadata"].get("namespace", "absent") for f in sys.argv[1:]))' \
		container/chart/monitoring/{podmonitor,prometheusrule,webhook-podmonitor,webhook-prometheusrule}.yaml)"
check "monitoring: each alert names only labels its series carry (its aggregation's, or its targets' with the PodMonitors' node)" "" \
	"$(python3 - container/chart/monitoring <<-'EOF'
		import re, sys, yaml
		d = sys.argv[1]
		for monitor, rules in (("podmonitor", "prometheusrule"), ("webhook-podmonitor", "webhook-prometheusrule")):
		    m = yaml.safe_load(open(f"{d}/{monitor}.yaml"))["spec"]["podMetricsEndpoints"][0]
		    target = {"job", "instance", "namespace", "pod", "container", "endpoint"} | {r["targetLabel"] for r in m.get("relabelings", [])}
		    for rule in yaml.safe_load(open(f"{d}/{rules}.yaml"))["spec"]["groups"][0]["rules"]:
		        by = re.findall(r"\bby \(([^)]*)\)", rule["expr"])
		        carried = set(re.split(r",\s*", by[0])) if by else set() if re.match(r"\s*sum\(", rule["expr"]) else target
		        for label in set(re.findall(r"\$labels\.(\w+)", str(rule["annotations"]))) - carried:
		            print(rule["alert"], label)
	EOF
	)"

# inject: every input valid and stable, with the defaults and with the
# node-local cache as nameserver.
declare -A flags=([musl]="--libc musl")
names=(pod deployment statefulset daemonset replicaset job cronjob multi injected musl)
outputs=() stable=
for name in "${names[@]}"; do
	# shellcheck disable=SC2086 # flags are words
	for ns in "" 169.254.20.10; do
		out=$work/$name${ns:+-ns}.out.yaml
		inject ${flags[$name]:-} ${ns:+--nameserver $ns --namespace default} "$inputs/$name.yaml" > "$out" || stable+="$name: exit $? "
		inject ${flags[$name]:-} ${ns:+--nameserver $ns --namespace default} "$out" | cmp -s - "$out" || stable+="$name${ns:+ $ns}: changed "
		outputs+=("$out")
	done
done
check "inject: each output read again gives the same bytes" "" "$stable"
check_match -v "inject: each output valid" "object [0-9]|: 0 valid" "$(models check "${outputs[@]}")"
# A key YAML reads as 600 tabs is written back escaped, 1200 characters:
# past YAML's 1024-character implicit key, so explicit ("? key"), or the
# output would not read back.
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n    ? "%s"\n    : v\nspec:\n  containers:\n  - name: a\n' \
	"$(printf '\\t%.0s' {1..600})" > "$work/longkey.yaml"
inject "$work/longkey.yaml" > "$work/longkey.out.yaml"
check "inject: a key escaped past 1024 characters read again gives the same bytes" "" \
	"$(inject "$work/longkey.out.yaml" 2>&1 | cmp - "$work/longkey.out.yaml" 2>&1)"

out=$work/deployment.out.yaml
init_names() { field "$1" "$pod.initContainers" | python3 -c 'import json, sys; print(json.dumps([c["name"] for c in json.load(sys.stdin)], separators=(",", ":")))'; }
check "deployment: our init container first, then its own" '["resolv-k8s-init","migrate"]' "$(init_names "$out")"
check "deployment: the init container" \
	"{\"image\":\"$image\",\"name\":\"resolv-k8s-init\",\"resources\":{\"limits\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"},\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}},\"securityContext\":{\"allowPrivilegeEscalation\":false,\"capabilities\":{\"drop\":[\"ALL\"]},\"readOnlyRootFilesystem\":true,\"runAsGroup\":65534,\"runAsNonRoot\":true,\"runAsUser\":65534,\"seccompProfile\":{\"type\":\"RuntimeDefault\"}},\"volumeMounts\":[{\"mountPath\":\"/target\",\"name\":\"resolv-k8s\"}]}" \
	"$(field "$out" "$pod.initContainers[0]")"
check "deployment: the volume" '{"emptyDir":{},"name":"resolv-k8s"}' "$(field "$out" "$pod.volumes[name=resolv-k8s]")"
for i in 0 1; do
	check "deployment: container $i mounts it read-only" '{"mountPath":"/opt/resolv-k8s","name":"resolv-k8s","readOnly":true}' \
		"$(field "$out" "$pod.containers[$i].volumeMounts[name=resolv-k8s]")"
done
check "deployment: LD_PRELOAD ours (each libc's own build), then the app's own; a new one in the other container" \
	'"/opt/resolv-k8s/$LIB/libresolv-k8s.so:/usr/lib/x86_64-linux-gnu/libjemalloc.so.2" "/opt/resolv-k8s/$LIB/libresolv-k8s.so"' \
	"$(field "$out" "$pod.containers[0].env[name=LD_PRELOAD].value") $(field "$out" "$pod.containers[1].env[name=LD_PRELOAD].value")"
check "deployment: strings stay strings, blocks blocks" '"5" "off" "" "ulimit -n 65536\nexec /app/web --port 8080\n"' \
	"$(field "$out" "$pod.containers[0].env[name=WORKERS].value") $(field "$out" "$pod.containers[0].env[name=DEBUG].value") $(field "$out" "$pod.containers[1].env[name=EMPTY].value") $(field "$out" "$pod.containers[0].command[2]")"
check "deployment: the autopath option; kubelet's DNS kept" '{"options":[{"name":"k8s-autopath","value":"on"}]} absent' \
	"$(field "$out" "$pod.dnsConfig") $(field "$out" "$pod.dnsPolicy")"

# --nameserver: the DNS settings kubelet would write, per namespace.
dns_of() { echo "$(field "$1" "$2.dnsPolicy") $(field "$1" "$2.dnsConfig")"; }
# kubelet_dns NS [SEARCHES NAMESERVERS DOMAIN OPTIONS]: dnsPolicy and
# dnsConfig as JSON; the optional parts are JSON after ours (OPTIONS: all).
kubelet_dns() {
	local domain=${4:-cluster.local} options=${5:-'{"name":"ndots","value":"5"},{"name":"timeout","value":"1"},{"name":"attempts","value":"2"},{"name":"k8s-autopath","value":"on"}'}
	echo "\"None\" {\"nameservers\":[\"169.254.20.10\"${3:-}],\"options\":[$options],\"searches\":[\"$1.svc.$domain\",\"svc.$domain\",\"$domain\"${2:-}]}"
}
check "pod --nameserver: kubelet's DNS for its namespace, the cache its nameserver" "$(kubelet_dns shop)" \
	"$(dns_of "$work/pod-ns.out.yaml" spec)"
check "deployment --nameserver --namespace default: that namespace where the object names none" \
	"$(kubelet_dns default)" "$(dns_of "$work/deployment-ns.out.yaml" "$pod")"
check "deployment --nameserver without a namespace: an error, nothing written" \
	"1 0 resolv-k8s: inject: $inputs/deployment.yaml:21: document 1: $pod: no namespace: the object has no metadata.namespace and --namespace is not given" \
	"$(out=$(inject --nameserver 169.254.20.10 "$inputs/deployment.yaml" 2> "$work/err"); echo "$? ${#out} $(cat "$work/err")")"
inject --nameserver 169.254.20.10 --nameserver 10.96.0.10 --namespace default "$work/pod-ns.out.yaml" > "$work/again-ns.yaml"
check "pod again with other --nameserver: ours replaced in place, the pod's own kept" \
	"$(kubelet_dns shop '' ',"10.96.0.10"')" "$(dns_of "$work/again-ns.yaml" spec)"
inject --nameserver 169.254.20.10 --namespace ops --cluster-domain k8s.example. "$inputs/deployment.yaml" > "$work/ops.yaml"
check "deployment --nameserver --namespace --cluster-domain" "$(kubelet_dns ops '' '' k8s.example)" \
	"$(dns_of "$work/ops.yaml" "$pod")"
inject --nameserver 169.254.20.10 --nameserver 10.96.0.10 --namespace default "$inputs/deployment.yaml" > "$work/fallback.yaml"
check "deployment, two --nameserver: the cache, then kube-dns to fall back to" "$(kubelet_dns default '' ',"10.96.0.10"')" \
	"$(dns_of "$work/fallback.yaml" "$pod")"
check_match "four --nameserver: an error" "at most 3" \
	"$(inject --nameserver 1.1.1.1 --nameserver 1.1.1.2 --nameserver 1.1.1.3 --nameserver 1.1.1.4 - </dev/null 2>&1)"
check "statefulset --nameserver: its own nameserver and search after ours; its ndots and autopath off kept" \
	"$(kubelet_dns shop ',"corp.example"' ',"192.0.2.53"' '' '{"name":"timeout","value":"1"},{"name":"attempts","value":"2"},{"name":"ndots","value":"2"},{"name":"k8s-autopath","value":"off"}')" \
	"$(dns_of "$work/statefulset-ns.out.yaml" "$pod")"
check "daemonset --nameserver: ClusterFirstWithHostNet is cluster DNS too" "$(kubelet_dns monitoring)" \
	"$(dns_of "$work/daemonset-ns.out.yaml" "$pod")"
check "replicaset --nameserver: dnsPolicy Default kept, its resolv.conf as written" '"Default" absent' \
	"$(dns_of "$work/replicaset-ns.out.yaml" "$pod")"
check "job and cronjob --nameserver: their pods, namespace billing" "$(kubelet_dns billing) $(kubelet_dns billing)" \
	"$(dns_of "$work/job-ns.out.yaml" "$pod") $(dns_of "$work/cronjob-ns.out.yaml" spec.jobTemplate.spec.template.spec)"
check "cronjob: the init container in the job template" '"resolv-k8s-init"' \
	"$(field "$work/cronjob.out.yaml" spec.jobTemplate.spec.template.spec.initContainers[0].name)"
check "musl: the musl build first; the glibc one gone, the app's own kept" \
	'"/opt/resolv-k8s/musl/libresolv-k8s.so:/usr/lib/libmimalloc.so"' "$(field "$work/musl.out.yaml" "$pod.containers[0].env[name=LD_PRELOAD].value")"
inject "$inputs/musl.yaml" > "$work/musl-auto.yaml"
check "musl, no --libc: the path for every libc in place of the glibc build" \
	'"/opt/resolv-k8s/$LIB/libresolv-k8s.so:/usr/lib/libmimalloc.so"' \
	"$(field "$work/musl-auto.yaml" "$pod.containers[0].env[name=LD_PRELOAD].value")"
inject --libc glibc "$inputs/pod.yaml" > "$work/pod-glibc.yaml"
check "--libc glibc: the glibc build alone" '"/opt/resolv-k8s/glibc/libresolv-k8s.so"' \
	"$(field "$work/pod-glibc.yaml" spec.containers[0].env[name=LD_PRELOAD].value)"
again=$work/again.yaml
inject --image registry.example.com/libresolv-k8s-init:2 --libc musl "$work/deployment.out.yaml" > "$again"
check "again with another image and libc: ours updated, not added" \
	'"registry.example.com/libresolv-k8s-init:2" ["resolv-k8s-init","migrate"] "/opt/resolv-k8s/musl/libresolv-k8s.so:/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"' \
	"$(field "$again" "$pod.initContainers[0].image") $(init_names "$again") $(field "$again" "$pod.containers[0].env[name=LD_PRELOAD].value")"

# The status annotation: what was asked and added, small; a later run keeps
# what it is not given, and says on stderr what it changed.
check_match "the status annotation: small, what was asked and what was added" \
	'^"\{\\"added\\":\{\\"dnsPolicy\\":\\"\\",\\"library\\":true,\\"nameservers\\":\[\\"169.254.20.10\\"\]' \
	"$(field "$work/pod-ns.out.yaml" 'metadata.annotations[resolv-k8s.io/injected]')"
inject --nameserver 169.254.53.10,172.20.0.10 --host-search ec2.internal --host-search compute.internal \
	"$inputs/pod.yaml" > "$work/search.yaml"
check "--nameserver with --host-search: kubelet's list, the node's search domains after the cluster's" \
	'["shop.svc.cluster.local","svc.cluster.local","cluster.local","ec2.internal","compute.internal"]' \
	"$(field "$work/search.yaml" spec.dnsConfig.searches)"
"$build/bin/resolv-k8s" inject --image registry.example.com/dns/libresolv-k8s-init:9 "$work/search.yaml" > "$work/search2.yaml" 2> "$work/err"
check "again with --image alone: the nameservers and the node's search domains kept, the image changed, as stderr says" \
	"$(field "$work/search.yaml" spec.dnsConfig) \"registry.example.com/dns/libresolv-k8s-init:9\" resolv-k8s: inject: $work/search.yaml:9: document 1: spec: injected before ($version), now image $image -> registry.example.com/dns/libresolv-k8s-init:9" \
	"$(field "$work/search2.yaml" spec.dnsConfig) $(field "$work/search2.yaml" spec.initContainers[0].image) $(cat "$work/err")"
inject --nameserver '' "$work/search.yaml" > "$work/search3.yaml" 2> "$work/err"
check "again with --nameserver '': kubelet's DNS back, the rest kept" \
	'absent {"options":[{"name":"k8s-autopath","value":"on"}]} "/opt/resolv-k8s/$LIB/libresolv-k8s.so"' \
	"$(field "$work/search3.yaml" spec.dnsPolicy) $(field "$work/search3.yaml" spec.dnsConfig) $(field "$work/search3.yaml" spec.containers[0].env[name=LD_PRELOAD].value)"
check "again as asked before: nothing written to stderr, the same bytes" "" \
	"$(inject "$work/search.yaml" 2>&1 | cmp - "$work/search.yaml" 2>&1)"
check "without --image: refused, the flag named" \
	"2 0 resolv-k8s: inject: --image is needed: the init image from your registry, such as registry.example.com/dns/libresolv-k8s-init:TAG (make push writes it) (resolv-k8s --help)" \
	"$(out=$(inject_bare "$inputs/pod.yaml" 2> "$work/err"); echo "$? ${#out} $(cat "$work/err")")"
check "without --image, --autopath marker needs none" 0 \
	"$(inject_bare --autopath marker --nameserver 169.254.20.10 "$inputs/pod.yaml" > /dev/null 2>&1; echo $?)"
check_match "--host-search auto: the webhook's alone" "^2 resolv-k8s: inject: --host-search auto is the webhook's" \
	"$(inject --nameserver 169.254.20.10 --host-search auto "$inputs/pod.yaml" 2> "$work/err" > /dev/null; echo "$? $(cat "$work/err")")"

# Byte for byte: what is not a workload, and what has it all already.
document() { awk -v n="$1" '/^---([ \t#]|$)/ { d++ } d == n' "$2"; }
for n in 0 1 3 4; do
	check "multi: document $n as it was" "$(document $n "$inputs/multi.yaml")" "$(document $n "$work/multi.out.yaml")"
done
check "multi: the Deployment changed" '"resolv-k8s-init"' "$(field "$work/multi.out.yaml" "$pod.initContainers[0].name" Deployment)"
check "injected: left as it was" "" "$(cmp "$inputs/injected.yaml" "$work/injected.out.yaml" 2>&1)"
check "container/app: deployment.injected.yaml is inject's output" "$(cat container/app/deployment.injected.yaml)" \
	"$(inject --nameserver 169.254.53.10 container/app/deployment.yaml)"

# --remove: the pod spec the first injection kept, back; a round trip gives
# every input as it was, in both modes.
same_objects() { python3 -c 'import sys, yaml; print(list(yaml.safe_load_all(open(sys.argv[1]))) == list(yaml.safe_load_all(open(sys.argv[2]))))' "$1" "$2"; }
# (musl.yaml preloads our glibc build by hand: --remove takes every entry of ours out.)
for name in "${names[@]/musl}"; do
	[[ -n $name ]] || continue
	for mode in option marker; do
		rt_flags=(--namespace ops --nameserver 169.254.20.10 --nameserver 10.96.0.10 --autopath "$mode")
		rm -f "$work/rt.back.yaml"
		inject "${rt_flags[@]}" "$inputs/$name.yaml" > "$work/rt.yaml" 2> "$work/rt.err" &&
			inject --remove "$work/rt.yaml" > "$work/rt.back.yaml" 2>> "$work/rt.err"
		check "--remove, $mode: $name as it was" True "$(same_objects "$inputs/$name.yaml" "$work/rt.back.yaml" 2>&1)" \
			"$(cat "$work/rt.err")"
	done
done
check_match "--remove: what inject did not change, left with a note" \
	"injected.yaml:[0-9]+: document 1: spec: no resolv-k8s.io/injected annotation, left as it is" \
	"$(inject --remove "$inputs/injected.yaml" 2>&1 > /dev/null)"

# What `kubectl get -o yaml` prints: a List, each item injected, valid.
printf '%s\n' 'apiVersion: v1' 'kind: List' 'items:' \
	'- {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: shop}, spec: {containers: [{name: c, image: i}]}}' \
	'- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {selector: {matchLabels: {a: b}},' \
	'   template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}}' \
	'- {apiVersion: v1, kind: ConfigMap, metadata: {name: m}}' > "$work/list.yaml"
inject "$work/list.yaml" > "$work/list.out.yaml"
check "List: the Pod and the Deployment in it injected, the ConfigMap not" \
	"$(printf '%s\n' '"resolv-k8s-init"' '"resolv-k8s-init"' absent)" \
	"$(python3 -c 'import json, sys, yaml
for o in yaml.safe_load(open(sys.argv[1]))["items"]:
    spec = o.get("spec", {}); pod = spec.get("template", {}).get("spec", spec)
    print(json.dumps(pod["initContainers"][0]["name"]) if "initContainers" in pod else "absent")' "$work/list.out.yaml")"
python3 -c 'import sys, yaml; yaml.safe_dump_all(yaml.safe_load(open(sys.argv[1]))["items"], open(sys.argv[2], "w"))' \
	"$work/list.out.yaml" "$work/list.items.yaml"
check "List: its items valid" "$work/list.items.yaml: 3 valid" "$(models check "$work/list.items.yaml")"
# What is no manifest: refused, nothing written.
check "a directory: refused, nothing written" "1 0 resolv-k8s: inject: $work: Is a directory" \
	"$(inject "$work" > "$work/dir.out" 2> "$work/dir.err"; echo "$? $(wc -c < "$work/dir.out") $(cat "$work/dir.err")")"
printf '%s\n' 'apiVersion: apps/v1' 'kind: Deployment' 'metadata:' '  name: {{ .Values.name }}' > "$work/chart.yaml"
check "a Helm template: refused, nothing written" \
	"1 0 resolv-k8s: inject: $work/chart.yaml:4: document 1: a map key that is not a scalar: an unrendered template ({{ ... }})? Render it first (helm template), then inject" \
	"$(inject "$work/chart.yaml" > "$work/chart.out" 2> "$work/chart.err"; echo "$? $(wc -c < "$work/chart.out") $(cat "$work/chart.err")")"
# The init container's resources: small, requests and limits alike, by flags.
inject --init-cpu 20m --init-memory 32Mi "$inputs/deployment.yaml" > "$work/resources.yaml"
check "--init-cpu, --init-memory: its requests and limits" \
	'{"limits":{"cpu":"20m","memory":"32Mi"},"requests":{"cpu":"20m","memory":"32Mi"}}' \
	"$(field "$work/resources.yaml" "$pod.initContainers[0].resources")"
check "--init-memory: a quantity" "2 resolv-k8s: inject: --init-memory '16X' is not a quantity such as 10m or 16Mi (resolv-k8s --help)" \
	"$(inject --init-memory 16X "$inputs/deployment.yaml" > /dev/null 2> "$work/q.err"; echo "$? $(cat "$work/q.err")")"

# --autopath marker: the DNS alone, the marker first; every input valid and
# stable, the namespace required, pods with their own DNS left with a note.
marker=(--autopath marker --nameserver 169.254.20.10 --nameserver 10.96.0.10 --host-search ec2.internal)
outputs=() stable=
for name in "${names[@]}"; do
	out=$work/$name-marker.out.yaml
	inject "${marker[@]}" --namespace ops "$inputs/$name.yaml" > "$out" 2> /dev/null || stable+="$name: exit $? "
	inject "${marker[@]}" --namespace ops "$out" 2> /dev/null | cmp -s - "$out" || stable+="$name: changed "
	outputs+=("$out")
done
check "inject --autopath marker: each output read again gives the same bytes" "" "$stable"
check_match -v "inject --autopath marker: each output valid" "object [0-9]|: 0 valid" "$(models check "${outputs[@]}")"
check "pod --autopath marker: the marker, kubelet's list, the node's domains; no library" \
	'"None" {"nameservers":["169.254.20.10","10.96.0.10"],"options":[{"name":"ndots","value":"5"},{"name":"timeout","value":"1"},{"name":"attempts","value":"2"}],"searches":["search.shop.cluster.local.ap.k8s.io","shop.svc.cluster.local","svc.cluster.local","cluster.local","ec2.internal"]} absent' \
	"$(dns_of "$work/pod-marker.out.yaml" spec) $(field "$work/pod-marker.out.yaml" spec.initContainers)"
check "deployment --autopath marker: --namespace where the object has none" '"search.ops.cluster.local.ap.k8s.io"' \
	"$(field "$work/deployment-marker.out.yaml" "$pod.dnsConfig.searches[0]")"
check_match "replicaset --autopath marker: dnsPolicy Default left, with a note" \
	"document 1: spec.template.spec: its own DNS \(dnsPolicy Default\), its DNS left as it is" \
	"$(inject "${marker[@]}" "$inputs/replicaset.yaml" 2>&1 > /dev/null)"
inject --autopath marker --nameserver 169.254.20.11 --nameserver 10.96.0.10 "$work/pod-marker.out.yaml" > "$work/marker-again.yaml"
check "--autopath marker again with another --nameserver: ours replaced in place, the node's search domains kept" \
	'["169.254.20.11","10.96.0.10"] ["search.shop.cluster.local.ap.k8s.io","shop.svc.cluster.local","svc.cluster.local","cluster.local","ec2.internal"]' \
	"$(field "$work/marker-again.yaml" spec.dnsConfig.nameservers) $(field "$work/marker-again.yaml" spec.dnsConfig.searches)"
inject "${marker[@]}" "$work/pod.out.yaml" > "$work/pod-switched.yaml" 2> "$work/err"
check "--autopath marker over the library: the library taken out, as stderr says" \
	"absent resolv-k8s: inject: $work/pod.out.yaml:9: document 1: spec: injected before ($version), now autopath option -> marker; image $image -> -; libc auto -> -; nameservers [] -> [169.254.20.10 10.96.0.10]; node search domains [] -> [ec2.internal]" \
	"$(field "$work/pod-switched.yaml" spec.initContainers) $(cat "$work/err")"
check "--autopath marker without a namespace: an error, nothing written" \
	"1 0 resolv-k8s: inject: $inputs/deployment.yaml:21: document 1: $pod: no namespace: the object has no metadata.namespace and --namespace is not given" \
	"$(out=$(inject "${marker[@]}" "$inputs/deployment.yaml" 2> "$work/err"); echo "$? ${#out} $(cat "$work/err")")"
many=()
for i in {1..28}; do many+=(--host-search "d$i.example"); done
check_match "--autopath marker past 32 search domains: Kubernetes' limit named" "33 domains, over Kubernetes' limit of 32" \
	"$(inject "${marker[@]}" "${many[@]}" "$inputs/pod.yaml" 2>&1 > /dev/null)"
check_match "--autopath marker without --nameserver: usage" "needs --nameserver" \
	"$(inject --autopath marker "$inputs/pod.yaml" 2>&1 > /dev/null)"

# Refusals: nothing on stdout, one line on stderr, exit 1 (2 for usage).
refused() {
	local out status
	out=$(inject "$@" 2> "$work/err")
	status=$?
	echo "$status ${#out} $(cat "$work/err")"
}
check "malformed: the file, the line, the document" \
	"1 0 resolv-k8s: inject: $inputs/malformed.yaml:12: document 2: end of map not found" "$(refused "$inputs/malformed.yaml")"
check "malformed on stdin" "1 0 resolv-k8s: inject: stdin:12: document 2: end of map not found" \
	"$(refused - < "$inputs/malformed.yaml")"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: a}\nspec:\n  containers:\n  - name: a\n  volumes:\n  - name: resolv-k8s\n    configMap: {name: c}\n' > "$work/vol.yaml"
check "a volume of the pod's own named resolv-k8s: refused, the fix named" \
	"1 0 resolv-k8s: inject: $work/vol.yaml:8: document 1: spec.volumes: a volume of the pod's own is named resolv-k8s, which inject's emptyDir needs: rename it" \
	"$(refused "$work/vol.yaml")"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: a}\nspec:\n  containers:\n  - name: a\n    volumeMounts:\n    - {name: tools, mountPath: /opt/resolv-k8s}\n' > "$work/mount.yaml"
check "a container mounting another volume at /opt/resolv-k8s: refused, the fix named" \
	"1 0 resolv-k8s: inject: $work/mount.yaml:8: document 1: spec.containers[0]: volume tools is mounted at /opt/resolv-k8s, where inject's library goes: mount it elsewhere" \
	"$(refused "$work/mount.yaml")"
# Left as they are, byte for byte, with a note: pods for Windows nodes, on
# the node's network with its DNS, and another API's workload.
printf 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: a}\nspec:\n  os: {name: windows}\n  containers:\n  - name: a\n' > "$work/windows.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: a}\nspec:\n  hostNetwork: true\n  containers:\n  - name: a\n' > "$work/hostnet.yaml"
printf 'apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n' > "$work/rollout.yaml"
for c in "windows:for Windows nodes, left as it is" "hostnet:on the node's network with the node's DNS (hostNetwork), left as it is" \
	"rollout:Rollout (argoproj.io/v1alpha1): not a kind inject knows, left as it is"; do
	inject --nameserver 169.254.20.10 "$work/${c%%:*}.yaml" > "$work/${c%%:*}.out" 2> "$work/err"
	check "${c%%:*}: the object as it was, and the note" "same ${c#*:}" \
		"$(cmp -s "$work/${c%%:*}.yaml" "$work/${c%%:*}.out" && echo same) $(sed -n 's/.*document 1: \(spec: \)\{0,1\}//p' "$work/err" | cut -d';' -f1)"
done
printf 'kind: ConfigMap\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: caf\xe9}\n' > "$work/latin1.yaml"
check "a document that is not UTF-8: refused, its line named" \
	"1 0 resolv-k8s: inject: $work/latin1.yaml:5: document 2: not UTF-8 text, which the Kubernetes API takes only" \
	"$(refused "$work/latin1.yaml")"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: a}\nspec:\n  dnsConfig: {}\n  containers: []\n  dnsConfig: {}\n' > "$work/twice.yaml"
check "a key given twice in one map: refused, as kubectl does" \
	"1 0 resolv-k8s: inject: $work/twice.yaml:7: document 1: 'dnsConfig' given twice in one map, which kubectl refuses" \
	"$(refused "$work/twice.yaml")"
printf 'kind: ConfigMap\n---\napiVersion: v1\nkind: Pod\nspec:\n  containers: 5\n' > "$work/shape.yaml"
check "a Pod of the wrong shape" "1 0 resolv-k8s: inject: $work/shape.yaml:6: document 2: spec.containers: not a list" \
	"$(refused "$work/shape.yaml")"
printf 'apiVersion: batch/v1\nkind: Job\nspec:\n  template: {}\n' > "$work/empty.yaml"
check "a Job without containers" "1 0 resolv-k8s: inject: $work/empty.yaml:4: document 1: spec.template.spec: no containers" \
	"$(refused "$work/empty.yaml")"
printf 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    env:\n    - name: LD_PRELOAD\n      valueFrom: {configMapKeyRef: {name: c, key: k}}\n' > "$work/from.yaml"
check_match "LD_PRELOAD from valueFrom" "^1 0 resolv-k8s: inject: $work/from.yaml:7: document 1: spec.containers\[0\]: LD_PRELOAD is set by valueFrom" \
	"$(refused "$work/from.yaml")"
printf 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    envFrom:\n    - secretRef: {name: s}\n' > "$work/envfrom.yaml"
check_match "LD_PRELOAD perhaps from an envFrom without a prefix" \
	"^1 0 resolv-k8s: inject: $work/envfrom.yaml:7: document 1: spec.containers\[0\]: LD_PRELOAD may be set by envFrom" \
	"$(refused "$work/envfrom.yaml")"
check "a file that is not there" "1 0 resolv-k8s: inject: $work/nosuch.yaml: No such file or directory" "$(refused "$work/nosuch.yaml")"
for bad in "" "--libc uclibc x" "--nameserver node x" "--bogus x" "a b" "--image"; do
	# shellcheck disable=SC2086 # each case is a list of words
	out=$(inject $bad 2> "$work/err")
	check "bad usage '$bad': exit 2, one line on stderr" "2 0 1" "$? ${#out} $(wc -l < "$work/err")"
done

summary
