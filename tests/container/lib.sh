# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # root, build and work: the sourcing script's
# What container_test.sh and chart_test.sh share: reading rendered
# manifests, and running the node cache's rendering in a sandbox. Source it
# with root, build and work set.
#
#   models check|get ...   validate.mjs with build's node_modules
#   field FILE PATH [KIND [NAME]]
#                          the JSON at PATH in each object (of KIND, named NAME) of FILE
#   unjson                 a JSON string on stdin printed as text, other JSON as it is
#   env_of FILE            the DaemonSet container's settings, NAME=VALUE lines
#   webhook_args FILE      the webhook's arguments, expanded from its settings
#   serve NAME ADDRESS [UPSTREAM...]
#                          work/NAME.yaml's cache run with work/NAME-config.yaml
#                          (SERVE_SETUP: shell run in the sandbox before it)

pod=spec.template.spec
models() { node "$root/tests/container/validate.mjs" "$build" "$@"; }
field() { models get "$1" "$2" | sed -n "s|^${3:-[^:]*}/${4:-[^:]*}: ||p"; }
unjson() { python3 -c 'import json, sys; v = json.load(sys.stdin); print(v if isinstance(v, str) else json.dumps(v))'; }

# $(VAR) as kubelet expands it (RESOLV_K8S_UPSTREAM_SERVICE_HOST from the
# environment).
env_of() {
	python3 -c 'import os, re, sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == "DaemonSet":
        for e in d["spec"]["template"]["spec"]["containers"][0]["env"]:
            if "valueFrom" in e:  # the namespace, as kubelet gives it
                assert e["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.namespace"}}, e
                e["value"] = d["metadata"].get("namespace", "kube-system")
            print(e["name"] + "=" + re.sub(r"\$\((\w+)\)", lambda m: os.environ.get(m.group(1), m.group(0)), e["value"]))' "$1" | sort
}

webhook_args() {
	python3 -c 'import re, sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == "Deployment":
        c = d["spec"]["template"]["spec"]["containers"][0]
        env = {e["name"]: e["value"] for e in c["env"]}
        print(" ".join("\x27%s\x27" % re.sub(r"\$\((\w+)\)", lambda m: env[m.group(1)], a) for a in c["args"]))' "$1"
}

# probe_url FILE PROBE: the DaemonSet's probe's URL; without a host, the
# pod's address (the node's: 127.0.0.1 in the sandbox).
probe_url() {
	field "$1" "$pod.containers[0].$2.httpGet" DaemonSet |
		python3 -c 'import json, sys; g = json.load(sys.stdin); print("http://%s:%s%s" % (g.get("host", "127.0.0.1"), g["port"], g["path"]))'
}

# The configuration as the node runs it, with the DaemonSet's settings
# (kubelet's RESOLV_K8S_UPSTREAM_SERVICE_HOST: the sandbox's resolver): its
# interface and rules in the sandbox's network, the lock in a tmpfs, the
# node's resolver (what SystemResolvConf reads) a server on 127.0.0.53, and
# on each UPSTREAM (the stub zones' and extra servers': an upstream that
# never answers would make the cache not ready). The probes, the metrics
# port and the DNS port are the DaemonSet's. Prints the probes' HTTP
# statuses, the answer for www.example.com asked at ADDRESS (nosuch.example.com
# is asked too, and prints nothing: NXDOMAIN), and "counted"
# when the metrics count it; the server's stderr in work/NAME.err, its
# metrics in work/NAME.err.metrics. SERVE_SETUP, when set, is run in the
# sandbox first (what the node would hold besides: a volume, a DoT server).
serve() {
	local rendering=$work/$1.yaml settings
	mapfile -t settings < <(RESOLV_K8S_UPSTREAM_SERVICE_HOST=127.0.0.53 env_of "$rendering")
	echo 'nameserver 127.0.0.53' > "$work/resolv.conf"
	# shellcheck disable=SC2016 # expanded in the sandbox
	"$root/tests/pod/sandbox.sh" --resolv "$work/resolv.conf" -- env "${settings[@]}" SERVE_SETUP="${SERVE_SETUP:-}" bash -c '
		mount -t tmpfs run /run
		eval "$SERVE_SETUP"
		listen=(--listen 127.0.0.53:53)
		for up in "${@:9}"; do ip addr add "$up/32" dev lo && listen+=(--listen "$up:53"); done
		"$1" "${listen[@]}" --zone tests/fixtures/example.com.zone 2> "$3.node" &
		# The node'"'"'s resolver first: a cache on 0.0.0.0:53 would otherwise
		# take its own loop probe to 127.0.0.53:53 and find a loop.
		for _ in $(seq 300); do grep -qs listening "$3.node" && break; sleep 0.1; done
		"$1" --config "$2" 2> "$3" &
		for _ in $(seq 300); do grep -qs listening "$3" && break; sleep 0.1; done
		curl -s -o /dev/null -w "%{http_code}\n" "$4"
		curl -s -o /dev/null -w "%{http_code}\n" "$5"
		dig +short +tries=1 +time=5 -p "$7" @"$8" www.example.com
		dig +short +tries=1 +time=5 -p "$7" @"$8" nosuch.example.com  # a denial, in any query log
		curl -s "http://127.0.0.1:$6/metrics" > "$3.metrics"
		grep -q "^resolv_k8s_queries_total{type=\"A\"" "$3.metrics" && echo counted' - \
		"$build/bin/resolv-k8s-server" "$work/$1-config.yaml" "$work/$1.err" "$(probe_url "$rendering" livenessProbe)" \
		"$(probe_url "$rendering" readinessProbe)" "$(field "$rendering" "$pod.containers[0].ports[name=metrics].containerPort" DaemonSet)" \
		"$(field "$rendering" "$pod.containers[0].ports[name=dns].containerPort" DaemonSet)" "${@:2}"
}
