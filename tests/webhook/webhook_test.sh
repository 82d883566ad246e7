#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# webhook_test.sh BUILD_DIR: `resolv-k8s webhook` in a network namespace,
# over TLS with container/webhook/certs.sh's CA, asked with curl as the API
# server asks. AdmissionReviews of a Deployment and of Pods: the patch,
# applied with python3-jsonpatch, gives the object `resolv-k8s inject`
# gives, valid against the Kubernetes schemas (both modes, the mode from an
# annotation); a second admission of the result patches nothing; opt-outs,
# kube-system, other operations and a pod inject leaves alone get no patch;
# bad requests get HTTP errors and the webhook serves on; a rotated
# certificate is served from the next connection; /healthz, /metrics (the
# creations admitted uninjected by reason, the certificate's expiry); the
# node's search domains read from its own resolv.conf; its bounds, in a
# memory cgroup of the 64Mi its Deployment allows: a 3.4 MB review, one at
# the bound on values, idle connections holding every review slot while
# /healthz answers, a request trickled a byte at a time, an endless request
# line, header line and run of headers.
set -uo pipefail
if [[ -z ${WEBHOOK_SANDBOX:-} ]]; then
	exec unshare --net --pid --fork --mount-proc env WEBHOOK_SANDBOX=1 "$0" "$@"
fi
ip link set lo up
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/lib/assert.sh"
build=$(cd "${1:?usage: webhook_test.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
host=resolv-k8s-webhook.kube-system.svc
nameservers=(--nameserver 169.254.20.10 --nameserver 10.96.0.10)
image=registry.example.com/dns/libresolv-k8s-init:1
"$root/container/webhook/certs.sh" "$work/certs" > /dev/null

# The webhook in a memory cgroup of the 64Mi its Deployment allows, no
# swap (the node tests' cgroup.sh; its trap, for the node's servers, gives
# way to ours).
source "$root/tests/node/cgroup.sh"
MEMORY_LIMIT=$((64 << 20))
cgroup=$(memory_cgroup "rk8s-webhook-${work##*/}")
[[ -d $cgroup ]] || exit 1
pid=
trap 'kill $pid 2>/dev/null; wait $pid; rmdir "$cgroup"; rm -rf "$work"' EXIT

start() {
	"${IN_CGROUP[@]}" "$cgroup" "$build/bin/resolv-k8s" webhook --cert "$work/certs/tls.crt" --key "$work/certs/tls.key" \
		--listen 127.0.0.1:8443 --log-level Debug --image "$image" "${nameservers[@]}" 2> "$work/webhook.err" &
	pid=$!
	local tries=0
	until https /healthz > /dev/null 2>&1; do
		((++tries < 100)) || { cat "$work/webhook.err"; exit 1; }
		sleep 0.05
	done
}
# https PATH [CURL ARGS]: the body, then the HTTP status on a line of its own.
https() {
	curl -sS --cacert "$work/certs/ca.crt" --resolve "$host:8443:127.0.0.1" -w '%{http_code}' \
		"${@:2}" "https://$host:8443$1"
}
post() { https /mutate -H 'Content-Type: application/json' --data-binary "@$1"; }
# tls MODE ARGS: a client of the webhook's over TLS, as a hostile pod's:
#   hold N          N connections opened and held; "held N" once all are
#   trickle TEXT    TEXT a byte each 0.25 s; "closed after I of N bytes"
#                   when the webhook answered or closed it, else "all sent"
#   endless PREFIX FILL
#                   PREFIX, then FILL again and again, 96 MiB at most;
#                   "closed BYTES" (sent before the webhook closed it), else
#                   "open BYTES"
tls() {
	python3 - "$work/certs/ca.crt" "$host" "$@" <<-'EOF'
		import socket, ssl, sys, time
		ca, host, mode, *args = sys.argv[1:]
		ctx = ssl.create_default_context(cafile=ca)
		def connect():
		    return ctx.wrap_socket(socket.create_connection(("127.0.0.1", 8443)), server_hostname=host)
		if mode == "hold":
		    held = [connect() for _ in range(int(args[0]))]
		    print("held", len(held), flush=True)
		    time.sleep(60)
		elif mode == "trickle":
		    text = args[0].encode()
		    s = connect()
		    s.settimeout(0.25)
		    for i in range(len(text)):
		        try:
		            s.sendall(text[i:i + 1])
		            s.recv(4096)
		        except socket.timeout:
		            continue
		        except OSError:
		            pass
		        sys.exit(print("closed after", i + 1, "of", len(text), "bytes"))
		    print("all sent")
		elif mode == "endless":
		    prefix, fill = args[0].encode(), args[1].encode() * (16384 // len(args[1]))
		    s, sent = connect(), 0
		    try:
		        s.sendall(prefix)
		        sent = len(prefix)
		        while sent < 96 << 20:
		            s.sendall(fill)
		            sent += len(fill)
		        print("open", sent)
		    except OSError:
		        print("closed", sent)
	EOF
}

# review FILE NAMESPACE [OPERATION]: the AdmissionReview the API server sends
# for the object in FILE (YAML).
review() {
	python3 - "$@" <<-'EOF'
		import json, sys, yaml
		obj = yaml.safe_load(open(sys.argv[1]))
		group, _, version = obj["apiVersion"].rpartition("/")
		print(json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
		    "uid": "0b7d1f3e-1111-4222-8333-444455556666",
		    "kind": {"group": group, "version": version, "kind": obj["kind"]},
		    "resource": {"group": group, "version": version, "resource": obj["kind"].lower() + "s"},
		    "namespace": sys.argv[2], "operation": sys.argv[3] if len(sys.argv) > 3 else "CREATE",
		    "object": obj}}))
	EOF
}
# patched REVIEW RESPONSE: the review's object with the response's patch
# applied (python3-jsonpatch), as JSON with sorted keys; the response's
# uid, allowed and warnings on stderr.
patched() {
	python3 - "$@" <<-'EOF'
		import base64, json, jsonpatch, sys
		obj = json.load(open(sys.argv[1]))["request"]["object"]
		r = json.loads(open(sys.argv[2]).read().rsplit("\n", 1)[0])["response"]
		print(r["uid"], r["allowed"], *r.get("warnings", []), file=sys.stderr)
		if "patch" in r:
		    assert r["patchType"] == "JSONPatch"
		    obj = jsonpatch.apply_patch(obj, json.loads(base64.b64decode(r["patch"])))
		print(json.dumps(obj, sort_keys=True, indent=1))
	EOF
}
# as_json FILE: a YAML object as JSON with sorted keys.
as_json() { python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), sort_keys=True, indent=1))' "$1"; }
models() { node "$root/tests/container/validate.mjs" "$build" "$@"; }

start

pod() {
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\n%s\nspec:\n  %s\n  containers: [{name: app, image: app:1, ports: [{containerPort: 80}], env: [{name: MODE, value: "on"}]}]\n' "$1" "${2:-restartPolicy: Always}"
}
cp "$root/container/app/deployment.yaml" "$work/deployment.yaml"
pod '  labels: {app: web}' > "$work/pod.yaml"
pod '  annotations: {resolv-k8s.io/autopath: marker}' > "$work/marker-pod.yaml"

# name FILE NAMESPACE [INJECT FLAGS]: the webhook's result against inject's.
same_as_inject() {
	local name=$1 file=$2 ns=$3
	shift 3
	review "$file" "$ns" > "$work/$name.review"
	post "$work/$name.review" > "$work/$name.response"
	check "$name: HTTP 200" 200 "$(tail -1 "$work/$name.response")"
	patched "$work/$name.review" "$work/$name.response" > "$work/$name.json" 2> "$work/$name.meta"
	check "$name: the request's uid, allowed" "0b7d1f3e-1111-4222-8333-444455556666 True" "$(< "$work/$name.meta")"
	"$build/bin/resolv-k8s" inject --image "$image" --namespace "$ns" "$@" "$file" > "$work/$name.injected.yaml"
	check "$name: the patched object is inject's" "$(as_json "$work/$name.injected.yaml")" "$(< "$work/$name.json")"
	check_match "$name: valid against the schemas" "1 valid" "$(models check "$work/$name.json")"
	# Admitted again (reinvocation, or a second webhook's turn): nothing to do.
	cp "$work/$name.json" "$work/$name.again.yaml"
	review "$work/$name.again.yaml" "$ns" > "$work/$name.again.review"
	post "$work/$name.again.review" > "$work/$name.again.response"
	check "$name: admitted again, no patch" 0 "$(grep -c '"patch"' "$work/$name.again.response")"
}
same_as_inject deployment "$work/deployment.yaml" shop "${nameservers[@]}"
same_as_inject pod "$work/pod.yaml" shop "${nameservers[@]}"
same_as_inject marker-pod "$work/marker-pod.yaml" shop --autopath marker "${nameservers[@]}"
check_match "marker-pod: the marker first, in the request's namespace" \
	'"search.shop.cluster.local.ap.k8s.io"' "$(< "$work/marker-pod.json")"

# --host-search auto: the node's search domains, those kubelet appended to
# the webhook's own pod's resolv.conf after the cluster's three.
printf 'nameserver 10.96.0.10\nsearch resolv-k8s.svc.cluster.local svc.cluster.local cluster.local ec2.internal corp.example\noptions ndots:5\n' \
	> "$work/webhook-resolv.conf"
mount --bind "$work/webhook-resolv.conf" /etc/resolv.conf
"$build/bin/resolv-k8s" webhook --cert "$work/certs/tls.crt" --key "$work/certs/tls.key" --listen 127.0.0.1:8444 \
	--image "$image" --nameserver 169.254.20.10,10.96.0.10 --host-search auto 2> "$work/auto.err" &
auto=$!
poll 30 curl -s -o /dev/null --cacert "$work/certs/ca.crt" --resolve "$host:8444:127.0.0.1" "https://$host:8444/healthz"
umount /etc/resolv.conf
review "$work/pod.yaml" shop > "$work/auto.review"
curl -sS --cacert "$work/certs/ca.crt" --resolve "$host:8444:127.0.0.1" -H 'Content-Type: application/json' \
	--data-binary "@$work/auto.review" "https://$host:8444/mutate" > "$work/auto.response"
patched "$work/auto.review" "$work/auto.response" > "$work/auto.json" 2> /dev/null
check "--host-search auto: the node's search domains after the pod's cluster ones" \
	'["shop.svc.cluster.local", "svc.cluster.local", "cluster.local", "ec2.internal", "corp.example"]' \
	"$(python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["spec"]["dnsConfig"]["searches"]))' "$work/auto.json")"
kill "$auto"
wait "$auto" 2>/dev/null
check "without --image: refused, the flag named" \
	"2 resolv-k8s: webhook: --image is needed: the init image from your registry, such as registry.example.com/dns/libresolv-k8s-init:TAG (make push writes it) (resolv-k8s --help)" \
	"$("$build/bin/resolv-k8s" webhook --cert "$work/certs/tls.crt" --key "$work/certs/tls.key" 2> "$work/noimage.err"; echo "$? $(cat "$work/noimage.err")")"

# left_alone NAME FILE NAMESPACE [OPERATION] WARNING: no patch, and WARNING.
left_alone() {
	review "$2" "$3" "${4:-CREATE}" > "$work/$1.review"
	post "$work/$1.review" > "$work/$1.response"
	patched "$work/$1.review" "$work/$1.response" > /dev/null 2> "$work/$1.meta"
	check "$1: no patch" "200 0" "$(tail -1 "$work/$1.response") $(grep -c '"patch"' "$work/$1.response")"
	check "$1: allowed, why" "0b7d1f3e-1111-4222-8333-444455556666 True${5:+ $5}" "$(< "$work/$1.meta")"
}
pod '  annotations: {resolv-k8s.io/inject: disabled}' > "$work/opt-out.yaml"
left_alone "annotated disabled" "$work/opt-out.yaml" shop CREATE \
	"resolv-k8s: not injected: its annotation resolv-k8s.io/inject is disabled"
pod '  labels: {resolv-k8s.io/inject: disabled}' > "$work/opt-out-label.yaml"
left_alone "labelled disabled" "$work/opt-out-label.yaml" shop CREATE \
	"resolv-k8s: not injected: its label resolv-k8s.io/inject is disabled"
left_alone "kube-system" "$work/pod.yaml" kube-system CREATE "resolv-k8s: not injected: in kube-system"
left_alone "an update" "$work/pod.yaml" shop UPDATE
pod '  annotations: {resolv-k8s.io/autopath: marker}' 'hostNetwork: true' > "$work/host.yaml"
left_alone "marker, on the node's network" "$work/host.yaml" shop CREATE \
	"resolv-k8s: spec: on the node's network with the node's DNS (hostNetwork), left as it is"
pod '  annotations: {resolv-k8s.io/autopath: sideways}' > "$work/bad-mode.yaml"
left_alone "an unknown mode" "$work/bad-mode.yaml" shop CREATE \
	"resolv-k8s: not injected: annotation resolv-k8s.io/autopath: 'sideways' is neither option nor marker"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n' > "$work/configmap.yaml"
left_alone "not a pod" "$work/configmap.yaml" shop

# Bad requests: an HTTP error, and the webhook serves on.
printf '{"apiVersion": "admission.k8s.io/v1",\n "kind": ' > "$work/truncated.json"
printf '{"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview", "request": {"uid": "u"}}' > "$work/v1beta1.json"
printf '{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {}}' > "$work/no-uid.json"
check "malformed JSON: 400, where" "request:2: Syntax error: value, object or array expected.
400" "$(post "$work/truncated.json")"
check "another version: 400" "not an admission.k8s.io/v1 AdmissionReview
400" "$(post "$work/v1beta1.json")"
check "no uid: 400" "an AdmissionReview without a request uid
400" "$(post "$work/no-uid.json")"
check "GET /mutate: 405" "POST an AdmissionReview
405" "$(https /mutate)"
head -c $((5 << 20)) /dev/zero | tr '\0' ' ' > "$work/huge.json"
check "5 MiB: 413" 413 "$(post "$work/huge.json" 2>&1 | tail -1)"
check "plain HTTP: no answer" 52 "$(curl -s -o /dev/null http://127.0.0.1:8443/mutate; echo $?)"
check "still serving" "ok
200" "$(https /healthz)"
check "/readyz: the files' certificate served" "ok
200" "$(https /readyz)"
check "another path: 404" "/mutate, /healthz, /readyz or /metrics
404" "$(https /nosuch)"

# A rotated Secret: the next connection gets the new certificate.
mv "$work/certs" "$work/old-certs"
"$root/container/webhook/certs.sh" "$work/certs" > /dev/null
check "rotated: the new CA verifies" 200 "$(https /healthz | tail -1)"
check "rotated: the old CA no longer does" 60 \
	"$(curl -s -o /dev/null --cacert "$work/old-certs/ca.crt" --resolve "$host:8443:127.0.0.1" "https://$host:8443/healthz"; echo $?)"
check_match "rotated: said on stderr" "serving with .*serving with" "$(< "$work/webhook.err")"

# Bounded: a 3.4 MB review is refused before it is read (413: failurePolicy
# Ignore admits the pod as it is); one at the bound on values is patched
# with a small annotation; either way the webhook stays under the 64Mi its
# Deployment allows (its peak RSS, VmHWM). Then connections: 8 for reviews
# and 4 more, the health reserve, for /healthz and /metrics alone; a
# request trickled in is cut at the connection's 10 s deadline; an endless
# request line or header is refused past 8 KiB.
big_review() { # ENTRIES: a pod of ENTRIES env variables of 140 bytes
	python3 - "$1" <<-'PYEOF'
		import json, sys
		env = [{"name": "VAR_%05d" % i, "value": "x" * 140} for i in range(int(sys.argv[1]))]
		pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"generateName": "big-"},
		       "spec": {"containers": [{"name": "app", "image": "app:1", "env": env}]}}
		print(json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
		    "uid": "0b7d1f3e-1111-4222-8333-444455556666", "kind": {"group": "", "version": "v1", "kind": "Pod"},
		    "namespace": "shop", "operation": "CREATE", "object": pod}}))
	PYEOF
}
peak_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status"; }
big_review 20000 > "$work/big.review"
big_review 3900 > "$work/bound.review"
check "a 3.4 MB review" yes "$(size=$(wc -c < "$work/big.review"); ((size > 3300000 && size < 3600000)) && echo yes)"
check "a 3.4 MB review: 413, before it is read" 413 "$(post "$work/big.review" | tail -1)"
post "$work/bound.review" > "$work/bound.response"
patched "$work/bound.review" "$work/bound.response" > "$work/bound.json" 2> /dev/null
check "a review at the bound (3900 variables, 0.7 MB): 200, patched" "200 1" \
	"$(tail -1 "$work/bound.response") $(grep -c '"patch"' "$work/bound.response")"
annotations=$(python3 -c 'import json, sys; print(len(json.dumps(json.load(open(sys.argv[1]))["metadata"]["annotations"])))' "$work/bound.json")
check "... its annotations at most 4 KiB" yes "$( ((annotations <= 4096)) && echo yes)" "$annotations bytes"
check "... the patch small: LD_PRELOAD added, not the variables again" yes \
	"$( (($(wc -c < "$work/bound.response") < 8192)) && echo yes)" "$(wc -c < "$work/bound.response") bytes"
big_review 10000 > "$work/over.review"
check "a review over the bound on values (1.8 MB): 413, and why" "over 20000 JSON keys and values, more than the webhook reads
413" "$(post "$work/over.review")"
check "peak memory under 64 MiB" yes "$( (($(peak_kib) < 65536)) && echo yes)" "$(peak_kib) KiB"
echo "webhook: peak RSS $(peak_kib) KiB after a 3.4 MB review (413), one at the bound ($(wc -c < "$work/bound.review") bytes, patched, annotations $annotations bytes) and one over it"
# Eleven idle TLS connections: eight hold every review slot, three the
# health reserve. A review on the next connection is refused (503) and
# shuts the oldest of the reserve's to make room; /healthz answers, and
# /metrics after it counts the eight still held (without the reserve
# /healthz would have waited for their deadline).
tls hold 11 > "$work/hold.out" &
holder=$!
poll 30 grep -qx "held 11" "$work/hold.out"
check "every review slot held: a review is refused, 503" \
	"every review slot is taken; this connection is for /healthz and /metrics
503" "$(post "$work/pod.review")"
check "... /healthz answers" "ok
200" "$(https /healthz)"
held=$(https /metrics)
for m in "connections 8" "health_connections 3" "health_connections_max 4" "health_connections_shut_total 1" \
	"reviews_busy_total 1" "request_header_bytes_max 8192"; do
	check_match "... counted: $m" "resolv_k8s_webhook_${m}[^0-9]" "$held"
done
kill "$holder"
wait "$holder" 2>/dev/null
trickled=$(tls trickle $'POST /mutate HTTP/1.1\r\nHost: resolv-k8s-webhook\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}')
check "a request trickled a byte at a time: cut before its end" yes \
	"$(read -r how _ sent _ all _ <<<"$trickled"; [[ $how == closed ]] && ((sent < all)) && echo yes)" "$trickled"
check_match "... counted" "resolv_k8s_webhook_connections_cut_total [1-9]" "$(https /metrics)"
# endless NAME PREFIX FILL: closed by the webhook before 96 MiB were sent
# (the bytes the client got rid of are mostly in the sockets' buffers),
# the webhook alive, not OOM-killed, and serving.
endless() {
	local out
	out=$(tls endless "$2" "$3")
	check "$1: closed by the webhook" closed "${out%% *}" "$out"
	alive "$1" "$pid" "$cgroup"
	check "$1: /healthz after" "ok
200" "$(https /healthz)"
	echo "webhook: $1: $out bytes sent, RSS $(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status") KiB"
}
endless "an endless request line" "POST /mutate" a
endless "an endless header line" $'POST /mutate HTTP/1.1\r\nHost: resolv-k8s-webhook\r\nX-Endless: ' a
endless "endless headers" $'POST /mutate HTTP/1.1\r\n' $'a: b\r\n'
check "peak memory still under 64 MiB" yes "$( (($(peak_kib) < 65536)) && echo yes)" "$(peak_kib) KiB"

metrics=$(https /metrics)
for m in "build_info{version=\"$("$build/bin/resolv-k8s" --version | cut -d' ' -f2)\"} 1" \
	"requests_total 20" "patches_total 4" "errors_total 6" "request_duration_seconds_count 18" \
	'pods_uninjected_total{reason="opted_out"} 2' 'pods_uninjected_total{reason="kube_system"} 1' \
	'pods_uninjected_total{reason="left_by_inject"} 1' 'pods_uninjected_total{reason="bad_annotation"} 1' \
	'pods_uninjected_total{reason="unchanged"} 4' 'pods_uninjected_total{reason="refused"} 4' \
	'pods_uninjected_total{reason="inject_error"} 0' 'certificate_sync_errors_total 0'; do
	check_match "metrics: $m" "resolv_k8s_webhook_${m//[\{\}]/.}" "$metrics"
done
# certs.sh's certificate, of ten years: its end, to the second.
check "metrics: the certificate's expiry" \
	"resolv_k8s_webhook_certificate_expiry_timestamp_seconds $(date -d "$(openssl x509 -enddate -noout -in "$work/certs/tls.crt" | cut -d= -f2)" +%s)" \
	"$(grep '^resolv_k8s_webhook_certificate_expiry' <<< "$metrics")"
kill "$pid"
wait "$pid"
check "SIGTERM: exit 0" 0 "$?"
# Certificates that do not load: the file and the cause, exit 1.
cert_error() { "$build/bin/resolv-k8s" webhook --cert "$1" --key "$2" --listen 127.0.0.1:8443 --image "$image" 2>&1; echo "exit $?"; }
check "a missing key: named" "resolv-k8s: webhook: $work/nokey.pem: No such file or directory
exit 1" "$(cert_error "$work/certs/tls.crt" "$work/nokey.pem")"
check "a certificate that is no certificate: named" "resolv-k8s: webhook: $work/certs/tls.key: not a PEM certificate (no start line)
exit 1" "$(cert_error "$work/certs/tls.key" "$work/certs/tls.key")"
check "a key of another certificate: named" "resolv-k8s: webhook: $work/old-certs/tls.key: not the key of $work/certs/tls.crt
exit 1" "$(cert_error "$work/certs/tls.crt" "$work/old-certs/tls.key")"
check_match "request log (Debug): a pod patched, with its uid and the seconds taken" \
	"webhook: [0-9a-f-]+ [a-z0-9-]+/[a-z0-9*-]+ Pod: patched \([0-9.]+ s\)" "$(< "$work/webhook.err")"
check_match "request log (Debug): a pod left, and why" "Pod: left as it is; resolv-k8s: " "$(< "$work/webhook.err")"
check_match "request log (Debug): a body refused, and why" \
	"webhook: refused: not an admission.k8s.io/v1 AdmissionReview" "$(< "$work/webhook.err")"
check_match "start and stop: said, with where it listens" \
	"webhook [0-9.]+: listening on 127.0.0.1:8443 \(HTTPS: POST /mutate, GET /healthz, GET /readyz, GET /metrics\).*SIGTERM: stopping" \
	"$(tr '\n' ' ' < "$work/webhook.err")"
summary
