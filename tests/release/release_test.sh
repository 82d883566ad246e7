#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# release_test.sh BUILD_DIR: what `make release` wrote (mk/release.sh) in
# BUILD_DIR/release/VERSION/: one version everywhere, SHA256SUMS true, the
# SBOM naming every image and arch of the archives and the packages in them;
# the chart pushed with `helm push` to a registry of its own (Debian's
# docker-registry, as tests/podman's, on this namespace's loopback) and
# rendered from it by version, as it is; `helm upgrade` from the chart
# before this one (the commit before the version's) and the first one, with
# --reuse-values and with --reset-then-reuse-values, rendered without a
# cluster as Helm builds them (below). Needs root for the namespace.
set -uo pipefail
if [[ -z ${RELEASE_SANDBOX:-} ]]; then
	exec unshare --net --mount --fork env RELEASE_SANDBOX=1 "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/tests/lib/assert.sh"
build=$(cd "${1:?usage: release_test.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$work"' EXIT
cd "$root" || exit 1
ip link set lo up
export HELM_CACHE_HOME=$work/helm HELM_CONFIG_HOME=$work/helm HELM_DATA_HOME=$work/helm
helm() { "$build/bin/helm" "$@"; }
version=$(mk/version.sh)
out=$build/release/$version

check "one version: Chart.yaml's version and appVersion, the images', mk/version.sh's" \
	"$version \"$version\" $version" \
	"$(sed -n 's/^version: //p' container/chart/Chart.yaml) $(sed -n 's/^appVersion: //p' container/chart/Chart.yaml) $(cut -d' ' -f1 "$out/images.txt" | sed 's/.*://' | sort -u | tr '\n' ' ' | sed 's/ $//')"
check "CHANGELOG.md: a section of this version" 1 "$(grep -c "^## \[$version\] - [0-9-]*$" CHANGELOG.md)"
check "the release: the chart, the images, the SBOM, SHA256SUMS" \
	"SHA256SUMS images.txt libresolv-k8s-init-$version.oci.tar resolv-k8s-$version.spdx.json resolv-k8s-$version.tgz resolv-k8s-node-$version.oci.tar resolv-k8s-webhook-$version.oci.tar" \
	"$(ls "$out" | tr '\n' ' ' | sed 's/ $//')"
check "SHA256SUMS: every other file, each true" "6 0" \
	"$(wc -l < "$out/SHA256SUMS") $(cd "$out" && sha256sum --quiet -c SHA256SUMS > /dev/null 2>&1; echo $?)"
check "images.txt: each archive's digest, as refs.sh reads it" \
	"$(container/images/refs.sh "$build/images" | awk '{ print $2 ":" $3, $5 }')" "$(cat "$out/images.txt")"
# The SBOM: an image package per image and arch of the archives, each with
# its manifest's digest and what its status.d lists, libresolv-k8s in each.
check "SBOM: SPDX 2.3, every image and arch of the archives, each with its packages and ours" "OK" \
	"$(python3 - "$out" "$version" <<-'EOF'
		import json, sys, tarfile
		out, version = sys.argv[1], sys.argv[2]
		doc = json.load(open(f"{out}/resolv-k8s-{version}.spdx.json"))
		assert doc["spdxVersion"] == "SPDX-2.3" and doc["dataLicense"] == "CC0-1.0", doc["spdxVersion"]
		by_id = {p["SPDXID"]: p for p in doc["packages"]}
		contains = {}
		for r in doc["relationships"]:
		    assert r["spdxElementId"] in by_id or r["spdxElementId"] == "SPDXRef-DOCUMENT", r
		    assert r["relatedSpdxElement"] in by_id, r
		    if r["relationshipType"] == "CONTAINS":
		        contains.setdefault(r["spdxElementId"], []).append(by_id[r["relatedSpdxElement"]]["name"])
		described = {r["relatedSpdxElement"] for r in doc["relationships"] if r["relationshipType"] == "DESCRIBES"}
		want = set()
		for name in ("libresolv-k8s-init", "resolv-k8s-node", "resolv-k8s-webhook"):
		    with tarfile.open(f"{out}/{name}-{version}.oci.tar") as t:
		        top = json.load(t.extractfile("index.json"))["manifests"][0]
		        for m in json.load(t.extractfile("blobs/" + top["digest"].replace(":", "/")))["manifests"]:
		            want.add((name, m["platform"]["architecture"], m["digest"].split(":")[1]))
		got = {(by_id[i]["name"], by_id[i]["SPDXID"].rsplit("-", 1)[1], by_id[i]["checksums"][0]["checksumValue"]) for i in described}
		assert got == want, (got, want)
		for i in described:
		    names = contains[i]
		    assert "libresolv-k8s" in names and "base-files" in names, (i, names)
		    if "node" in i or "webhook" in i:
		        assert "libc6" in names and "libjsoncpp25" in names, (i, names)
		    else:
		        assert "c-ares" in names and "mimalloc" in names, (i, names)
		print("OK")
	EOF
	)"

# The chart, pushed as an OCI artifact and rendered from the registry by
# version: what `helm install oci://... --version` installs.
cat > "$work/registry.yml" <<EOF
version: 0.1
storage: {filesystem: {rootdirectory: $work/registry}}
http: {addr: 127.0.0.1:5088}
log: {level: error, accesslog: {disabled: true}}
EOF
docker-registry serve "$work/registry.yml" > "$work/registry.log" 2>&1 &
for _ in $(seq 100); do curl -sf http://127.0.0.1:5088/v2/ > /dev/null && break; sleep 0.1; done
helm push "$out/resolv-k8s-$version.tgz" oci://127.0.0.1:5088/charts --plain-http > "$work/push" 2>&1
check "helm push: the chart to the registry, by its version" "0 Pushed: 127.0.0.1:5088/charts/resolv-k8s:$version" \
	"$? $(grep -o 'Pushed: .*' "$work/push")" "$(cat "$work/push")"
helm show chart oci://127.0.0.1:5088/charts/resolv-k8s --version "$version" --plain-http > "$work/shown" 2>&1
check "helm show chart from the registry: this version and appVersion" "version: $version appVersion: $version" \
	"$(grep -E '^(version|appVersion):' "$work/shown" | sort -r | tr '\n' ' ' | sed 's/ $//')"
helm template resolv-k8s oci://127.0.0.1:5088/charts/resolv-k8s --version "$version" --plain-http \
	--namespace kube-system --set registry=registry.example.com/dns > "$work/from-registry.yaml" 2> "$work/from-registry.err"
check "helm template from the registry by version: renders" "0" "$?$(grep -v '^Pulled:\|^Digest:' "$work/from-registry.err")"
helm template resolv-k8s container/chart --namespace kube-system --set registry=registry.example.com/dns > "$work/from-tree.yaml"
check "the chart from the registry renders as the tree's" "" "$(diff "$work/from-tree.yaml" "$work/from-registry.yaml")"
check "the chart from the registry: every image of this version" \
	"registry.example.com/dns/resolv-k8s-node:$version registry.example.com/dns/resolv-k8s-webhook:$version" \
	"$(grep -o 'image: .*' "$work/from-registry.yaml" | sed 's/image: //' | sort -u | tr '\n' ' ' | sed 's/ $//')"
mkdir -p "$work/pulled"
helm pull oci://127.0.0.1:5088/charts/resolv-k8s --version "$version" --plain-http -d "$work/pulled" > /dev/null 2>&1
check "helm pull by version: the very archive pushed" "$(sha256sum < "$out/resolv-k8s-$version.tgz")" \
	"$(sha256sum < "$work/pulled/resolv-k8s-$version.tgz" 2>&1)"

# The upgrade from the chart before, without a cluster (`helm upgrade`
# asks the API server for its version before anything). Helm's
# pkg/action/upgrade.go, reuseValues: with --reuse-values the new chart's
# defaults are replaced by the old release's (its chart's values coalesced
# with its config), then the old config over the given; with
# --reset-then-reuse-values, the new chart's defaults, the old config over
# the given. The old config: an operator's values of that chart.
# The chart before: the commit before the one that made the chart this
# version (HEAD while that change is not committed).
intro=$(git log --format=%H --reverse -G"^version: ${version//./\\.}\$" -- container/chart/Chart.yaml | head -1)
previous=$(git rev-parse "${intro:-HEAD}${intro:+^}")
first=$(git log --format=%H --diff-filter=A -- container/chart/Chart.yaml | tail -1)
old_config=$work/old-config.yaml
printf '%s\n' 'registry: registry.example.com/dns' 'webhook: {nameservers: [169.254.53.10, 10.96.0.10]}' > "$old_config"
for rev in "$previous" "$first"; do
	label=$( [[ $rev == "$first" ]] && echo "the first chart ($(git log -1 --format=%h "$rev"))" || echo "the chart before ($(git log -1 --format=%h "$rev"))")
	rm -rf "$work/old" "$work/reused" && mkdir -p "$work/old"
	git archive "$rev" container/chart | tar -x -C "$work/old"
	helm template resolv-k8s "$work/old/container/chart" -n kube-system -f "$old_config" > "$work/old.yaml" 2>&1
	check "$label: its own rendering of the old values" "0" "$?" "$(tail -3 "$work/old.yaml")"
	# --reuse-values: the new chart with the old chart's values as its defaults.
	cp -r container/chart "$work/reused"
	cp "$work/old/container/chart/values.yaml" "$work/reused/values.yaml"
	helm template resolv-k8s "$work/reused" -n kube-system -f "$old_config" > "$work/reuse.yaml" 2> "$work/reuse.err"
	check "upgrade from $label --reuse-values: renders" "0" "$?$(cat "$work/reuse.err")"
	helm template resolv-k8s container/chart -n kube-system -f "$old_config" > "$work/reset.yaml" 2> "$work/reset.err"
	check "upgrade from $label --reset-then-reuse-values: renders" "0" "$?$(cat "$work/reset.err")"
	check "upgrade from $label: both, the old config's images and nameservers, this version's objects" \
		"registry.example.com/dns/resolv-k8s-node:$version 169.254.53.10,10.96.0.10
registry.example.com/dns/resolv-k8s-node:$version 169.254.53.10,10.96.0.10" \
		"$(for f in reuse reset; do python3 -c 'import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
ds = [d for d in docs if d["kind"] == "DaemonSet"][0]
dep = [d for d in docs if d["kind"] == "Deployment"][0]
env = {e["name"]: e.get("value") for e in dep["spec"]["template"]["spec"]["containers"][0]["env"]}
print(ds["spec"]["template"]["spec"]["containers"][0]["image"], env["NAMESERVERS"])' "$work/$f.yaml" 2>&1; done)"
done

summary
