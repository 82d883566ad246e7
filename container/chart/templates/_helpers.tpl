{{/* SPDX-License-Identifier: Apache-2.0 */}}

{{/* The start of every object's name, FULLNAME-node, FULLNAME-webhook,
...: fullnameOverride, else nameOverride, else the chart's name; not the
release's (one release per cluster: the cache's ports are the node's). */}}
{{- define "resolv-k8s.fullname" -}}
{{- .Values.fullnameOverride | default .Values.nameOverride | default .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end }}

{{/* The labels of every object: Helm's, the component's name, and
commonLabels; the cache's also k8s-app, as NodeLocal DNSCache's objects,
which the operator guide's rollback check selects them by. The component's
name stays whatever fullnameOverride says: the pods' selectors, the alerts
and the dashboard select by it. */}}
{{- define "resolv-k8s.labels" -}}
{{- if eq .name "resolv-k8s-node" -}}
k8s-app: resolv-k8s-node
{{ end -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* An image of .Values.images: REGISTRY/REPOSITORY:TAG[@DIGEST]. */}}
{{- define "resolv-k8s.image" -}}
{{- $image := index .root.Values.images .image -}}
{{- $registry := trimSuffix "/" .root.Values.registry -}}
{{- $ref := printf "%s:%s" $image.repository ($image.tag | default .root.Chart.AppVersion) -}}
{{- if $registry }}{{ $ref = printf "%s/%s" $registry $ref }}{{ end -}}
{{- if $image.digest }}{{ $ref = printf "%s@%s" $ref $image.digest }}{{ end -}}
{{- $ref -}}
{{- end }}

{{/* ADDR:PORT (config.health, config.metrics) as {"host": ..., "port": ...}, in JSON. */}}
{{- define "resolv-k8s.hostPort" -}}
{{- $port := regexFind "[0-9]+$" . -}}
{{- if not (regexMatch "^.+:[0-9]+$" .) }}{{ fail (printf "nodeCache.config: %q is not ADDR:PORT" .) }}{{ end -}}
{{- dict "host" (trimSuffix (printf ":%s" $port) . | trimPrefix "[" | trimSuffix "]") "port" (atoi $port) | toJson -}}
{{- end }}

{{/* Where the DaemonSet mounts each ConfigMap a transportConfig's caBundle
names: DIR/NAME/, read-only (not under /etc/resolv-k8s, the config's own
ConfigMap, where a runtime cannot make the mount point). */}}
{{- define "resolv-k8s.caDir" -}}/etc/resolv-k8s-ca{{- end }}

{{/* The ConfigMaps of the CA bundles the cache's config names, sorted, one
a line. Given a config (a dict with servers and upstreamResolvers), each
transportConfig.tls.caBundle given as OpenShift's reference to a ConfigMap,
{name: NAME} (its key ca-bundle.crt, as OpenShift's), or {name: NAME, key:
KEY}, is made in it the file the DaemonSet mounts, caDir/NAME/KEY; a
caBundle given as a file name stays as it is. */}}
{{- define "resolv-k8s.caBundles" -}}
{{- $names := dict -}}
{{- $forwards := list -}}
{{- range .servers | default list }}{{ with .forwardPlugin }}{{ $forwards = append $forwards . }}{{ end }}{{ end -}}
{{- with .upstreamResolvers }}{{ $forwards = append $forwards . }}{{ end -}}
{{- range $forwards -}}
{{- $tls := dig "transportConfig" "tls" dict . -}}
{{- if and (kindIs "map" $tls) (kindIs "map" $tls.caBundle) -}}
{{- $ca := $tls.caBundle -}}
{{- range $k, $_ := $ca }}{{ if not (has $k (list "name" "key")) }}{{ fail (printf "transportConfig.tls.caBundle: %s: a ConfigMap is {name, key}" $k) }}{{ end }}{{ end -}}
{{- $name := toString ($ca.name | default "") -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$" $name) -}}
{{- fail (printf "transportConfig.tls.caBundle.name: %q is not a ConfigMap's name" $name) -}}
{{- end -}}
{{- $key := toString ($ca.key | default "ca-bundle.crt") -}}
{{- if not (regexMatch "^[-._a-zA-Z0-9]+$" $key) }}{{ fail (printf "transportConfig.tls.caBundle.key: %q is not a ConfigMap key" $key) }}{{ end -}}
{{- $_ := set $tls "caBundle" (printf "%s/%s/%s" (include "resolv-k8s.caDir" .) $name $key) -}}
{{- $_ := set $names $name true -}}
{{- end -}}
{{- end -}}
{{- keys $names | sortAlpha | join "\n" -}}
{{- end }}

{{/* nodeSearch as the webhook's NODE_SEARCH: "auto", or the domains
comma-separated. */}}
{{- define "resolv-k8s.nodeSearch" -}}
{{- $search := .Values.nodeSearch -}}
{{- if kindIs "slice" $search }}{{ join "," $search }}
{{- else if eq (toString $search) "auto" }}auto
{{- else }}{{ fail (printf "nodeSearch: %v is neither auto nor a list of domains" $search) }}
{{- end -}}
{{- end }}

{{/* How the webhook gets its serving certificate: self, certManager or
given (webhook.certificates). The older values say it too, and keep
working: certManager.enabled true is certManager, webhook.tls.crt or
existingSecret set is given; a contradiction fails, naming both. */}}
{{- define "resolv-k8s.webhookCertificates" -}}
{{- $v := .Values.webhook -}}
{{- $mode := $v.certificates | default "self" -}}
{{- $given := or $v.tls.crt $v.tls.existingSecret -}}
{{- if $v.certManager.enabled -}}
{{- if $given }}{{ fail "webhook.certManager.enabled and webhook.tls: one of them" }}{{ end -}}
{{- if eq $mode "given" }}{{ fail "webhook.certManager.enabled and webhook.certificates given: one of them" }}{{ end -}}
{{- $mode = "certManager" -}}
{{- else if $given -}}
{{- if eq $mode "certManager" }}{{ fail "webhook.certificates certManager and webhook.tls: one of them" }}{{ end -}}
{{- $mode = "given" -}}
{{- else if eq $mode "given" -}}
{{- fail "webhook.certificates given needs webhook.tls.crt, .key and .ca (the PEMs certs.sh writes) or webhook.tls.existingSecret" -}}
{{- end -}}
{{- $mode -}}
{{- end }}
