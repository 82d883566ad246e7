#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# certs.sh DIR [SERVICE [NAMESPACE]]: a CA and the webhook's serving
# certificate (openssl) of your own, for the chart's webhook.certificates
# given (--set-file webhook.tls.crt=DIR/tls.crt, .key, .ca) or a Secret of
# yours; the chart's default (self) and the kustomize base make their own
# instead. In DIR:
#   ca.crt              the CA: its base64 is the MutatingWebhookConfiguration's caBundle
#   tls.crt, tls.key    for SERVICE.NAMESPACE.svc (default resolv-k8s-webhook.kube-system,
#                       where the chart and the kustomize base install it)
# The CA's key is not kept: a new certificate means a new CA and caBundle.
set -euo pipefail
dir=${1:?usage: certs.sh DIR [SERVICE [NAMESPACE]]}
service=${2:-resolv-k8s-webhook} namespace=${3:-kube-system}
name=$service.$namespace.svc
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
	-subj "/CN=resolv-k8s webhook CA" -keyout "$work/ca.key" -out "$dir/ca.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$name" \
	-keyout "$dir/tls.key" -out "$work/tls.csr" 2>/dev/null
printf 'subjectAltName=DNS:%s,DNS:%s.%s,DNS:%s.cluster.local\nextendedKeyUsage=serverAuth\n' \
	"$name" "$service" "$namespace" "$name" > "$work/ext"
openssl x509 -req -in "$work/tls.csr" -CA "$dir/ca.crt" -CAkey "$work/ca.key" -CAserial "$work/ca.srl" -CAcreateserial \
	-days 3650 -extfile "$work/ext" -out "$dir/tls.crt" 2>/dev/null
chmod 600 "$dir/tls.key"
echo "certs.sh: $dir/ca.crt, $dir/tls.crt, $dir/tls.key for $name"
