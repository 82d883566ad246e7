# SPDX-License-Identifier: Apache-2.0
"""apiserver.py WORK CERT KEY: a stand-in for the Kubernetes API server over
TLS on 127.0.0.1:6443, for the webhook's own certificate (--tls-secret) and
`webhook check`. Its objects live in WORK/state.json, read and written at
each request so the test can change them between runs: "secret" (the
Secret kube-system/resolv-k8s-webhook-tls, or null), "mwc" (the
MutatingWebhookConfiguration resolv-k8s), "race" (a Secret another replica
writes just before the webhook's next write: that write gets 409). Each
request's method and path go to WORK/api.log. A pod POSTed with
?dryRun=All to a namespace other than "plain" goes through the webhook as
the API server sends it: an AdmissionReview to 127.0.0.1:8443, checked
against the caBundle for the Service's name, its patch applied."""
import base64, json, socket, ssl, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

import jsonpatch

work, cert, key = sys.argv[1:4]
SECRETS = "/api/v1/namespaces/kube-system/secrets"
SECRET = SECRETS + "/resolv-k8s-webhook-tls"
MWC = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/resolv-k8s"


def load():
    return json.load(open(work + "/state.json"))


def save(state):
    json.dump(state, open(work + "/state.json", "w"))


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


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, code, obj):
        body = json.dumps(obj if obj is not None else {"kind": "Status", "code": code}).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        with open(work + "/api.log", "a") as log:
            print(self.command, self.path, file=log)
        length = int(self.headers.get("Content-Length") or 0)
        sent = json.loads(self.rfile.read(length)) if length else None
        state = load()
        if self.command in ("POST", "PUT") and self.path.startswith(SECRETS) and state.get("race"):
            state["secret"], state["race"] = state["race"], None
            save(state)
            return self.answer(409, None)
        if self.command == "GET" and self.path == SECRET:
            return self.answer(200, state["secret"]) if state["secret"] else self.answer(404, None)
        if self.command == "POST" and self.path == SECRETS:
            if state["secret"]:
                return self.answer(409, None)
            sent["metadata"]["resourceVersion"] = "1"
            state["secret"] = sent
            save(state)
            return self.answer(201, sent)
        if self.command == "PUT" and self.path == SECRET:
            if sent["metadata"].get("resourceVersion") != state["secret"]["metadata"]["resourceVersion"]:
                return self.answer(409, None)
            sent["metadata"]["resourceVersion"] = str(int(sent["metadata"]["resourceVersion"]) + 1)
            state["secret"] = sent
            save(state)
            return self.answer(200, sent)
        if self.command == "GET" and self.path == MWC:
            return self.answer(200, state["mwc"])
        if self.command == "PATCH" and self.path == MWC:
            assert self.headers["Content-Type"] == "application/json-patch+json"
            state["mwc"] = jsonpatch.apply_patch(state["mwc"], sent)
            save(state)
            return self.answer(200, state["mwc"])
        if self.command == "POST" and self.path.endswith("/pods?dryRun=All"):
            ns = self.path.split("/")[4]
            if ns != "plain":
                ca = base64.b64decode(state["mwc"]["webhooks"][0]["clientConfig"]["caBundle"]).decode()
                sent = review(sent, ns, ca)
            return self.answer(201, sent)
        return self.answer(404, None)

    do_GET = do_POST = do_PUT = do_PATCH = handle_any

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 6443), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
