# SPDX-License-Identifier: Apache-2.0
"""kube_objects_api.py CLUSTER ADDR:PORT: a stand-in for the Kubernetes API
server over plain HTTP that serves the objects of a kubectl dump (CLUSTER,
tests/fixtures/cluster.json) read-only, as the kube-apiserver answers the
informers of CoreDNS's kubernetes plugin (client-go 0.35): list and watch of
v1 Namespaces, Services and Pods and discovery.k8s.io/v1 EndpointSlices,
label selectors and field selectors of metadata.name, metadata.namespace
and status.phase, /version, /api, /apis.

- The objects get what the API server adds on create: a uid, a
  resourceVersion (one counter, in the dump's order), a creationTimestamp,
  and the defaults CoreDNS reads (a Service's type ClusterIP, clusterIPs
  from clusterIP, a port's protocol TCP; an EndpointSlice port's name ""
  and protocol TCP; a Namespace's kubernetes.io/metadata.name label).
- A list is the kind's List, its metadata.resourceVersion the newest
  object's, items without kind and apiVersion; limit is ignored, as the
  watch cache does for resourceVersion=0.
- A watch with sendInitialEvents=true (client-go's WatchListClient, on by
  default since 0.35) streams an ADDED event per object, then the BOOKMARK
  annotated k8s.io/initial-events-end; any watch then stays open without
  events until its timeoutSeconds, and ends as the API server ends it.
- JSON only: client-go asks "application/vnd.kubernetes.protobuf, */*",
  and JSON is what */* lets the server send (kube-apiserver sends
  protobuf).

It says "listening" on stderr once it is, then one line per request."""
import json, re, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

RESOURCES = {  # path: kind, apiVersion
    "/api/v1/namespaces": ("Namespace", "v1"),
    "/api/v1/services": ("Service", "v1"),
    "/api/v1/pods": ("Pod", "v1"),
    "/apis/discovery.k8s.io/v1/endpointslices": ("EndpointSlice", "discovery.k8s.io/v1"),
}
VERSION = {"major": "1", "minor": "37", "gitVersion": "v1.37.2", "platform": "linux/amd64"}
CREATED = "2025-01-01T00:00:00Z"


def defaulted(obj, rv):
    meta = obj.setdefault("metadata", {})
    meta.setdefault("uid", "00000000-0000-4000-8000-%012d" % rv)
    meta["resourceVersion"] = str(rv)
    meta.setdefault("creationTimestamp", CREATED)
    spec = obj.setdefault("spec", {})
    if obj["kind"] == "Namespace":
        meta.setdefault("labels", {})["kubernetes.io/metadata.name"] = meta["name"]
        obj.setdefault("status", {"phase": "Active"})
    elif obj["kind"] == "Service":
        spec.setdefault("type", "ClusterIP")
        if "clusterIP" in spec:
            spec.setdefault("clusterIPs", [spec["clusterIP"]])
        for port in spec.get("ports", []):
            port.setdefault("protocol", "TCP")
    elif obj["kind"] == "EndpointSlice":
        for port in obj.get("ports") or []:
            port.setdefault("name", "")
            port.setdefault("protocol", "TCP")
    return obj


def load(path):
    objects = {kind: [] for kind, _ in RESOURCES.values()}
    for rv, item in enumerate(json.load(open(path))["items"], start=1):
        if item.get("kind") in objects:
            objects[item["kind"]].append(defaulted(item, rv))
    return objects, str(rv)


def selected(values, selector):
    """A label or field selector's equality and existence terms, comma-joined:
    KEY=V, KEY==V, KEY!=V, KEY, !KEY."""
    for term in filter(None, selector.split(",")):
        key, op, value = re.fullmatch(r"(!?[^!=]+)(!=|==|=)?(.*)", term).groups()
        if not op:
            if (key[1:] in values) if key.startswith("!") else (key not in values):
                return False
        elif (values.get(key) == value) != (op != "!="):
            return False
    return True


def fields(obj):
    meta = obj["metadata"]
    return {"metadata.name": meta["name"], "metadata.namespace": meta.get("namespace", ""),
            "status.phase": obj.get("status", {}).get("phase", "Pending")}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send_json(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def not_found(self):
        self.send_json(404, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                             "message": "the server could not find the requested resource",
                             "reason": "NotFound", "details": {}, "code": 404})

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def watch(self, kind, version, items, query):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if query.get("sendInitialEvents") == ["true"]:
            for obj in items:
                self.chunk(json.dumps({"type": "ADDED", "object": obj}).encode() + b"\n")
            end = {"kind": kind, "apiVersion": version,
                   "metadata": {"resourceVersion": RV, "creationTimestamp": None,
                                "annotations": {"k8s.io/initial-events-end": "true"}}}
            self.chunk(json.dumps({"type": "BOOKMARK", "object": end}).encode() + b"\n")
        time.sleep(int(query.get("timeoutSeconds", ["1800"])[0]))
        self.chunk(b"")

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/version":
            return self.send_json(200, VERSION)
        if url.path == "/api":
            return self.send_json(200, {"kind": "APIVersions", "versions": ["v1"],
                                        "serverAddressByClientCIDRs": []})
        if url.path == "/apis":
            return self.send_json(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
                {"name": "discovery.k8s.io", "versions": [{"groupVersion": "discovery.k8s.io/v1", "version": "v1"}],
                 "preferredVersion": {"groupVersion": "discovery.k8s.io/v1", "version": "v1"}}]})
        if url.path not in RESOURCES:
            return self.not_found()
        kind, version = RESOURCES[url.path]
        items = [dict(o, kind=kind, apiVersion=version) for o in OBJECTS[kind]
                 if selected(o["metadata"].get("labels", {}), query.get("labelSelector", [""])[0])
                 and selected(fields(o), query.get("fieldSelector", [""])[0])]
        if query.get("watch") == ["true"]:
            return self.watch(kind, version, items, query)
        for obj in items:
            del obj["kind"], obj["apiVersion"]
        self.send_json(200, {"kind": kind + "List", "apiVersion": version,
                             "metadata": {"resourceVersion": RV}, "items": items})


OBJECTS, RV = load(sys.argv[1])
host, port = sys.argv[2].rsplit(":", 1)
server = ThreadingHTTPServer((host, int(port)), Handler)
server.daemon_threads = True
print("kube_objects_api: listening on " + sys.argv[2], file=sys.stderr, flush=True)
server.serve_forever()
