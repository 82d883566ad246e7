# SPDX-License-Identifier: Apache-2.0
"""apiserver.py PORT NAMESPACE DIR: a stand-in for the Kubernetes API server
on 127.0.0.1:PORT, holding one object, the Secret resolv-k8s-webhook-tls
of NAMESPACE made of DIR's tls.crt, tls.key and ca.crt: what `helm
template --dry-run=server` asks for the chart's lookup (discovery, then the
Secret). Every path asked is written to stderr."""
import base64
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

port, namespace, pems = int(sys.argv[1]), sys.argv[2], sys.argv[3]
data = {key: base64.b64encode(open(f"{pems}/{key}", "rb").read()).decode() for key in ("tls.crt", "tls.key", "ca.crt")}
objects = {
    "/version": {"major": "1", "minor": "31", "gitVersion": "v1.31.0"},
    "/api": {"kind": "APIVersions", "versions": ["v1"]},
    "/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": []},
    "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
        {"name": "secrets", "singularName": "secret", "namespaced": True, "kind": "Secret", "verbs": ["get"]}]},
    f"/api/v1/namespaces/{namespace}/secrets/resolv-k8s-webhook-tls": {
        "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls", "data": data,
        "metadata": {"name": "resolv-k8s-webhook-tls", "namespace": namespace}},
}
not_found = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?")[0]
        print(path, file=sys.stderr, flush=True)
        body = objects.get(path, not_found)
        self.send_response(200 if path in objects else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(body).encode())

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", port), Handler).serve_forever()
