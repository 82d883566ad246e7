#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# certificates_test.sh BUILD_DIR: `resolv-k8s webhook --tls-secret`, its own
# certificate kept through a stand-in API server (tests/lib/apiserver.py:
# TLS on the sandbox's loopback, the ServiceAccount's token, CA and
# namespace where kubelet mounts them). The Secret created when absent, the
# caBundle set to its CA and the certificate served for the Service's name;
# kept at a restart, the caBundle not patched again; another replica's taken
# after a 409; renewed near its end under the same CA; the chart's empty
# Opaque Secret filled, kept Opaque and Helm's; a replica whose
# clock runs ten days ahead (faketime) trusted beside one whose clock is
# right, whichever wrote first; a Secret changed
# while it runs served from the next round, its new CA patched in. `webhook
# check`: a dry run through the webhook finds the pod injected, and says why
# not where it is not. With no API server: alive (/healthz), not ready
# (/readyz), and TLS on its port all along, with a stand-in certificate.
set -uo pipefail
if [[ -z ${WEBHOOK_SANDBOX:-} ]]; then
	exec unshare --net --mount --pid --fork --mount-proc env WEBHOOK_SANDBOX=1 "$0" "$@"
fi
ip link set lo up
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/tests/lib/assert.sh"
build=$(cd "${1:?usage: certificates_test.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait; rm -rf "$work"' EXIT
host=resolv-k8s-webhook.kube-system.svc

mount -t tmpfs run /run
account=/var/run/secrets/kubernetes.io/serviceaccount
mkdir -p "$account"
# A year, as the API server's own: a replica whose clock runs ahead trusts it.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 365 -subj /CN=kube-apiserver \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$work/api.key" -out "$account/ca.crt" 2> /dev/null
echo token-of-the-webhook > "$account/token"
# Each request in $work/api.log: its method, path and Authorization header.
token='Bearer token-of-the-webhook'
echo kube-system > "$account/namespace"
export KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=6443

# state SECRET RACE: the stand-in's objects, the configuration without a caBundle.
state() {
	python3 -c 'import json, sys
print(json.dumps({"secret": json.loads(sys.argv[1]), "race": json.loads(sys.argv[2]), "mwc": {
    "apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
    "metadata": {"name": "resolv-k8s"}, "webhooks": [{"name": "inject.resolv-k8s.io",
    "clientConfig": {"service": {"name": "resolv-k8s-webhook", "namespace": "kube-system"}}}]}}))' \
		"${1:-null}" "${2:-null}" > "$work/state.json"
}
# key NAME: what the stand-in holds: a Secret's key decoded, or the caBundle.
held() {
	python3 -c 'import base64, json, sys
s = json.load(open(sys.argv[1]))
v = s["mwc"]["webhooks"][0]["clientConfig"].get("caBundle", "") if sys.argv[2] == "caBundle" else (s["secret"] or {}).get("data", {}).get(sys.argv[2], "")
print(base64.b64decode(v).decode(), end="")' "$work/state.json" "$1"
}
secret_json() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["secret"]))' "$work/state.json"; }
state
/usr/bin/python3 "$root/tests/lib/apiserver.py" "$work" "$account/ca.crt" "$work/api.key" 2> "$work/api.err" &
pids+=($!)

webhook=
# ready_on PORT: /readyz answers 200 (the Secret's certificate served).
ready_on() { [[ $(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$1/readyz") == 200 ]]; }
# run NAME [FLAGS]: the webhook started anew, until it is ready.
run() {
	[[ -n $webhook ]] && { kill "$webhook"; wait "$webhook"; }
	: > "$work/api.log"
	"$build/bin/resolv-k8s" webhook --tls-secret resolv-k8s-webhook-tls --listen 127.0.0.1:8443 --image init:1 \
		"${@:2}" 2> "$work/$1.err" &
	webhook=$!
	pids+=($webhook)
	poll 100 ready_on 8443
}
# served: the certificate the webhook serves (PEM).
served() {
	openssl s_client -connect 127.0.0.1:8443 -servername "$host" < /dev/null 2> /dev/null | openssl x509 2> /dev/null | grep -q . &&
		openssl s_client -connect 127.0.0.1:8443 -servername "$host" < /dev/null 2> /dev/null | openssl x509
}
# verified: the HTTP status of /healthz, the caBundle trusted for the Service's name.
verified() {
	held caBundle > "$work/bundle.pem"
	curl -s -o /dev/null -w '%{http_code}' --cacert "$work/bundle.pem" --resolve "$host:8443:127.0.0.1" "https://$host:8443/healthz"
}
writes() { grep -c '^\(POST\|PUT\|PATCH\) ' "$work/api.log"; }

run absent
check "absent: the Secret created, the caBundle patched, with the ServiceAccount's token" \
	"GET /api/v1/namespaces/kube-system/secrets/resolv-k8s-webhook-tls $token
POST /api/v1/namespaces/kube-system/secrets $token
GET /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/resolv-k8s $token
PATCH /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/resolv-k8s $token" "$(cat "$work/api.log")"
check "absent: the caBundle is the Secret's ca.crt" "$(held ca.crt)" "$(held caBundle)"
check "absent: served, the Secret's tls.crt" "$(held tls.crt)" "$(served)"
check "absent: trusted by the caBundle for $host" 200 "$(verified)"
check_match "absent: for the Service's three names, a year" \
	"DNS:$host, DNS:$host.cluster.local, DNS:resolv-k8s-webhook.kube-system" \
	"$(held tls.crt | openssl x509 -noout -ext subjectAltName)"
check "absent: EC P-256" "ASN1 OID: prime256v1" "$(held tls.crt | openssl x509 -noout -text | grep -o 'ASN1 OID: .*')"
check_match "absent: said" "Secret kube-system/resolv-k8s-webhook-tls: created.*caBundle set" "$(tr '\n' ' ' < "$work/absent.err")"
expiry=$(curl -s --cacert "$work/bundle.pem" --resolve "$host:8443:127.0.0.1" "https://$host:8443/metrics" |
	sed -n 's/^resolv_k8s_webhook_certificate_expiry_timestamp_seconds //p')
check "absent: the metric of its expiry, the certificate's" \
	"$(date -d "$(held tls.crt | openssl x509 -noout -enddate | cut -d= -f2)" +%s)" "$expiry"
first=$(secret_json)
held ca.crt > "$work/first-ca.crt"
held ca.key > "$work/first-ca.key"

run restart
check "a restart: the Secret read, nothing written (the caBundle holds its CA)" 0 "$(writes)" "$(cat "$work/api.log")"
check "a restart: the same certificate served" "$(held tls.crt)" "$(served)"

# Another replica wrote first: our POST gets 409, theirs is read and served.
state null "$first"
run raced
check "409: written once, read again, theirs served" "1 $(python3 -c 'import base64, json, sys; print(base64.b64decode(json.loads(sys.argv[1])["data"]["tls.crt"]).decode(), end="")' "$first")" \
	"$(grep -c "^POST .*/secrets $token\$" "$work/api.log") $(served)"
check_match "409: said" "another replica's, after a conflict" "$(< "$work/raced.err")"

# serving CRT KEY: the first state with CRT and KEY in the Secret, and the
# first CA in the caBundle.
serving() {
	state "$(python3 -c 'import base64, json, sys
s = json.loads(sys.argv[1])
s["data"]["tls.crt"] = base64.b64encode(open(sys.argv[2], "rb").read()).decode()
s["data"]["tls.key"] = base64.b64encode(open(sys.argv[3], "rb").read()).decode()
print(json.dumps(s))' "$first" "$1" "$2")"
	python3 - "$work/state.json" "$work/first-ca.crt" <<-'PY'
		import base64, json, sys
		s = json.load(open(sys.argv[1]))
		s["mwc"]["webhooks"][0]["clientConfig"]["caBundle"] = base64.b64encode(open(sys.argv[2], "rb").read()).decode()
		json.dump(s, open(sys.argv[1], "w"))
	PY
}

# Ten days left: renewed (PUT) under the same CA, no caBundle patch.
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$host" -keyout "$work/old.key" \
	-out "$work/old.csr" 2> /dev/null
printf 'subjectAltName=DNS:%s,DNS:%s.cluster.local,DNS:resolv-k8s-webhook.kube-system\n' "$host" "$host" > "$work/ext"
openssl x509 -req -in "$work/old.csr" -CA "$work/first-ca.crt" -CAkey "$work/first-ca.key" -CAcreateserial \
	-CAserial "$work/ca.srl" -days 10 -extfile "$work/ext" -out "$work/old.crt" 2> /dev/null
serving "$work/old.crt" "$work/old.key"
run renew
check "ten days left: renewed with a PUT, the caBundle not patched" "PUT /api/v1/namespaces/kube-system/secrets/resolv-k8s-webhook-tls $token" \
	"$(grep '^\(POST\|PUT\|PATCH\) ' "$work/api.log")"
check "ten days left: the same CA" "$(cat "$work/first-ca.crt")" "$(held ca.crt)"
check "ten days left: a new certificate served, a year long" "$(held tls.crt) yes" \
	"$(served) $( (($(date -d "$(held tls.crt | openssl x509 -noout -enddate | cut -d= -f2)" +%s) > $(date +%s) + 360 * 86400)) && echo yes)"
check_match "ten days left: said" "renewed: tls.crt expires within 90 days" "$(< "$work/renew.err")"
check "ten days left: trusted" 200 "$(verified)"

# The chart's Secret: empty, Opaque, Helm's: filled with a PUT (no create,
# which its Role does not allow), its type, labels and annotations kept.
state '{"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": {"name": "resolv-k8s-webhook-tls",
  "namespace": "kube-system", "resourceVersion": "7", "labels": {"app.kubernetes.io/managed-by": "Helm"},
  "annotations": {"meta.helm.sh/release-name": "resolv-k8s"}}}'
run chart
check "the chart's empty Secret: filled with a PUT, the caBundle patched" \
	"PUT /api/v1/namespaces/kube-system/secrets/resolv-k8s-webhook-tls $token
PATCH /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/resolv-k8s $token" \
	"$(grep '^\(POST\|PUT\|PATCH\) ' "$work/api.log")"
check "the chart's empty Secret: still Opaque and Helm's" '"Opaque" "Helm" "resolv-k8s"' \
	"$(secret_json | python3 -c 'import json, sys; s = json.load(sys.stdin); m = s["metadata"]
print(*(json.dumps(v) for v in (s["type"], m["labels"]["app.kubernetes.io/managed-by"], m["annotations"]["meta.helm.sh/release-name"])))')"
check "the chart's empty Secret: served, trusted" "$(held tls.crt) 200" "$(served) $(verified)"

# A replica whose clock runs ten days ahead (libfaketime), beside one whose
# clock is right, each on its port. 95 days left: by the clock ahead 85, so
# it renews, and the renewal starts where the Secret's certificates did, so
# the API server (this clock) trusts both replicas.
# libfaketime preloaded by hand (faketime(1) would wait on the replica as
# its child, and the replica's pid is what is stopped), the wall clock
# ahead: the monotonic one has no date, and libfaketime 0.9.10 would put the
# keeper's waits (pthread_cond_clockwait) ten days off.
ahead=(env "LD_PRELOAD=$(dpkg -L libfaketime | grep '/libfaketime\.so\.1$')" FAKETIME=+10d FAKETIME_DONT_FAKE_MONOTONIC=1)
# replica NAME PORT [FAKETIME...]: a replica started, until it is ready.
replica() {
	"${@:3}" "$build/bin/resolv-k8s" webhook --tls-secret resolv-k8s-webhook-tls --listen "127.0.0.1:$2" --image init:1 \
		--tls-secret-interval 1 2> "$work/$1.err" &
	pids+=($!)
	poll 100 ready_on "$2"
}
served_on() { openssl s_client -connect "127.0.0.1:$1" -servername "$host" < /dev/null 2> /dev/null | openssl x509 2> /dev/null; }
# verified_on PORT: /healthz's status through the caBundle, by this clock.
verified_on() {
	held caBundle > "$work/bundle.pem"
	curl -s -o /dev/null -w '%{http_code}' --cacert "$work/bundle.pem" --resolve "$host:$1:127.0.0.1" "https://$host:$1/healthz"
}
kill "$webhook"
wait "$webhook"
webhook=
openssl x509 -req -in "$work/old.csr" -CA "$work/first-ca.crt" -CAkey "$work/first-ca.key" -CAserial "$work/ca.srl" \
	-days 95 -extfile "$work/ext" -out "$work/95.crt" 2> /dev/null
serving "$work/95.crt" "$work/old.key"
replica right 8443
replica ahead 8444 "${ahead[@]}"
check_match "a clock ten days ahead: it renews" "renewed: tls.crt expires within 90 days" "$(< "$work/ahead.err")"
check "a clock ten days ahead: its renewal starts where the Secret's earliest certificate did, its CA" \
	"$(openssl x509 -noout -startdate < "$work/first-ca.crt")" "$(held tls.crt | openssl x509 -noout -startdate)"
taken() { [[ $(served_on 8443) == "$(held tls.crt)" && $(served_on 8444) == "$(held tls.crt)" ]]; }
eventually "a clock ten days ahead: both replicas serve its renewal" taken
check "a clock ten days ahead: /healthz through the caBundle, each replica" "200 200" "$(verified_on 8443) $(verified_on 8444)"
kill "${pids[-1]}" "${pids[-2]}"
wait "${pids[-1]}" "${pids[-2]}"

# No Secret: the clock ahead makes one that starts ten days from now; the
# right clock does not serve it, makes its own, which the clock ahead then
# takes.
state
replica ahead-first 8444 "${ahead[@]}"
replica right-second 8443
check_match "a clock ahead first: the right clock does not serve what starts past it" \
	"renewed: tls.crt is not valid yet" "$(< "$work/right-second.err")"
eventually "a clock ahead first: both replicas serve the right clock's" taken
check "a clock ahead first: /healthz through the caBundle, each replica" "200 200" "$(verified_on 8443) $(verified_on 8444)"
kill "${pids[-1]}" "${pids[-2]}"
wait "${pids[-1]}" "${pids[-2]}"

# Changed while it runs (another CA altogether): served from the next round,
# its CA patched into the caBundle first.
run watch --tls-secret-interval 1
python3 - "$work/state.json" <<-'PY'
	import json, sys
	s = json.load(open(sys.argv[1]))
	s["secret"] = None
	json.dump(s, open(sys.argv[1], "w"))
PY
replaced() { [[ $(held tls.crt) && $(served) == "$(held tls.crt)" && $(held caBundle) == "$(held ca.crt)" ]]; }
eventually "changed while running: the new Secret served, its CA the caBundle" replaced
check "changed while running: another CA" no "$( [[ $(held ca.crt) == "$(cat "$work/first-ca.crt")" ]] && echo yes || echo no)"
check "changed while running: trusted" 200 "$(verified)"

# webhook check: a dry run through the webhook, in a namespace it injects
# and in one it does not.
out=$("$build/bin/resolv-k8s" webhook check --namespace shop 2>&1)
check "check: a pod in shop injected, exit 0" "0" "$?" "$out"
check_match "check: says so" "a pod created in shop is injected: \{" "$out"
check "check: asked with a dry run" "1" "$(grep -c "^POST /api/v1/namespaces/shop/pods?dryRun=All $token\$" "$work/api.log")"
out=$("$build/bin/resolv-k8s" webhook check --namespace plain 2>&1)
check "check: a pod in plain (not sent to the webhook) not injected, exit 1" "1" "$?"
check_match "check: says why" "webhook check: a pod created in plain is not injected: no annotation resolv-k8s.io/injected" "$out"
kill "$webhook"
wait "$webhook"
check "SIGTERM: exit 0, the keeper's thread stopped" 0 "$?"

# No API server: nothing served, the reason said, tried again.
kill "${pids[0]}"
"$build/bin/resolv-k8s" webhook --tls-secret resolv-k8s-webhook-tls --listen 127.0.0.1:8443 --image init:1 2> "$work/noapi.err" &
pids+=($!)
said() { grep -q 'Connection refused' "$work/noapi.err"; }
eventually "no API server: said" said
check_match "no API server: why" "certificate: GET Secret kube-system/resolv-k8s-webhook-tls: connect 127.0.0.1:6443: Connection refused \(trying again\)" \
	"$(< "$work/noapi.err")"
# kubelet's HTTPS probes check no certificate (curl -k): the webhook alive,
# not ready; the port speaks TLS alone, with a stand-in nobody trusts.
check "no API server: /healthz alive, /readyz not ready, to kubelet's HTTPS probes" "200 503" \
	"$(curl -sk -o /dev/null -w '%{http_code}' https://127.0.0.1:8443/healthz) $(curl -sk -o /dev/null -w '%{http_code}' https://127.0.0.1:8443/readyz)"
check "no API server: no plain HTTP on the HTTPS port" 52 "$(curl -s -o /dev/null http://127.0.0.1:8443/healthz; echo $?)"
check_match "no API server: a stand-in served, trusted by no caBundle" "CN ?= ?no-certificate-yet.resolv-k8s.invalid" \
	"$(served | openssl x509 -noout -subject)"
summary
