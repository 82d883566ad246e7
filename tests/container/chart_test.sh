#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# chart_test.sh BUILD_DIR: the Helm chart (container/chart) with Helm 3
# (BUILD_DIR/bin/helm, mk/container.mk): `helm lint --strict`; `helm
# template` with a registry renders the cache and the webhook, every image
# under that registry, valid against the Kubernetes API's schemas
# (validate.mjs); its defaults render the fields of the kustomize bases
# that matter, the same; the values `make push` writes (overlays.sh) render
# the overlays' settings; the webhook's certificate each way (its own by
# default: two renders the same, its roles on its Secret and configuration
# alone; cert-manager's CA chain; given; a Secret of yours), the helm test's
# objects; the cache's knobs reach a config the real server runs,
# its probes and ports following it; the ServiceMonitors, alerts and
# dashboard behind their values; bad values refused with a message. Needs
# root for the sandboxes, whose packets stay in them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/tests/lib/assert.sh"
build=$(cd "${1:?usage: chart_test.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/lib.sh"
source "$root/tests/lib/dot.sh"
cd "$root" || exit 1
version=$(mk/version.sh)
chart=container/chart
# Helm's own files (its cache, repositories, plugins) in the work directory.
export HELM_CACHE_HOME=$work/helm HELM_CONFIG_HOME=$work/helm HELM_DATA_HOME=$work/helm
helm() { "$build/bin/helm" "$@"; }
# render NAME [ARGS]: work/NAME.yaml, `helm template` in kube-system; its stderr in work/NAME.err.
render() {
	local name=$1
	shift
	helm template resolv-k8s "$chart" --namespace kube-system "$@" > "$work/$name.yaml" 2> "$work/$name.err"
}
# object FILE KIND [NAME]: the first object of KIND (and NAME), in JSON.
object() {
	python3 -c 'import json, sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == sys.argv[2] and sys.argv[3:] in ([], [d["metadata"]["name"]]):
        print(json.dumps(d, sort_keys=True)); break' "$@"
}
# differ A B PATH...: the PATHs (dotted, \. a dot in a key, [N] an item)
# where the JSON objects A and B differ, "PATH: A's B's" each; nothing when
# alike.
differ() {
	python3 - "$@" <<-'EOF'
		import json, re, sys
		a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
		def at(value, path):
		    for step in re.findall(r"(?:\\\.|[^.\[\]])+|\[\d+\]", path):
		        if step[0] == "[":
		            value = value[int(step[1:-1])] if isinstance(value, list) and int(step[1:-1]) < len(value) else None
		        else:
		            value = value.get(step.replace("\\.", ".")) if isinstance(value, dict) else None
		    return value
		for path in sys.argv[3:]:
		    if at(a, path) != at(b, path):
		        print(path + ": " + json.dumps(at(a, path)) + " " + json.dumps(at(b, path)))
	EOF
}
images_of() {
	python3 -c 'import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    for c in ((d or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])):
        print(c["image"])
        print("\n".join("INIT_IMAGE " + e["value"] for e in c.get("env", []) if e["name"] == "INIT_IMAGE"))' "$1" | sed '/^$/d' | sort
}
kinds() { python3 -c 'import sys, yaml; print(" ".join(sorted(d["kind"] for d in yaml.safe_load_all(open(sys.argv[1])) if d)))' "$1"; }

check "Chart.yaml: appVersion is the library's version" "\"$version\"" "$(sed -n 's/^appVersion: //p' "$chart/Chart.yaml")"
lint=$(helm lint --strict "$chart" 2>&1)
check "helm lint --strict: defaults" "0" "$?" "$lint"
monitoring=(--set serviceMonitor.enabled=true --set prometheusRule.enabled=true --set dashboard.enabled=true)
lint=$(helm lint --strict "$chart" --set registry=registry.example.com:5000/dns "${monitoring[@]}" 2>&1)
check "helm lint --strict: a registry, the ServiceMonitors, alerts and dashboard" "0" "$?" "$lint"

# A registry set: the cache and the webhook, every image under it, valid.
render registry --set registry=registry.example.com:5000/dns/
check "template with a registry: renders, no warning" "0" "$?$(cat "$work/registry.err")"
check "template with a registry: the cache's objects and the webhook's (its roles, its helm test's objects)" \
	"ClusterRole ClusterRoleBinding ConfigMap DaemonSet Deployment MutatingWebhookConfiguration Namespace Pod PodDisruptionBudget Role Role Role RoleBinding RoleBinding RoleBinding Secret Service Service Service Service ServiceAccount ServiceAccount ServiceAccount" \
	"$(kinds "$work/registry.yaml")"
check "template with a registry: valid" "$work/registry.yaml: 23 valid" "$(models check "$work/registry.yaml")"
check "template with a registry: every image under it, the init image the webhook writes too" \
	"INIT_IMAGE registry.example.com:5000/dns/libresolv-k8s-init:$version
registry.example.com:5000/dns/resolv-k8s-node:$version
registry.example.com:5000/dns/resolv-k8s-webhook:$version" "$(images_of "$work/registry.yaml")"
render digests --set registry=r.example/dns,images.node.digest=sha256:"$(printf '1%.0s' {1..64})" \
	--set images.init.tag=7.1-abc,images.init.digest=sha256:"$(printf '2%.0s' {1..64})",images.webhook.repository=hook
check "template with digests: TAG@DIGEST, the tag the version's by default" \
	"INIT_IMAGE r.example/dns/libresolv-k8s-init:7.1-abc@sha256:$(printf '2%.0s' {1..64})
r.example/dns/hook:$version
r.example/dns/resolv-k8s-node:$version@sha256:$(printf '1%.0s' {1..64})" "$(images_of "$work/digests.yaml")"
render bare
check "template, defaults: the images unqualified, as the kustomize bases name them" \
	"INIT_IMAGE libresolv-k8s-init:$version
resolv-k8s-node:$version
resolv-k8s-webhook:$version" "$(images_of "$work/bare.yaml")"

# The defaults against the kustomize bases: the fields that matter, alike.
"$build/bin/kubectl" kustomize container/node-cache/base > "$work/base.yaml"
"$build/bin/kubectl" kustomize container/webhook/base > "$work/webhook-base.yaml"
ds_fields=(spec.selector spec.updateStrategy "$pod.serviceAccountName" "$pod.priorityClassName" "$pod.hostNetwork"
	"$pod.dnsPolicy" "$pod.nodeSelector" "$pod.tolerations" "$pod.affinity" "$pod.containers[0].args"
	"$pod.containers[0].resources" "$pod.containers[0].securityContext" "$pod.containers[0].ports"
	"$pod.containers[0].livenessProbe" "$pod.containers[0].readinessProbe" "$pod.containers[0].volumeMounts"
	"$pod.volumes[1]" "$pod.volumes[0].name" spec.template.metadata.labels
	'spec.template.metadata.annotations.prometheus\.io/scrape' 'spec.template.metadata.annotations.prometheus\.io/port')
check "defaults: the DaemonSet's fields, the kustomize base's" "" \
	"$(differ "$(object "$work/bare.yaml" DaemonSet)" "$(object "$work/base.yaml" DaemonSet)" "${ds_fields[@]}")"
check "defaults: the DaemonSet's settings, the kustomize base's" "$(env_of "$work/base.yaml")" "$(env_of "$work/bare.yaml")"
check "defaults: the DaemonSet mounts the chart's ConfigMap" '"resolv-k8s-node" "resolv-k8s-node"' \
	"$(field "$work/bare.yaml" "$pod.volumes[name=config].configMap.name" DaemonSet) $(field "$work/bare.yaml" metadata.name ConfigMap)"
same_config() {
	python3 -c 'import json, sys, yaml
configs = [yaml.safe_load(json.loads(c)["data"]["config.yaml"]) for c in sys.argv[1:]]
print(configs[0] == configs[1] or configs)' "$@"
}
check "defaults: config.yaml, the kustomize base's" "True" \
	"$(same_config "$(object "$work/bare.yaml" ConfigMap)" "$(object "$work/base.yaml" ConfigMap)")"
check "defaults: resolv-k8s-upstream and the cache's ServiceAccount, the kustomize base's" "" \
	"$(differ "$(object "$work/bare.yaml" Service resolv-k8s-upstream)" "$(object "$work/base.yaml" Service)" spec metadata.name)$(
	   differ "$(object "$work/bare.yaml" ServiceAccount resolv-k8s-node)" "$(object "$work/base.yaml" ServiceAccount)" automountServiceAccountToken)"
check "the DaemonSet's securityContext: every capability dropped but two, no escalation, read-only, RuntimeDefault" \
	'{"allowPrivilegeEscalation":false,"capabilities":{"add":["NET_ADMIN","NET_BIND_SERVICE"],"drop":["ALL"]},"readOnlyRootFilesystem":true,"seccompProfile":{"type":"RuntimeDefault"}}' \
	"$(field "$work/bare.yaml" "$pod.containers[0].securityContext" DaemonSet)"
check "the DaemonSet: health on the node's loopback, the probes' host; the memory limit the cache's budget is read from" \
	'"127.0.0.1" "127.0.0.1" "128Mi"' \
	"$(field "$work/bare.yaml" "$pod.containers[0].livenessProbe.httpGet.host" DaemonSet) $(field "$work/bare.yaml" "$pod.containers[0].readinessProbe.httpGet.host" DaemonSet) $(field "$work/bare.yaml" "$pod.containers[0].resources.limits.memory" DaemonSet)"
# The webhook's: the kustomize base is in kube-system too.
cp "$work/bare.yaml" "$work/hook.yaml"
deploy_fields=(spec.replicas spec.selector spec.template.metadata.labels spec.template.metadata.annotations
	"$pod.serviceAccountName" "$pod.automountServiceAccountToken" "$pod.affinity" "$pod.nodeSelector"
	"$pod.securityContext" "$pod.volumes" "$pod.containers[0].args" "$pod.containers[0].env" "$pod.containers[0].ports"
	"$pod.containers[0].readinessProbe" "$pod.containers[0].livenessProbe" "$pod.containers[0].resources"
	"$pod.containers[0].securityContext" "$pod.containers[0].volumeMounts")
check "defaults: the webhook's Deployment, the kustomize base's" "" \
	"$(differ "$(object "$work/hook.yaml" Deployment)" "$(object "$work/webhook-base.yaml" Deployment)" "${deploy_fields[@]}")"
hook='webhooks[0]'
hook_fields=(name clientConfig.service rules namespaceSelector objectSelector failurePolicy matchPolicy sideEffects
	timeoutSeconds admissionReviewVersions reinvocationPolicy)
check "defaults: the MutatingWebhookConfiguration, the kustomize base's (the chart's holds its CA)" "" \
	"$(differ "$(object "$work/hook.yaml" MutatingWebhookConfiguration)" "$(object "$work/webhook-base.yaml" MutatingWebhookConfiguration)" \
		metadata.name "${hook_fields[@]/#/$hook.}")"
check "defaults: the webhook's Service, PodDisruptionBudget and ServiceAccount, the kustomize base's" "" \
	"$(for kind in Service:spec PodDisruptionBudget:spec ServiceAccount:automountServiceAccountToken; do
		differ "$(object "$work/hook.yaml" "${kind%:*}" resolv-k8s-webhook)" "$(object "$work/webhook-base.yaml" "${kind%:*}")" "${kind#*:}"
	done)"
check "in kube-system: the webhook leaves kube-system out once" \
	'{"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["kube-system"]}],"matchLabels":{"resolv-k8s.io/inject":"enabled"}}' \
	"$(field "$work/bare.yaml" "$hook.namespaceSelector" MutatingWebhookConfiguration)"
render selector --set-json 'webhook.namespaceSelector={"matchExpressions":[{"key":"team","operator":"In","values":["shop"]}]}'
check "a namespaceSelector of yours, merged into the label's: kube-system still left out" \
	'{"matchExpressions":[{"key":"team","operator":"In","values":["shop"]},{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["kube-system"]}],"matchLabels":{"resolv-k8s.io/inject":"enabled"}}' \
	"$(field "$work/selector.yaml" "$hook.namespaceSelector" MutatingWebhookConfiguration)"

# What make push writes (overlays.sh): the chart's values give the overlays'
# settings, each in its place.
KUBE_DNS=172.20.0.10 NODE_SEARCH=ec2.internal,compute.internal STUB_DOMAINS='{"corp.example": ["172.20.8.53"]}' \
	CLUSTER_DNS=172.20.0.11 CLUSTER_DOMAIN=k8s.example CERT_MANAGER=1 \
	container/overlays.sh "$work/deploy" registry.example.com/dns 7.1 > /dev/null
KUBE_DNS=172.20.0.10 CACHE_ON_KUBE_DNS=1 container/overlays.sh "$work/deploy-on" registry.example.com/dns > /dev/null
for deploy in deploy deploy-on; do
	render "$deploy" -f "$work/$deploy/values.yaml"
	check "$deploy: the values overlays.sh writes render, no warning" "0" "$?$(cat "$work/$deploy.err")"
	"$build/bin/kubectl" kustomize "$work/$deploy/node-cache" > "$work/$deploy-cache.yaml"
	"$build/bin/kubectl" kustomize "$work/$deploy/webhook" > "$work/$deploy-webhook.yaml"
	# STUB_DOMAINS the same JSON, the chart's without blanks.
	check "$deploy: the cache's settings, the overlay's" "$(env_of "$work/$deploy-cache.yaml" | sed '/^STUB_DOMAINS=/s/ //g')" \
		"$(env_of "$work/$deploy.yaml")"
	check "$deploy: the webhook's settings, the overlay's" "$(webhook_args "$work/$deploy-webhook.yaml")" "$(webhook_args "$work/$deploy.yaml")"
	check "$deploy: the images, the overlays'" "$(cat "$work/$deploy-cache.yaml" <(echo ---) "$work/$deploy-webhook.yaml" > "$work/$deploy-both.yaml"
		images_of "$work/$deploy-both.yaml")" "$(images_of "$work/$deploy.yaml")"
done
check "deploy: the node's search domains the marker path's too, after the cache's config" '["ec2.internal","compute.internal"]' \
	"$(object "$work/deploy.yaml" ConfigMap | python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(json.load(sys.stdin)["data"]["config.yaml"])["autopath"]["hostSearch"], separators=(",", ":")))')"
check "deploy: CERT_MANAGER=1, cert-manager's Issuer and Certificate, the CA injected; no Secret" \
	"Certificate Certificate Issuer Issuer \"kube-system/resolv-k8s-webhook\" absent 0" \
	"$(kinds "$work/deploy.yaml" | grep -o 'Certificate\|Issuer' | xargs) $(field "$work/deploy.yaml" 'metadata.annotations[cert-manager.io/inject-ca-from]' MutatingWebhookConfiguration) $(field "$work/deploy.yaml" "$hook.clientConfig.caBundle" MutatingWebhookConfiguration) $(grep -c '^kind: Secret' "$work/deploy.yaml")"
check "deploy: valid, cert-manager's four of another API" "$work/deploy.yaml: 18 valid, 4 of other APIs" "$(models check "$work/deploy.yaml")"

# The webhook's certificate. By default its own (webhook.certificates
# self): nothing of it rendered, so two renders without a cluster are the
# same, byte for byte; the webhook asks for its Secret with its token, and
# may touch that Secret and the configuration's caBundle alone.
render bare-again
check "self: two renders without a cluster, the same" "" "$(diff "$work/bare.yaml" "$work/bare-again.yaml")"
check "self: its Secret empty and Opaque, no caBundle, no cert-manager; the webhook keeps its own, with its token" \
	"1 \"Opaque\" absent absent absent true 'webhook' '--tls-secret' 'resolv-k8s-webhook-tls'" \
	"$(grep -c '^kind: \(Secret\|Certificate\|Issuer\)$' "$work/bare.yaml") $(field "$work/bare.yaml" type Secret resolv-k8s-webhook-tls) $(field "$work/bare.yaml" data Secret resolv-k8s-webhook-tls) $(field "$work/bare.yaml" "$hook.clientConfig.caBundle" MutatingWebhookConfiguration) $(field "$work/bare.yaml" "$pod.volumes" Deployment) $(field "$work/bare.yaml" "$pod.automountServiceAccountToken" Deployment) $(webhook_args "$work/bare.yaml" | cut -d' ' -f1-3)"
check "self: its Role on its Secret alone (get, update: no create, the chart makes it), its ClusterRole on its configuration" \
	'[{"apiGroups":[""],"resourceNames":["resolv-k8s-webhook-tls"],"resources":["secrets"],"verbs":["get","update"]}] [{"apiGroups":["admissionregistration.k8s.io"],"resourceNames":["resolv-k8s"],"resources":["mutatingwebhookconfigurations"],"verbs":["get","patch"]}] {"kind":"ServiceAccount","name":"resolv-k8s-webhook","namespace":"kube-system"}' \
	"$(field "$work/bare.yaml" rules Role resolv-k8s-webhook) $(field "$work/bare.yaml" rules ClusterRole resolv-k8s-webhook) $(field "$work/bare.yaml" 'subjects[0]' ClusterRoleBinding resolv-k8s-webhook)"
# helm test: resolv-k8s webhook check, from the webhook's image, in a
# namespace of its own labelled for injection, allowed to create pods there
# alone.
check "helm test: a check pod of the webhook's image, a dry run in resolv-k8s-test" \
	"\"test\" [\"webhook\",\"check\",\"--namespace\",\"resolv-k8s-test\",\"--image\",\"libresolv-k8s-init:$version\"] \"resolv-k8s-webhook:$version\" \"resolv-k8s-webhook-test\"" \
	"$(field "$work/bare.yaml" 'metadata.annotations[helm.sh/hook]' Pod) $(field "$work/bare.yaml" 'spec.containers[0].args' Pod) $(field "$work/bare.yaml" 'spec.containers[0].image' Pod) $(field "$work/bare.yaml" spec.serviceAccountName Pod)"
check "helm test: its namespace labelled as namespaceSelector asks, its Role there: create pods, nothing else" \
	'"enabled" "test" "resolv-k8s-test" [{"apiGroups":[""],"resources":["pods"],"verbs":["create"]}]' \
	"$(field "$work/bare.yaml" 'metadata.labels[resolv-k8s.io/inject]' Namespace resolv-k8s-test) $(field "$work/bare.yaml" 'metadata.annotations[helm.sh/hook]' Namespace resolv-k8s-test) $(field "$work/bare.yaml" metadata.namespace Role resolv-k8s-webhook-test) $(field "$work/bare.yaml" rules Role resolv-k8s-webhook-test)"
render test-shop --set webhook.test.namespace=shop
check "helm test in a namespace of yours: not made, the Role there" '0 "shop" "shop"' \
	"$(grep -c '^kind: Namespace' "$work/test-shop.yaml") $(field "$work/test-shop.yaml" metadata.namespace Role resolv-k8s-webhook-test) $(field "$work/test-shop.yaml" 'spec.containers[0].args[3]' Pod)"
# cert-manager: a CA chain, the serving certificate from the CA's Issuer,
# the caBundle injected from it; no roles.
render chain --set webhook.certificates=certManager
check "certManager: a self-signed Issuer, a CA of ten years from it, an Issuer of that CA signing the serving certificate" \
	'{"selfSigned":{}} true "87600h" {"kind":"Issuer","name":"resolv-k8s-webhook-selfsigned"} {"ca":{"secretName":"resolv-k8s-webhook-ca"}} {"kind":"Issuer","name":"resolv-k8s-webhook-ca"} "resolv-k8s-webhook-tls"' \
	"$(field "$work/chain.yaml" spec Issuer resolv-k8s-webhook-selfsigned) $(field "$work/chain.yaml" spec.isCA Certificate resolv-k8s-webhook-ca) $(field "$work/chain.yaml" spec.duration Certificate resolv-k8s-webhook-ca) $(field "$work/chain.yaml" spec.issuerRef Certificate resolv-k8s-webhook-ca) $(field "$work/chain.yaml" spec Issuer resolv-k8s-webhook-ca) $(field "$work/chain.yaml" spec.issuerRef Certificate resolv-k8s-webhook) $(field "$work/chain.yaml" spec.secretName Certificate resolv-k8s-webhook)"
check "certManager: the caBundle injected from the serving Certificate (its Secret's ca.crt: the CA), the Secret mounted, no roles" \
	"\"kube-system/resolv-k8s-webhook\" \"resolv-k8s-webhook-tls\" false 0" \
	"$(field "$work/chain.yaml" 'metadata.annotations[cert-manager.io/inject-ca-from]' MutatingWebhookConfiguration) $(field "$work/chain.yaml" "$pod.volumes[name=tls].secret.secretName" Deployment) $(field "$work/chain.yaml" "$pod.automountServiceAccountToken" Deployment) $(field "$work/chain.yaml" rules Role resolv-k8s-webhook; field "$work/chain.yaml" rules ClusterRole resolv-k8s-webhook | wc -l)"
render old-switch --set webhook.certManager.enabled=true
check "certManager.enabled, the older switch: the same objects" "" "$(diff "$work/chain.yaml" "$work/old-switch.yaml")"
# Given: certs.sh's PEMs, the Secret of them; or a Secret of yours.
secret() { object "$work/$1.yaml" Secret | python3 -c 'import base64, json, sys; print(base64.b64decode(json.load(sys.stdin)["data"][sys.argv[1]]).decode(), end="")' "$2"; }
bundle() { field "$work/$1.yaml" "$hook.clientConfig.caBundle" MutatingWebhookConfiguration | unjson | base64 -d; }
container/webhook/certs.sh "$work/given" resolv-k8s-webhook kube-system > /dev/null
render given --set-file "webhook.tls.crt=$work/given/tls.crt" --set-file "webhook.tls.key=$work/given/tls.key" \
	--set-file "webhook.tls.ca=$work/given/ca.crt"
check "given PEMs: the Secret holds them, caBundle the CA" "$(cat "$work/given/tls.crt" "$work/given/tls.key" "$work/given/ca.crt")" \
	"$(secret given tls.crt; secret given tls.key; bundle given)"
render yours --set webhook.tls.existingSecret=webhook-certs --set-file webhook.tls.ca="$work/given/ca.crt"
check "a Secret of yours: mounted, no Secret of the chart's, caBundle its CA" \
	"\"webhook-certs\" 0 $(cat "$work/given/ca.crt")" \
	"$(field "$work/yours.yaml" "$pod.volumes[name=tls].secret.secretName" Deployment) $(grep -c '^kind: Secret' "$work/yours.yaml") $(bundle yours)"
render issuer --set webhook.certManager.enabled=true --set-json 'webhook.certManager.issuerRef={"name":"corp-ca","kind":"ClusterIssuer"}'
check "cert-manager with an issuer of yours: no Issuer of the chart's, the Certificate from yours" \
	'0 {"kind":"ClusterIssuer","name":"corp-ca"} ["resolv-k8s-webhook.kube-system.svc","resolv-k8s-webhook.kube-system.svc.cluster.local"]' \
	"$(grep -c '^kind: Issuer' "$work/issuer.yaml") $(field "$work/issuer.yaml" spec.issuerRef Certificate) $(field "$work/issuer.yaml" spec.dnsNames Certificate)"

# The cache's knobs (server/README.md): the config the server reads, and
# the real server running it with the DaemonSet's settings, its probes and
# metrics port following config.health and config.metrics.
cat > "$work/knobs-values.yaml" <<'EOF'
nodeSearch: [ec2.internal]
nodeCache:
  kubeDNSAddress: 10.32.0.10
  stubDomains: {corp.example: [10.32.8.53]}
  config:
    health: "127.0.0.1:9355"
    metrics: "0.0.0.0:9354"
    logLevel: Debug
    queryLog: queries.log
    autopath: {code: 65432, marker: ap.example}
    cache:
      capacity: 20000
      maxBytes: 16Mi
      prefetchPercentage: 20
      prefetchMinHits: 3
      prefetchPeriod: 30s
      serveStale: {maxStale: 30m, staleTTL: 10s, clientTimeout: 1s, failureRecheck: 15s, mode: Immediate}
    limits: {maxConcurrent: 500, maxPending: 512, maxJoined: 32, maxUpstreamPerQuery: 12, clientQPS: 200,
             maxUDPSize: 1400, maxTCPClients: 128, maxTCPQueries: 8, tcpIdleTimeout: 5s, maxHTTPClients: 8, httpTimeout: 3s}
  extraServers:
    - name: corp-internal
      zones: [internal.example]
      forwardPlugin: {upstreams: ["10.32.9.53"]}
  livenessProbe: {initialDelaySeconds: 30, periodSeconds: 20}
webhook:
  nameservers: [169.254.53.10, 10.32.0.10]
  autopath: marker
  maxConnections: 20
EOF
render knobs -f "$work/knobs-values.yaml"
check "knobs: render, valid" "0 $work/knobs.yaml: 23 valid" "$?$(cat "$work/knobs.err") $(models check "$work/knobs.yaml")"
object "$work/knobs.yaml" ConfigMap | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["config.yaml"])' > "$work/knobs-config.yaml"
# shellcheck disable=SC2016 # the setting's reference, as config.yaml holds it
check "knobs: in config.yaml, the base's keys kept beside them" \
	'"ap.example" 20000 ["cluster","corp-internal"] ["ec2.internal"] "${CLUSTER_DOMAIN}" "Immediate" 12 {"positiveTTL":"30s"}' \
	"$(python3 -c 'import json, sys, yaml
c = yaml.safe_load(open(sys.argv[1]))
print(" ".join(json.dumps(v, separators=(",", ":")) for v in (c["autopath"]["marker"], c["cache"]["capacity"], [s["name"] for s in c["servers"]],
      c["autopath"]["hostSearch"], c["autopath"]["clusterDomain"], c["cache"]["serveStale"]["mode"], c["limits"]["maxUpstreamPerQuery"],
      {"positiveTTL": c["cache"]["positiveTTL"]})))' "$work/knobs-config.yaml")"
check "knobs: the probes and the metrics port follow config.health and config.metrics" \
	'9355 9355 9354 "9354" 30 20' \
	"$(for f in livenessProbe.httpGet.port readinessProbe.httpGet.port 'ports[name=metrics].containerPort'; do field "$work/knobs.yaml" "$pod.containers[0].$f" DaemonSet; done | xargs) $(field "$work/knobs.yaml" 'spec.template.metadata.annotations[prometheus.io/port]' DaemonSet) $(field "$work/knobs.yaml" "$pod.containers[0].livenessProbe.initialDelaySeconds" DaemonSet) $(field "$work/knobs.yaml" "$pod.containers[0].livenessProbe.periodSeconds" DaemonSet)"
check "knobs: the webhook on the marker path, the cache's marker, its bound on connections" \
	"'--nameserver' '169.254.53.10,10.32.0.10' '--host-search' 'ec2.internal' '--cluster-domain' 'cluster.local' '--autopath' 'marker' '--marker' 'ap.example' '--max-connections' '20'" \
	"$(webhook_args "$work/knobs.yaml" | grep -o "'--nameserver'.*")"
check "knobs: the server runs the chart's config with its settings; the probes, DNS and metrics ports answer" "200
200
93.184.216.34
counted" "$(serve knobs 10.32.0.10 10.32.8.53 10.32.9.53)" "$(cat "$work/knobs.err")"
check_match "knobs: ... on the link-local address and kube-dns's, the stub zone and the extra server among its forwarders" \
	"4 forwarders.*listening on 169.254.53.10:53, 10.32.0.10:53" "$(cat "$work/knobs.err")"
check "knobs: ... its limits and cache as set (the cache four fifths of maxBytes)" \
	'resolv_k8s_limit{limit="cache.maxBytes"} 13421773
resolv_k8s_limit{limit="maxConcurrent"} 500
resolv_k8s_limit{limit="maxPending"} 512
resolv_k8s_limit{limit="maxTCPClients"} 128' \
	"$(grep -E '^resolv_k8s_limit\{limit="(cache.maxBytes|maxConcurrent|maxPending|maxTCPClients)"' "$work/knobs.err.metrics" | sort)"
check "knobs: ... the query log where queryLog puts it, at logLevel Debug denials and errors alone (www.example.com's answer not)" \
	"denials 0" "$(grep -q ' NXDOMAIN ' "$work/queries.log" && echo denials) $(grep -c ' NOERROR ' "$work/queries.log")" \
	"$(cat "$work/queries.log")"

# DNS over TLS to the upstreams (operator guide): each caBundle given as
# OpenShift's ConfigMap reference, mounted read-only where config.yaml names
# it; the real server runs the result against unbound serving DoT with a
# throwaway CA (tests/lib/dot.sh), the ConfigMaps' volumes stood in for by
# that CA under their mount points.
cat > "$work/dot-values.yaml" <<'EOF'
nodeCache:
  config:
    upstreamResolvers:
      upstreams: [{type: Network, address: 127.0.0.60}]
      transportConfig: {transport: TLS, tls: {serverName: dns.test, caBundle: {name: upstream-ca}}}
  extraServers:
    - name: example
      zones: [example.com]
      forwardPlugin:
        upstreams: ["127.0.0.60"]
        transportConfig: {transport: TLS, tls: {serverName: dns.test, caBundle: {name: example-ca, key: ca.crt}}}
EOF
render dot -f "$work/dot-values.yaml"
check "dot: render, valid" "0 $work/dot.yaml: 23 valid" "$?$(cat "$work/dot.err") $(models check "$work/dot.yaml")"
object "$work/dot.yaml" ConfigMap resolv-k8s-node | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["config.yaml"])' > "$work/dot-config.yaml"
check "dot: config.yaml names each bundle in its ConfigMap's volume, read-only (key ca-bundle.crt unless given)" \
	"/etc/resolv-k8s-ca/upstream-ca/ca-bundle.crt upstream-ca ro
/etc/resolv-k8s-ca/example-ca/ca.crt example-ca ro" \
	"$(python3 - "$work/dot-config.yaml" "$(object "$work/dot.yaml" DaemonSet)" <<-'EOF'
		import json, os, sys, yaml
		c, pod = yaml.safe_load(open(sys.argv[1])), json.loads(sys.argv[2])["spec"]["template"]["spec"]
		mounts = {m["mountPath"]: m for m in pod["containers"][0]["volumeMounts"]}
		volumes = {v["name"]: v for v in pod["volumes"]}
		for f in [c["upstreamResolvers"]] + [s["forwardPlugin"] for s in c["servers"] if s["name"] == "example"]:
		    path = f["transportConfig"]["tls"]["caBundle"]
		    m = mounts.get(os.path.dirname(path), {})
		    print(path, volumes.get(m.get("name"), {}).get("configMap", {}).get("name"), "ro" if m.get("readOnly") else "rw")
	EOF
	)"
check "dot: without a caBundle ConfigMap, no volume of one" "config node-lock" \
	"$(field "$work/bare.yaml" "$pod.volumes" DaemonSet | python3 -c 'import json, sys; print(" ".join(v["name"] for v in json.load(sys.stdin)))')"
mkdir "$work/dot" "$work/ca-volume"
dot_certs "$work/dot"
cp "$work/dot/ca.pem" "$work/ca-volume/ca-bundle.crt"
cp "$work/dot/ca.pem" "$work/ca-volume/ca.crt"
dot_unbound_conf "$work/dot" dot good 127.0.0.60
printf 'forward-zone:\n  name: "."\n  forward-addr: 127.0.0.53\n' >> "$work/dot/dot.conf"
# In the sandbox: /etc under an overlay (its upper layer in the sandbox's
# /run, nothing on the host's disk) for the mount points, the volumes bound
# there as kubelet would, the node's resolv.conf again, and unbound serving
# DoT.
served=$(SERVE_SETUP='mkdir /run/etc /run/etc-work
	mount -t overlay dot -o lowerdir=/etc,upperdir=/run/etc,workdir=/run/etc-work /etc
	mount --bind -o ro '"$work/resolv.conf"' /etc/resolv.conf
	for ca in upstream-ca example-ca; do
		mkdir -p /etc/resolv-k8s-ca/$ca && mount --bind -o ro '"$work/ca-volume"' /etc/resolv-k8s-ca/$ca
	done
	unbound -d -c '"$work/dot/dot.conf"' 2> '"$work/dot/dot.err"' &
	for _ in $(seq 100); do grep -qs "start of service" '"$work/dot/dot.log"' && break; sleep 0.1; done' \
	serve dot 169.254.53.10)
check "dot: the server runs the chart's config; the probes answer, a name resolves through DoT" "200
200
93.184.216.34
counted" "$served" "$(cat "$work/dot.err" "$work/dot/dot.err")"
check_match "dot: ... over TLS, unbound asked it" \
	'resolv_k8s_forward_tls_handshakes_total\{to="127\.0\.0\.60:853",resumed="false"\} [1-9].*www\.example\.com\. A' \
	"$(cat "$work/dot.err.metrics" "$work/dot/dot.log")"

# Monitoring behind its values: the ServiceMonitors, each through a
# headless Service of its pods' port; the alerts and the dashboard as
# monitoring/ holds them.
render monitoring "${monitoring[@]}"
check "monitoring: valid, the ServiceMonitors and PrometheusRules of another API" \
	"$work/monitoring.yaml: 24 valid, 4 of other APIs" "$(models check "$work/monitoring.yaml")"
check "monitoring: with ServiceMonitors, no prometheus.io annotations on the pods" "absent absent" \
	"$(field "$work/monitoring.yaml" 'spec.template.metadata.annotations[prometheus.io/scrape]' DaemonSet) $(field "$work/monitoring.yaml" 'spec.template.metadata.annotations[prometheus.io/scrape]' Deployment)"
check "monitoring: each ServiceMonitor finds its Service, whose port is its pods'" \
	"resolv-k8s-node metrics http metrics
resolv-k8s-webhook https https https" \
	"$(python3 - "$work/monitoring.yaml" <<-'EOF'
		import sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
		for m in (d for d in docs if d["kind"] == "ServiceMonitor"):
		    svc = next(d for d in docs if d["kind"] == "Service" and all(d["metadata"]["labels"].get(k) == v for k, v in m["spec"]["selector"]["matchLabels"].items()))
		    pods = next(d for d in docs if d["kind"] in ("DaemonSet", "Deployment") and all(d["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in svc["spec"]["selector"].items()))
		    port = next(p for p in pods["spec"]["template"]["spec"]["containers"][0]["ports"] if p["name"] == svc["spec"]["ports"][0]["targetPort"])
		    e = m["spec"]["endpoints"][0]
		    print(m["metadata"]["name"], e["port"], e["scheme"], port["name"] if svc["spec"]["ports"][0]["name"] == e["port"] else "-")
	EOF
	)"
check "monitoring: each ServiceMonitor labels its series with their node first, as the PodMonitors do" "True True" \
	"$(python3 - "$work/monitoring.yaml" "$chart/monitoring/podmonitor.yaml" <<-'EOF'
		import sys, yaml
		node = yaml.safe_load(open(sys.argv[2]))["spec"]["podMetricsEndpoints"][0]["relabelings"]
		for m in (d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "ServiceMonitor"):
		    print(m["spec"]["endpoints"][0]["relabelings"][:len(node)] == node, end=" " if m["metadata"]["name"] == "resolv-k8s-node" else "\n")
	EOF
	)"
check "monitoring: the alerts and the dashboard, monitoring/'s" "True True" \
	"$(python3 - "$work/monitoring.yaml" "$chart/monitoring" <<-'EOF'
		import json, sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
		rules = [d["spec"] for d in docs if d["kind"] == "PrometheusRule"]
		files = [yaml.safe_load(open(sys.argv[2] + f))["spec"] for f in ("/prometheusrule.yaml", "/webhook-prometheusrule.yaml")]
		board = next(d for d in docs if d["kind"] == "ConfigMap" and "grafana_dashboard" in d["metadata"]["labels"])
		print(rules == files, json.loads(board["data"]["resolv-k8s-node.json"]) == json.load(open(sys.argv[2] + "/dashboard.json")))
	EOF
	)"
check "monitoring: every panel of the dashboard filtered by cluster and node" "cluster node: 0 unfiltered" \
	"$(python3 - "$chart/monitoring/dashboard.json" <<-'EOF'
		import json, re, sys
		board = json.load(open(sys.argv[1]))
		names = " ".join(v["name"] for v in board["templating"]["list"] if v["type"] == "query")
		exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
		selectors = [s for e in exprs for s in re.findall(r"\b(?:resolv_k8s|process|coredns)_\w+(?:\{[^}]*\})?", e)]
		bare = [s for s in selectors if 'cluster=~"$cluster"' not in s or 'node=~"$node"' not in s]
		print(f"{names}: {len(bare)} unfiltered", *bare)
	EOF
	)"

# The webhook optional.
render alone --set webhook.enabled=false,prometheusRule.enabled=true
check "webhook.enabled=false: the cache alone, its alerts alone" "ConfigMap DaemonSet PrometheusRule Role RoleBinding Service Service ServiceAccount" \
	"$(kinds "$work/alone.yaml")"

# A subchart: an umbrella chart's global values pass the schema, its values
# for us reach us.
mkdir -p "$work/umbrella/charts"
cp -r "$chart" "$work/umbrella/charts/resolv-k8s"
printf '%s\n' 'apiVersion: v2' 'name: platform' 'version: 1.0.0' > "$work/umbrella/Chart.yaml"
printf '%s\n' 'global: {imageRegistry: registry.example.com, storageClass: fast}' \
	'resolv-k8s: {registry: registry.example.com/dns}' > "$work/umbrella/values.yaml"
helm template platform "$work/umbrella" --namespace kube-system -f "$work/umbrella/values.yaml" > "$work/umbrella.yaml" 2> "$work/umbrella.err"
check "an umbrella chart with global values: renders us, our values from it" "0 registry.example.com/dns/resolv-k8s-node:$version" \
	"$?$(cat "$work/umbrella.err") $(images_of "$work/umbrella.yaml" | grep resolv-k8s-node)"

# The conventions platform teams set: an umbrella chart that depends on us
# with `condition: resolv-k8s.enabled`, our objects renamed and labelled
# from it, lint clean, valid; off by its condition; a typo still refused.
mkdir -p "$work/platform/charts"
cp -r "$chart" "$work/platform/charts/resolv-k8s"
printf '%s\n' 'apiVersion: v2' 'name: platform' 'version: 1.0.0' 'dependencies:' \
	"  - {name: resolv-k8s, version: \"$version\", condition: resolv-k8s.enabled}" > "$work/platform/Chart.yaml"
printf '%s\n' 'resolv-k8s:' '  enabled: true' '  fullnameOverride: node-local-dns' '  commonLabels: {team: dns, cost-center: "42"}' \
	'  prometheusRule: {enabled: true}' '  serviceMonitor: {enabled: true}' '  dashboard: {enabled: true}' > "$work/platform/values.yaml"
lint=$(helm lint --strict "$work/platform" 2>&1)
check "umbrella with condition resolv-k8s.enabled, fullnameOverride, commonLabels: helm lint --strict" "0" "$?" "$lint"
helm template platform "$work/platform" --namespace kube-system > "$work/platform.yaml" 2> "$work/platform.err"
check "umbrella: renders, no warning" "0" "$?$(cat "$work/platform.err")"
check "umbrella: valid" "$work/platform.yaml: 24 valid, 4 of other APIs" "$(models check "$work/platform.yaml" 2>&1)"
# names FILE: each object's name not under node-local-dns, then each one
# without commonLabels (on its pods too), "-" for none.
names() {
	python3 - "$1" <<-'EOF'
		import sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
		want = {"team": "dns", "cost-center": "42"}
		has = lambda labels: want.items() <= (labels or {}).items()
		print(" ".join(d["kind"] + "/" + d["metadata"]["name"] for d in docs if not d["metadata"]["name"].startswith("node-local-dns")) or "-",
		      " ".join(d["kind"] + "/" + d["metadata"]["name"] for d in docs
		               if not has(d["metadata"].get("labels")) or ("template" in d.get("spec", {}) and not has(d["spec"]["template"]["metadata"]["labels"]))) or "-")
	EOF
}
check "umbrella: every object named node-local-dns-*, every one and its pods with commonLabels" \
	"- -" "$(names "$work/platform.yaml")"
check "umbrella: the objects that name each other follow (Service account, Role, config, kubelet's upstream address, webhook's flags)" \
	"node-local-dns-node [\"node-local-dns-node\"] \${POD_NAMESPACE}/node-local-dns-node \$(NODE_LOCAL_DNS_UPSTREAM_SERVICE_HOST)
[\"node-local-dns-webhook-tls\"] [\"node-local-dns\"] --tls-secret node-local-dns-webhook-tls --service node-local-dns-webhook --webhook-configuration node-local-dns
node-local-dns-webhook kube-system/node-local-dns-webhook node-local-dns-test" \
	"$(python3 - "$work/platform.yaml" <<-'EOF'
		import json, sys, yaml
		docs = {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(open(sys.argv[1])) if d}
		ds, dep = docs["DaemonSet", "node-local-dns-node"], docs["Deployment", "node-local-dns-webhook"]
		env = {e["name"]: e.get("value") for e in ds["spec"]["template"]["spec"]["containers"][0]["env"]}
		config = yaml.safe_load(docs["ConfigMap", "node-local-dns-node"]["data"]["config.yaml"])
		args = " ".join(dep["spec"]["template"]["spec"]["containers"][0]["args"])
		flags = " ".join(a + " " + args.split(a + " ")[1].split()[0] for a in ("--tls-secret", "--service", "--webhook-configuration"))
		print(ds["spec"]["template"]["spec"]["serviceAccountName"], json.dumps(docs["Role", "node-local-dns-node"]["rules"][0]["resourceNames"]),
		      config["nodeSetup"]["daemonSet"], env["CLUSTER_DNS"])
		print(json.dumps(docs["Role", "node-local-dns-webhook"]["rules"][0]["resourceNames"]),
		      json.dumps(docs["ClusterRole", "node-local-dns-webhook"]["rules"][0]["resourceNames"]), flags)
		hook = docs["MutatingWebhookConfiguration", "node-local-dns"]["webhooks"][0]["clientConfig"]["service"]
		print(hook["name"], hook["namespace"] + "/" + docs["Service", "node-local-dns-webhook"]["metadata"]["name"],
		      " ".join(name for kind, name in docs if kind == "Namespace"))
	EOF
	)"
helm template platform "$work/platform" --namespace kube-system --set resolv-k8s.enabled=false > "$work/platform-off.yaml" 2>&1
check "umbrella: resolv-k8s.enabled false, nothing of ours" "0 0" "$? $(grep -c '^kind:' "$work/platform-off.yaml")"
check_match "umbrella: a typo in our values still refused" "Additional property comonLabels is not allowed" \
	"$(helm template platform "$work/platform" --set resolv-k8s.comonLabels.a=b 2>&1 > /dev/null | tr '\n' ' ')"
check_match "a typo of fullnameOverride refused" "Additional property fullnameOveride is not allowed" \
	"$(helm template resolv-k8s "$chart" --set fullnameOveride=x 2>&1 > /dev/null | tr '\n' ' ')"
check_match "a fullnameOverride that is no object name: refused" "fullnameOverride: Does not match pattern" \
	"$(helm template resolv-k8s "$chart" --set fullnameOverride=Node_DNS 2>&1 > /dev/null | tr '\n' ' ')"
render nameoverride --set nameOverride=dns
check "nameOverride: the objects' names from it, when no fullnameOverride" "dns-node dns-webhook dns" \
	"$(python3 -c 'import sys, yaml
d = {x["kind"]: x["metadata"]["name"] for x in yaml.safe_load_all(open(sys.argv[1])) if x}
print(d["DaemonSet"], d["Deployment"], d["MutatingWebhookConfiguration"])' "$work/nameoverride.yaml")"

# Each pod's extras, and the webhook on the node's network on a port of
# the node's.
cat > "$work/extras-values.yaml" <<EOF
nodeCache:
  podAnnotations: {a.example/x: "1"}
  podLabels: {tier: dns}
  priorityClassName: dns-critical
  extraEnv: [{name: GODEBUG, value: "x=1"}]
  extraVolumes: [{name: extra, emptyDir: {}}]
  extraVolumeMounts: [{name: extra, mountPath: /extra}]
webhook:
  podAnnotations: {a.example/y: "2"}
  podLabels: {tier: admission}
  priorityClassName: system-cluster-critical
  extraEnv: [{name: TZ, value: UTC}]
  extraVolumes: [{name: extra, emptyDir: {}}]
  extraVolumeMounts: [{name: extra, mountPath: /extra}]
  hostNetwork: true
  port: 10260
EOF
render extras -f "$work/extras-values.yaml"
check "extras: render, no warning" "0" "$?$(cat "$work/extras.err")"
check "extras: valid" "$work/extras.yaml: 23 valid" "$(models check "$work/extras.yaml" 2>&1)"
check "extras: each pod's annotation, label, priority class, env, volume and mount; the webhook on the node's network, its port everywhere" \
	"DaemonSet 1 dns dns-critical GODEBUG extra /extra
Deployment 2 admission system-cluster-critical TZ extra /extra True ClusterFirstWithHostNet 10260 :10260 10260 10260" \
	"$(python3 - "$work/extras.yaml" <<-'EOF'
		import sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
		for d in docs:
		    if d["kind"] not in ("DaemonSet", "Deployment"):
		        continue
		    meta, pod = d["spec"]["template"]["metadata"], d["spec"]["template"]["spec"]
		    c = pod["containers"][0]
		    line = [d["kind"], meta["annotations"].get("a.example/x") or meta["annotations"].get("a.example/y"), meta["labels"]["tier"],
		            pod["priorityClassName"], c["env"][-1]["name"], pod["volumes"][-1]["name"], c["volumeMounts"][-1]["mountPath"]]
		    if d["kind"] == "Deployment":
		        svc = [x for x in docs if x["kind"] == "Service" and x["metadata"]["name"] == "resolv-k8s-webhook-metrics"][0]
		        line += [pod["hostNetwork"], pod["dnsPolicy"], c["ports"][0]["containerPort"], c["args"][c["args"].index("--listen") + 1],
		                 meta["annotations"]["prometheus.io/port"], svc["spec"]["ports"][0]["port"]]
		    print(*line)
	EOF
	)"

# The PodDisruptionBudget never blocks a drain.
check "pdb: one replica at a time, whatever their number" '1 absent' \
	"$(field "$work/bare.yaml" spec.maxUnavailable PodDisruptionBudget) $(field "$work/bare.yaml" spec.minAvailable PodDisruptionBudget)"
render one --set webhook.replicas=1
check "pdb: webhook.replicas 1, none (a minAvailable 1 would block every drain)" "0 0" \
	"$?$(cat "$work/one.err") $(grep -c '^kind: PodDisruptionBudget' "$work/one.yaml")"
render three --set webhook.replicas=3,webhook.pdb.minAvailable=2
check "pdb: a minAvailable below the replicas, as given" "2 absent" \
	"$(field "$work/three.yaml" spec.minAvailable PodDisruptionBudget) $(field "$work/three.yaml" spec.maxUnavailable PodDisruptionBudget)"

# The metrics Services, with or without the ServiceMonitors; the cache's
# objects all found by the operator guide's rollback check.
check "metrics Services without a ServiceMonitor: each selects its pods, its port theirs" \
	"resolv-k8s-node-metrics None metrics 9254
resolv-k8s-webhook-metrics None https 8443" \
	"$(python3 - "$work/bare.yaml" <<-'EOF'
		import sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
		for svc in (d for d in docs if d["kind"] == "Service" and d["metadata"]["name"].endswith("-metrics")):
		    pods = [d for d in docs if d["kind"] in ("DaemonSet", "Deployment") and all(d["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in svc["spec"]["selector"].items())]
		    port = svc["spec"]["ports"][0]
		    named = [p for d in pods for p in d["spec"]["template"]["spec"]["containers"][0]["ports"] if p["name"] == port["targetPort"] and p["containerPort"] == port["port"]]
		    print(svc["metadata"]["name"], svc["spec"]["clusterIP"], named[0]["name"] if len(pods) == 1 and named else "-", port["port"])
	EOF
	)"
render nometrics --set metricsService.enabled=false
check "metricsService.enabled=false: no metrics Service" "0" "$(grep -c 'name: resolv-k8s-.*-metrics' "$work/nometrics.yaml")"
# by_label FILE: kind/name of each DaemonSet, Service, ConfigMap and
# ServiceAccount that `-l k8s-app=resolv-k8s-node` finds, then "left:" and
# those it does not find that are not the webhook's.
by_label() {
	python3 - "$1" <<-'EOF'
		import sys, yaml
		docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] in ("DaemonSet", "Service", "ConfigMap", "ServiceAccount")]
		labels = lambda d: d["metadata"].get("labels") or {}
		print(" ".join(sorted(d["kind"] + "/" + d["metadata"]["name"] for d in docs if labels(d).get("k8s-app") == "resolv-k8s-node")), "left:",
		      " ".join(sorted(d["kind"] + "/" + d["metadata"]["name"] for d in docs if labels(d).get("k8s-app") != "resolv-k8s-node"
		                      and "webhook" not in labels(d).get("app.kubernetes.io/name", d["metadata"]["name"]))))
	EOF
}
check "the rollback check's label (k8s-app=resolv-k8s-node): on every object of the cache's" \
	"ConfigMap/resolv-k8s-node DaemonSet/resolv-k8s-node Service/resolv-k8s-node-metrics Service/resolv-k8s-upstream ServiceAccount/resolv-k8s-node left: " \
	"$(by_label "$work/bare.yaml")"
"$build/bin/kubectl" kustomize "$work/deploy/node-cache" > "$work/deploy-node.yaml"
check "... and on every object of the kustomize base's, through an overlay (the ConfigMap's name hashed)" \
	"ConfigMap/resolv-k8s-node-HASH DaemonSet/resolv-k8s-node Service/resolv-k8s-upstream ServiceAccount/resolv-k8s-node left: " \
	"$(by_label "$work/deploy-node.yaml" | sed 's|ConfigMap/resolv-k8s-node-[a-z0-9]*|ConfigMap/resolv-k8s-node-HASH|')"

# Off the node's network (Cilium's Local Redirect Policy): the pod's
# address, no node set-up, the probes on it; the real server runs it.
printf '%s\n' 'nodeCache:' '  hostNetwork: false' '  podLabels: {resolv-k8s.io/redirect: node-local}' \
	'  config: {listen: ["0.0.0.0"], health: "0.0.0.0:9255", nodeSetup: null}' > "$work/cilium-values.yaml"
render cilium -f "$work/cilium-values.yaml"
check "hostNetwork false: renders, valid" "0 $work/cilium.yaml: 21 valid" "$?$(cat "$work/cilium.err") $(models check "$work/cilium.yaml")"
check "hostNetwork false: off the node's network, no node lock, the probes on the pod's address, its label for the policy" \
	'false ["config"] absent absent "node-local"' \
	"$(field "$work/cilium.yaml" "$pod.hostNetwork" DaemonSet) $(field "$work/cilium.yaml" "$pod.volumes" DaemonSet | python3 -c 'import json, sys; print(json.dumps([v["name"] for v in json.load(sys.stdin)]))') $(field "$work/cilium.yaml" "$pod.containers[0].livenessProbe.httpGet.host" DaemonSet) $(field "$work/cilium.yaml" "$pod.containers[0].readinessProbe.httpGet.host" DaemonSet) $(field "$work/cilium.yaml" 'spec.template.metadata.labels[resolv-k8s.io/redirect]' DaemonSet)"
object "$work/cilium.yaml" ConfigMap | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["config.yaml"])' > "$work/cilium-config.yaml"
check "hostNetwork false: the server runs its config, on the pod's every address; the probes, DNS and metrics ports answer" "200
200
93.184.216.34
counted" "$(serve cilium 127.0.0.1)" "$(cat "$work/cilium.err")"
check "hostNetwork false: ... and sets up nothing on the node" "" "$(grep -i 'interface\|nftables' "$work/cilium.err")"

# Uninstall leaves every node as it was: the cache asks whether its
# DaemonSet is still there at its last exit (tests/node/uninstall_test.sh
# plays it on a node), with a token of its ServiceAccount allowed that alone.
# shellcheck disable=SC2016 # the setting's reference, as config.yaml holds it
check "uninstall: nodeSetup.daemonSet names the release's DaemonSet, in the pod's namespace" \
	'"${POD_NAMESPACE}/resolv-k8s-node" {"fieldRef":{"fieldPath":"metadata.namespace"}} true' \
	"$(object "$work/bare.yaml" ConfigMap | python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(json.load(sys.stdin)["data"]["config.yaml"])["nodeSetup"]["daemonSet"]))') $(field "$work/bare.yaml" "$pod.containers[0].env[name=POD_NAMESPACE].valueFrom" DaemonSet) $(field "$work/bare.yaml" "$pod.automountServiceAccountToken" DaemonSet)"
check "uninstall: its ServiceAccount may get that DaemonSet, nothing else" \
	'[{"apiGroups":["apps"],"resourceNames":["resolv-k8s-node"],"resources":["daemonsets"],"verbs":["get"]}] [{"kind":"ServiceAccount","name":"resolv-k8s-node","namespace":"kube-system"}] "resolv-k8s-node"' \
	"$(field "$work/bare.yaml" rules Role resolv-k8s-node) $(field "$work/bare.yaml" subjects RoleBinding resolv-k8s-node) $(field "$work/bare.yaml" roleRef.name RoleBinding resolv-k8s-node)"
check "uninstall: off the node's network, no token and no Role" "absent 0" \
	"$(field "$work/cilium.yaml" "$pod.automountServiceAccountToken" DaemonSet) $(field "$work/cilium.yaml" rules Role resolv-k8s-node | wc -l)"

# NOTES.txt (what `helm install` prints), rendered as a ConfigMap of a copy
# of the chart: a warning when nothing sends pods to the cache.
notes() {
	rm -rf "$work/notes" && cp -r "$chart" "$work/notes" &&
		{ echo '{{- define "test.notes" -}}'; cat "$chart/templates/NOTES.txt"; echo '{{- end }}'; } > "$work/notes/templates/_notes.tpl" &&
		rm "$work/notes/templates/NOTES.txt" &&
		printf '%s\n' 'apiVersion: v1' 'kind: ConfigMap' 'metadata: {name: notes}' 'data: {notes: {{ include "test.notes" . | quote }}}' \
			> "$work/notes/templates/notes.yaml" &&
		helm template resolv-k8s "$work/notes" --namespace kube-system --show-only templates/notes.yaml "$@" |
		python3 -c 'import sys, yaml; print(yaml.safe_load(sys.stdin)["data"]["notes"])'
}
check_match "NOTES.txt: neither kubeDNSAddress nor webhook.nameservers, a warning that says what to set" \
	"WARNING: nothing in this release sends pods to the cache.*nodeCache.kubeDNSAddress=KUBE_DNS_IP.*webhook.nameservers=.169.254.53.10,KUBE_DNS_IP" \
	"$(notes | tr '\n' ' ')"
check_match "NOTES.txt: ... the webhook's nameservers without the webhook, the same" "WARNING" \
	"$(notes --set webhook.enabled=false --set 'webhook.nameservers={169.254.53.10,10.96.0.10}' | tr '\n' ' ')"
check "NOTES.txt: kubeDNSAddress, or the webhook's nameservers, and no warning" "0 0 1" \
	"$(notes --set nodeCache.kubeDNSAddress=10.96.0.10 | grep -c WARNING) $(notes --set 'webhook.nameservers={169.254.53.10,10.96.0.10}' | grep -c WARNING) $(notes | grep -c 'rollout status')"

# Servers that no longer hold the cluster domain (the list replaced, the
# cluster's server left out): the server refuses the chart's config, saying
# which domain and what the servers hold, before it serves anything.
render uncovered --set-json 'nodeCache.config.servers=[{"name":"corp","zones":["corp.example"],"forwardPlugin":{"upstreams":["10.32.9.53"]}}]'
object "$work/uncovered.yaml" ConfigMap | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["config.yaml"])' > "$work/uncovered-config.yaml"
mapfile -t settings < <(RESOLV_K8S_UPSTREAM_SERVICE_HOST=127.0.0.53 env_of "$work/uncovered.yaml")
echo 'nameserver 127.0.0.53' > "$work/resolv.conf"
check_match "servers without the cluster domain: the server refuses the chart's config, saying why" \
	"config.yaml:[0-9]+: clusterDomain: no server holds the cluster domain cluster.local., .*the servers hold corp.example. \('corp'\): add cluster.local. to the zones .* exit 1" \
	"$("$root/tests/pod/sandbox.sh" --resolv "$work/resolv.conf" -- env "${settings[@]}" \
		"$build/bin/resolv-k8s-server" --config "$work/uncovered-config.yaml" 2>&1 | tr '\n' ' '; echo "exit ${PIPESTATUS[0]}")"

# Bad values: refused before anything is rendered, naming the value.
refused() { helm template resolv-k8s "$chart" --namespace kube-system "$@" 2>&1 > /dev/null | tr '\n' ' '; }
check_match "a value of no such name: refused, named" "Additional property locaAddress is not allowed" \
	"$(refused --set nodeCache.locaAddress=169.254.53.10)"
check_match "webhook.autopath: option or marker" 'webhook.autopath must be one of the following: "option", "marker"' \
	"$(refused --set webhook.autopath=markr)"
check_match "the marker path without nameservers: refused, as the webhook would" "webhook.autopath marker needs webhook.nameservers" \
	"$(refused --set webhook.autopath=marker)"
check_match "nodeSearch: auto or a list" "nodeSearch" "$(refused --set nodeSearch=ec2.internal)"
check_match "a Secret of yours without its CA: refused" "webhook.tls.existingSecret needs webhook.tls.ca" \
	"$(refused --set webhook.tls.existingSecret=mine)"
check_match "cert-manager and a certificate both: refused" "webhook.certManager.enabled and webhook.tls: one of them" \
	"$(refused --set webhook.certManager.enabled=true,webhook.tls.existingSecret=mine,webhook.tls.ca=x)"
check_match "certificates certManager and a certificate both: refused" "webhook.certificates certManager and webhook.tls: one of them" \
	"$(refused --set webhook.certificates=certManager,webhook.tls.existingSecret=mine,webhook.tls.ca=x)"
check_match "certificates given without one: refused, saying what is needed" "webhook.certificates given needs webhook.tls.crt" \
	"$(refused --set webhook.certificates=given)"
check_match "certificates of no such mode: refused" 'webhook.certificates must be one of the following: "self", "certManager", "given"' \
	"$(refused --set webhook.certificates=helm)"
check_match "the node's search domains in two places: refused" "set nodeSearch instead" \
	"$(refused --set 'nodeSearch={a.example}' --set 'nodeCache.config.autopath.hostSearch={b.example}')"
check_match "the probes' address is config.health's: an httpGet of their own refused" 'Property name of "httpGet" does not match' \
	"$(refused --set nodeCache.livenessProbe.httpGet.port=9000)"
check_match "a health address without a port: refused" 'nodeCache.config: "127.0.0.1" is not ADDR:PORT' \
	"$(refused --set nodeCache.config.health=127.0.0.1)"
check_match "a caBundle ConfigMap without a name: refused" 'transportConfig.tls.caBundle.name: "" is not a ConfigMap' \
	"$(refused --set-json 'nodeCache.config.upstreamResolvers.transportConfig={"transport":"TLS","tls":{"serverName":"a.example","caBundle":{"key":"ca.crt"}}}')"
check_match "pdb: a minAvailable of every replica, refused (it would block every drain)" \
	"webhook.pdb.minAvailable 2 with webhook.replicas 2 blocks every drain" "$(refused --set webhook.pdb.minAvailable=2)"
check_match "pdb: ... or of 100%" "webhook.pdb.minAvailable 100% blocks every drain" "$(refused --set webhook.pdb.minAvailable=100%)"
check_match "hostNetwork false with nodeSetup: refused" "nodeCache.hostNetwork false: nodeSetup sets up the node's network" \
	"$(refused --set nodeCache.hostNetwork=false)"
check_match "hostNetwork false with health on the loopback: refused" "kubelet probes the pod's address, not 127.0.0.1" \
	"$(refused --set nodeCache.hostNetwork=false,nodeCache.config.nodeSetup=null)"
check_match "hostNetwork false listening on the link-local address: refused" "listen on it with nodeCache.config.listen" \
	"$(refused --set nodeCache.hostNetwork=false,nodeCache.config.nodeSetup=null,nodeCache.config.health=0.0.0.0:9255)"
check_match "a digest that is none: refused" "images.node.digest: Does not match pattern" \
	"$(refused --set images.node.digest=latest)"

summary
