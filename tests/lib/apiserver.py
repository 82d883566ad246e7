# SPDX-License-Identifier: Apache-2.0
"""apiserver.py WORK CERT KEY: a stand-in for the Kubernetes API server over
TLS on 127.0.0.1:6443 (CERT and KEY its certificate), for the tests of what
asks it: the webhook's own certificate (--tls-secret) and `webhook check`
(tests/webhook/certificates_test.sh), the node cache's uninstall path
(tests/node/uninstall_test.sh). It says "listening" on stderr once it is.
Its objects live in WORK/state.json, read and written at each request so a
test can change them between runs:

  secret  the Secret kube-system/resolv-k8s-webhook-tls, or null (a PUT
          that changes its type gets 422, as its type is immutable)
  mwc     the MutatingWebhookConfiguration resolv-k8s
  race    a Secret another replica writes just before the webhook's next
          write: that write gets 409
  ds      the DaemonSet kube-system/resolv-k8s-node: present, deleting (a
          deletionTimestamp), gone (404), forbidden (403), unauthorized (401,
          as a token is refused once its pod was force-deleted or the
          signing key rotated), each refusal with kube-apiserver's Status;
          trickle (200 and its headers, then the body a byte every 2 s)

Each request's method, path and Authorization header go to WORK/api.log. A
pod POSTed with ?dryRun=All to a namespace other than "plain" goes through
the webhook as the API server sends it: an AdmissionReview to
127.0.0.1:8443, checked against the caBundle for the Service's name, its
patch applied."""
import base64, json, socket, ssl, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer

import jsonpatch

work, cert, key = sys.argv[1:4]
SECRETS = "/api/v1/namespaces/kube-system/secrets"
SECRET = SECRETS + "/resolv-k8s-webhook-tls"
MWC = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/resolv-k8s"
DAEMONSET = "/apis/apps/v1/namespaces/kube-system/daemonsets/resolv-k8s-node"
DAEMONSET_CODES = {"present": 200, "deleting": 200, "gone": 404, "forbidden": 403, "unauthorized": 401,
                   "trickle": 200}


def status(code, reason, message):
    """kube-apiserver's Status for a request it refuses."""
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason, "code": code}


DAEMONSET_REFUSALS = {
    404: status(404, "NotFound", 'daemonsets.apps "resolv-k8s-node" not found'),
    403: status(403, "Forbidden", 'daemonsets.apps "resolv-k8s-node" is forbidden: User '
                '"system:serviceaccount:kube-system:resolv-k8s-node" cannot get resource "daemonsets" in API '
                'group "apps" in the namespace "kube-system"'),
    401: status(401, "Unauthorized", "Unauthorized"),
}


def load():
    return json.load(open(work + "/state.json"))


def save(state):
    json.dump(state, open(work + "/state.json", "w"))


def lost_race(state):
    """Another replica's Secret written just before ours: held from now on."""
    if not state.get("race"):
        return False
    state["secret"], state["race"] = state["race"], None
    save(state)
    return True


def get_secret(request, state, sent):
    return request.answer(200, state["secret"]) if state["secret"] else request.answer(404, None)


def create_secret(request, state, sent):
    if lost_race(state) or state["secret"]:
        return request.answer(409, None)
    sent["metadata"]["resourceVersion"] = "1"
    state["secret"] = sent
    save(state)
    return request.answer(201, sent)


def replace_secret(request, state, sent):
    if lost_race(state) or sent["metadata"].get("resourceVersion") != state["secret"]["metadata"]["resourceVersion"]:
        return request.answer(409, None)
    if sent.get("type", "Opaque") != state["secret"].get("type", "Opaque"):
        return request.answer(422, None)  # a Secret's type is immutable
    sent["metadata"]["resourceVersion"] = str(int(sent["metadata"]["resourceVersion"]) + 1)
    state["secret"] = sent
    save(state)
    return request.answer(200, sent)


def get_mwc(request, state, sent):
    return request.answer(200, state["mwc"])


def patch_mwc(request, state, sent):
    assert request.headers["Content-Type"] == "application/json-patch+json"
    state["mwc"] = jsonpatch.apply_patch(state["mwc"], sent)
    save(state)
    return request.answer(200, state["mwc"])


def get_daemonset(request, state, sent):
    """The DaemonSet as state["ds"] says; large, and chunked when being
    deleted, as Go's server sends a large one."""
    code = DAEMONSET_CODES[state["ds"]]
    if code != 200:
        return request.answer(code, DAEMONSET_REFUSALS[code])
    ds = {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "resolv-k8s-node",
          "namespace": "kube-system", "annotations": {"padding": "x" * 3000}}}
    deleting = state["ds"] == "deleting"
    if deleting:
        ds["metadata"]["deletionTimestamp"] = "2026-11-28T10:00:00Z"
    if state["ds"] == "trickle":
        return trickle(request, ds)
    return request.answer(200, ds, chunked=deleting)


def trickle(request, obj):
    """200 and its headers at once, then the body a byte every 2 s, until
    the client gives up: an API server stalled mid-answer."""
    body = json.dumps(obj).encode()
    request.send_response(200)
    request.send_header("Content-Type", "application/json")
    request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    try:
        for i in range(len(body)):
            request.wfile.write(body[i:i + 1])
            time.sleep(2)
    except OSError:
        pass


def review(pod, ns, ca):
    """The webhook's answer to the review of `pod`, as the API server asks."""
    body = json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
        "uid": "u-1", "kind": {"group": "", "version": "v1", "kind": "Pod"}, "namespace": ns,
        "operation": "CREATE", "object": pod}}).encode()
    ctx = ssl.create_default_context(cadata=ca)
    with ctx.wrap_socket(socket.create_connection(("127.0.0.1", 8443)),
                         server_hostname="resolv-k8s-webhook.kube-system.svc") as s:
        s.sendall(b"POST /mutate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    response = json.loads(answer.split(b"\r\n\r\n", 1)[1])["response"]
    if "patch" in response:
        pod = jsonpatch.apply_patch(pod, json.loads(base64.b64decode(response["patch"])))
    return pod


def create_pod_dry_run(request, state, sent):
    ns = request.path.split("/")[4]
    if ns != "plain":
        ca = base64.b64decode(state["mwc"]["webhooks"][0]["clientConfig"]["caBundle"]).decode()
        sent = review(sent, ns, ca)
    return request.answer(201, sent)


ROUTES = {
    ("GET", SECRET): get_secret,
    ("POST", SECRETS): create_secret,
    ("PUT", SECRET): replace_secret,
    ("GET", MWC): get_mwc,
    ("PATCH", MWC): patch_mwc,
    ("GET", DAEMONSET): get_daemonset,
}


def route(method, path):
    """The function that answers METHOD PATH, or None."""
    if method == "POST" and path.endswith("/pods?dryRun=All"):
        return create_pod_dry_run
    return ROUTES.get((method, path))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, code, obj, chunked=False):
        body = json.dumps(obj if obj is not None else {"kind": "Status", "code": code}).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        if not chunked:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i in range(0, len(body), 1000):
            part = body[i:i + 1000]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
        self.wfile.write(b"0\r\n\r\n")

    def handle_any(self):
        with open(work + "/api.log", "a") as log:
            print(self.command, self.path, self.headers.get("Authorization"), file=log)
        length = int(self.headers.get("Content-Length") or 0)
        sent = json.loads(self.rfile.read(length)) if length else None
        answer = route(self.command, self.path)
        return answer(self, load(), sent) if answer else self.answer(404, None)

    do_GET = do_POST = do_PUT = do_PATCH = handle_any

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 6443), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print("listening", file=sys.stderr, flush=True)
server.serve_forever()
