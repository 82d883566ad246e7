#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# mixin_check.py RULES METRICS: every series an alert rule of RULES (a
# Prometheus rules file: tests/fixtures/coredns-mixin-alerts.yaml) reads is
# in METRICS (a /metrics scrape): each metric name of its expressions, each
# label its selectors match (an equality matcher's value too), and each
# label its annotations name ({{ $labels.X }}); histogram_quantile's
# buckets with `le`. Labels that the scrape adds (job, instance, pod, and
# the relabelings' node, cluster, namespace) are Prometheus', not ours.
# Prints what is missing, one line each, and exits 1; else what it found.
import re
import sys

import yaml

SCRAPE_LABELS = {"job", "instance", "pod", "namespace", "node", "cluster", "container", "service", "endpoint"}
KEYWORDS = {"sum", "rate", "without", "by", "histogram_quantile", "absent", "max", "min", "avg", "count",
            "irate", "increase", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool",
            "offset", "topk", "bottomk", "label_replace", "clamp_min", "clamp_max", "abs", "vector", "time"}
SELECTOR = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?")
MATCHER = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"')
GROUPING = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")


def parse_metrics(text):
    series = {}  # name -> list of label dicts
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+\S+", line)
        if not m:
            raise SystemExit(f"not Prometheus text: {line!r}")
        labels = dict((k, v) for k, _, v in MATCHER.findall("{" + (m.group(2) or "") + "}"))
        series.setdefault(m.group(1), []).append(labels)
    return series


def selectors(expr):
    # Drop the grouping clauses and durations, then read NAME{MATCHERS}.
    bare = GROUPING.sub(" ", expr)
    bare = re.sub(r"\[[^\]]*\]", " ", bare)
    out = []
    for m in SELECTOR.finditer(bare):
        name, braces = m.group(1), m.group(2)
        if name in KEYWORDS or re.fullmatch(r"[0-9.e+-]+", name):
            continue
        # A label name inside braces is consumed with them; a bare word
        # followed by '(' is a function.
        rest = bare[m.end():].lstrip()
        if not braces and rest.startswith("("):
            continue
        out.append((name, MATCHER.findall(braces or "")))
    return out


def check(rules, series):
    missing, found = [], []
    for group in rules["groups"]:
        for rule in group["rules"]:
            alert = rule.get("alert", rule.get("record"))
            used = selectors(rule["expr"])
            if not used:
                missing.append(f"{alert}: no series in its expression")
            names = set()
            for name, matchers in used:
                have = series.get(name)
                if have is None:
                    missing.append(f"{alert}: no series {name}")
                    continue
                names.add(name)
                found.append(f"{alert}: {name} ({len(have)} series)")
                if "histogram_quantile" in rule["expr"] and name.endswith("_bucket"):
                    matchers = matchers + [("le", "", "")]
                for label, op, value in matchers:
                    if label in SCRAPE_LABELS:
                        continue
                    with_label = [s for s in have if label in s]
                    if not with_label:
                        missing.append(f"{alert}: {name} has no label {label}")
                    elif op == "=" and value and not any(s[label] == value for s in with_label):
                        missing.append(f'{alert}: {name} has no series with {label}="{value}"')
            for label in re.findall(r"\$labels\.([a-zA-Z_][a-zA-Z0-9_]*)", str(rule.get("annotations", {}))):
                if label in SCRAPE_LABELS:
                    continue
                if not any(label in s for n in names for s in series[n]):
                    missing.append(f"{alert}: its annotations name {label}, which none of {sorted(names)} has")
    return missing, found


def main():
    with open(sys.argv[1]) as f:
        rules = yaml.safe_load(f)
    with open(sys.argv[2]) as f:
        series = parse_metrics(f.read())
    missing, found = check(rules, series)
    for line in missing:
        print("missing:", line)
    if missing:
        sys.exit(1)
    for line in found:
        print("found:", line)


if __name__ == "__main__":
    main()
