# SPDX-License-Identifier: Apache-2.0
# cluster_report.py WORK OUT NODES PODS LOOKUPS INTERVAL_MS DELAY_MS DOWN_MS
#   MACHINE TREE: the figures of cluster_bench.sh's runs (WORK/run-*: pod
# P's answers P.out and microseconds P.lat, the counters in meta) as JSON in
# OUT and a Markdown table in OUT's .md (printed too). Every answer is
# compared with the kube-dns-only run's, lookup by lookup; those that
# differ are listed in OUT's .errors (run, pod, lookup: answer, then the
# kube-dns-only one).
import json
import re
import sys
from pathlib import Path

work = Path(sys.argv[1])
out = Path(sys.argv[2])
nodes, pods, lookups, interval, delay, down = map(int, sys.argv[3:9])
machine, tree = sys.argv[9], sys.argv[10]
CLIENTS = ["glibc", "musl", "go", "python"]  # by pod number mod 4 (cluster_bench.sh's client)


def answers(path):
    """One string per lookup: gai-probe prints a line per address, each
    starting "NAME: "; a pod never looks the same name up twice in a row."""
    groups, last = [], None
    for line in path.read_text().splitlines():
        name = line.split(": ", 1)[0]
        if name == last:
            groups[-1] += "\n" + line
        else:
            groups.append(line)
        last = name
    return groups


def latencies(path):
    return [int(x) for x in path.read_text().split()]


def meta(run):
    fields, caches = {}, []
    for line in (run / "meta").read_text().splitlines():
        key, *values = line.split()
        if key == "cache":
            caches.append((float(values[0]), int(values[1])))
        else:
            fields[key] = float(values[0])
    return fields, caches


def pct(values, p):
    if not values:
        return 0.0
    s = sorted(values)
    return round(s[min(len(s) - 1, int(p / 100 * len(s)))] / 1000, 3)


reference = {p: answers(work / "run-kube-dns" / f"{p}.out") for p in range(nodes * pods)}
differing = []


def temporary(answer):
    """A failure to get an answer: EAI_AGAIN (-3), Go's temporary."""
    return re.search(r": (error EAI_AGAIN|temporary|error -3)$", answer) is not None


def differ(run, p, got):
    """The indices of pod P's lookups whose answer is not kube-dns only's or
    is a temporary failure (kube-dns only's own errors), each noted in
    differing."""
    want = reference[p]
    bad = [k for k in range(lookups) if k >= len(got) or got[k] != want[k] or temporary(got[k])]
    for k in bad:
        differing.append(f"{run.name} pod {p} lookup {k}:\n  {got[k] if k < len(got) else '(none)'}\n  {want[k]}")
    return bad


def stack(run, pod_range=range(nodes * pods)):
    fields, caches = meta(run)
    lat, errors, by_client = [], 0, {c: [] for c in CLIENTS}
    for p in pod_range:
        took = latencies(run / f"{p}.lat")
        errors += len(differ(run, p, answers(run / f"{p}.out")))
        lat += took
        by_client[CLIENTS[p % 4]] += took
    seconds = fields["seconds"]
    cpu, rss = [c for c, _ in caches], [r / 1024 for _, r in caches]
    return {
        "cluster_dns_qps": round(fields["cluster_queries"] / seconds, 1),
        "upstream_qps": round(fields["upstream_queries"] / seconds, 1),
        "lookups_per_s": round(len(lat) / seconds, 1),
        "p50_ms": pct(lat, 50), "p99_ms": pct(lat, 99), "p999_ms": pct(lat, 99.9),
        "errors": errors,
        "cache_cpu_s": round(sum(cpu), 3), "cache_rss_mib": round(sum(rss), 1),
        "cache_cpu_s_max_node": round(max(cpu, default=0), 3), "cache_rss_mib_max_node": round(max(rss, default=0), 1),
        "lookups": len(lat), "seconds": round(seconds, 2),
        "cluster_dns_queries": int(fields["cluster_queries"]), "upstream_queries": int(fields["upstream_queries"]),
        "cluster_dns_queries_per_lookup": round(fields["cluster_queries"] / max(1, len(lat)), 3),
        "cluster_dns_qps_external_candidates": round(fields["cluster_candidates"] / seconds, 1),
        "cluster_dns_qps_cold_external_candidates": round(fields["cluster_cold_candidates"] / seconds, 1),
        "cluster_dns_qps_candidates_by_search_domain": {
            where: round(fields[f"cluster_candidates_in_{where}"] / seconds, 1)
            for where in ("namespace", "svc", "domain")},
        "p99_ms_by_client": {c: pct(v, 99) for c, v in by_client.items()},
    }


def killed(run):
    """Node 1's pods (0..PODS-1) while its cache was killed and restarted:
    lookups failed (temporary), answered wrong (not kube-dns only's),
    stalled (over 1 s)."""
    failed = wrong = 0
    for p in range(pods):
        got = answers(run / f"{p}.out")
        for k in differ(run, p, got):
            if k < len(got) and temporary(got[k]):
                failed += 1
            else:
                wrong += 1
    took = [t for p in range(pods) for t in latencies(run / f"{p}.lat")]
    stalled = [t for t in took if t > 1_000_000]
    return {"failed": failed, "wrong": wrong, "stalled": len(stalled),
            "max_ms": round(max(stalled, default=0) / 1000, 1), "node_lookups": len(took),
            "errors_all_nodes": stack(run)["errors"]}


CUTS = ("ours+schema", "ours+rfc8020", "ours+cuts")  # ours with autopath's opt-in cuts
figures = {s: stack(work / f"run-{s}") for s in ("kube-dns", "nodelocal", "ours") + CUTS}
figures["cache_killed"] = {s: killed(work / f"run-{s}-kill") for s in ("nodelocal", "ours")}
out.with_suffix(".errors").write_text("".join(sorted(set(d + "\n" for d in differing))))
figures["run"] = {"nodes": nodes, "pods_per_node": pods, "lookups_per_pod": lookups, "interval_ms": interval,
                  "cluster_dns_delay_ms": delay, "cache_down_ms": down, "machine": machine, "tree": tree}
out.write_text(json.dumps(figures, indent=1) + "\n")


def row(*cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def ratio(a, b):
    return f"{a / b:.2f}" if b else "-"


k, n, o = figures["kube-dns"], figures["nodelocal"], figures["ours"]
lines = [
    f"{machine}; tree {tree}. {nodes} nodes x {pods} pods, each pod {lookups} lookups, one every {interval} ms;"
    f" cluster DNS and the upstream {delay} ms away.",
    "",
    row("measure", "kube-dns only", "NodeLocal (unbound)", "ours", "ours / kube-dns", "ours / NodeLocal"),
    row(*["---"] * 6),
]
for label, key in [("queries/s reaching cluster DNS", "cluster_dns_qps"),
                   ("cluster DNS queries per pod lookup", "cluster_dns_queries_per_lookup"),
                   ("... of which an external name's search candidates", "cluster_dns_qps_external_candidates"),
                   ("... of which a cold external name's (each looked up once)",
                    "cluster_dns_qps_cold_external_candidates"),
                   ("queries/s reaching the upstream", "upstream_qps"), ("pod lookups/s", "lookups_per_s"),
                   ("pod lookup p50 ms", "p50_ms"), ("p99 ms", "p99_ms"), ("p99.9 ms", "p999_ms"),
                   ("answers differing from kube-dns only's", "errors"),
                   ("node caches' CPU s (sum over nodes)", "cache_cpu_s"),
                   ("node caches' RSS MiB (sum)", "cache_rss_mib"),
                   ("... the biggest node's CPU s", "cache_cpu_s_max_node"),
                   ("... the biggest node's RSS MiB", "cache_rss_mib_max_node")]:
    lines.append(row(label, k[key], n[key], o[key], ratio(o[key], k[key]), ratio(o[key], n[key])))
for where, suffix in (("namespace", "NS.svc.cluster.local"), ("svc", "svc.cluster.local"),
                      ("domain", "cluster.local")):
    lines.append(row(f"... candidates under {suffix}",
                     *[f["cluster_dns_qps_candidates_by_search_domain"][where] for f in (k, n, o)], "-", "-"))
for c in CLIENTS:
    lines.append(row(f"p99 ms, {c} pods", *[f["p99_ms_by_client"][c] for f in (k, n, o)], "-", "-"))
kn, ko = figures["cache_killed"]["nodelocal"], figures["cache_killed"]["ours"]
lines.append(row(f"node 1's cache killed, back {down} ms later: lookups failed, answered wrong"
                 f" (of {kn['node_lookups']})", "-", f"{kn['failed']}, {kn['wrong']}", f"{ko['failed']}, {ko['wrong']}",
                 "-", "-"))
lines.append(row("... lookups stalled over 1 s (the longest, ms)", "-", f"{kn['stalled']} ({kn['max_ms']})",
                 f"{ko['stalled']} ({ko['max_ms']})", "-", "-"))
lines += [
    "",
    "The autopath walk's opt-in cuts (ours, then with each and both):",
    "",
    row("measure", "ours", "+ schema cut", "+ RFC 8020 cut", "+ both", "both / kube-dns", "both / NodeLocal"),
    row(*["---"] * 7),
]
cut_figures = [o] + [figures[c] for c in CUTS]
for label, key in [("queries/s reaching cluster DNS", "cluster_dns_qps"),
                   ("cluster DNS queries per pod lookup", "cluster_dns_queries_per_lookup"),
                   ("... of which an external name's search candidates", "cluster_dns_qps_external_candidates"),
                   ("pod lookup p50 ms", "p50_ms"), ("p99 ms", "p99_ms"),
                   ("answers differing from kube-dns only's", "errors")]:
    both = cut_figures[-1][key]
    lines.append(row(label, *[f[key] for f in cut_figures], ratio(both, k[key]), ratio(both, n[key])))
for where, suffix in (("namespace", "NS.svc.cluster.local"), ("svc", "svc.cluster.local"),
                      ("domain", "cluster.local")):
    lines.append(row(f"... candidates under {suffix}",
                     *[f["cluster_dns_qps_candidates_by_search_domain"][where] for f in cut_figures], "-", "-"))
table = "\n".join(lines) + "\n"
out.with_suffix(".md").write_text(table)
print(table, end="")
