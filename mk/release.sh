#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# release.sh BUILD_DIR: what `make release` ships, in BUILD_DIR/release/VERSION/,
# VERSION the project's one version (mk/version.sh), which the chart's
# version and appVersion must be and CHANGELOG.md must have a section of:
#   NAME-VERSION.oci.tar   each image of `make images`, an OCI archive of the
#                          index of its arches, tagged NAME:VERSION;
#   images.txt             a line per image, "NAME:VERSION DIGEST", the
#                          index's digest (what a registry serves once
#                          pushed with push.sh);
#   resolv-k8s-VERSION.tgz the chart, `helm package`d;
#   resolv-k8s-VERSION.spdx.json  the SBOM (SPDX 2.3) of the images: each
#                          image and arch, and the Debian packages its
#                          status.d lists (deb-status.sh wrote them from the
#                          files copied and the link traces);
#   SHA256SUMS             of every file above.
set -euo pipefail
build=$(cd "${1:?usage: release.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
helm=${HELM:-$build/bin/helm}
version=$("$root/mk/version.sh")
fail() { echo "release: $*" >&2; exit 1; }

[[ $version =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
	fail "RK8S_VERSION $version is not SemVer (MAJOR.MINOR.PATCH[-PRE])"
chart=$root/container/chart/Chart.yaml
[[ $(sed -n 's/^version: *//p' "$chart") == "$version" ]] || fail "$chart: version is not $version"
[[ $(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$chart") == "$version" ]] ||
	fail "$chart: appVersion is not $version"
grep -q "^## \[$version\]" "$root/CHANGELOG.md" || fail "CHANGELOG.md has no section \"## [$version]\""

out=$build/release/$version
rm -rf "$out" && mkdir -p "$out"
refs=$("$root/container/images/refs.sh" "$build/images" "$version")
archives=()
while read -r archive name _ _ digest; do
	cp "$build/images/$archive.tar" "$out/$name-$version.oci.tar"
	archives+=("$out/$name-$version.oci.tar")
	echo "$name:$version $digest" >> "$out/images.txt"
done <<<"$refs"
"$helm" package "$root/container/chart" --destination "$out" > /dev/null
python3 "$root/mk/sbom.py" "$version" "${archives[@]}" > "$out/resolv-k8s-$version.spdx.json"
(cd "$out" && sha256sum -- * > SHA256SUMS)
echo "release: $out"
(cd "$out" && ls -l --time-style=+ | awk 'NR > 1 { printf "  %-40s %10d\n", $NF, $5 }')
sed 's/^/  /' "$out/images.txt"
