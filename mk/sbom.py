#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""sbom.py VERSION ARCHIVE...: the SPDX 2.3 JSON document of the images in
the OCI archives of release.sh, on stdout. Read from the archives
themselves, not from the build: each image's index, each arch's image, and
in its layers the Debian package metadata deb-status.sh laid there
(var/lib/dpkg/status.d/PKG, one status entry per package a file was copied
from or linked statically into ours), which is what Trivy and Grype read.
Each image of each arch CONTAINS its packages and libresolv-k8s itself."""
import datetime
import email.parser
import hashlib
import json
import re
import sys
import tarfile
import uuid

STATUS_D = "var/lib/dpkg/status.d/"


def spdx_id(*parts):
    return "SPDXRef-" + "-".join(re.sub(r"[^A-Za-z0-9.-]+", ".", p) for p in parts)


def blob(tar, digest):
    return tar.extractfile("blobs/" + digest.replace(":", "/")).read()


def packages_of(tar, manifest):
    """The status entries of an image's layers, by package name."""
    found = {}
    for layer in json.loads(blob(tar, manifest["digest"]))["layers"]:
        with tarfile.open(fileobj=tar.extractfile("blobs/" + layer["digest"].replace(":", "/")), mode="r:*") as t:
            for m in t:
                name = m.name.lstrip("./")
                if m.isfile() and name.startswith(STATUS_D) and not name.endswith(".md5sums"):
                    stanza = email.parser.Parser().parsestr(t.extractfile(m).read().decode())
                    found[stanza["Package"]] = stanza
    return found


def deb_package(image_id, arch, stanza):
    version = stanza["Version"]
    return {
        "SPDXID": spdx_id(image_id[len("SPDXRef-"):], "deb", stanza["Package"]),
        "name": stanza["Package"],
        "versionInfo": version,
        "supplier": "Organization: " + (stanza["Maintainer"] or "Debian"),
        "downloadLocation": "NOASSERTION",
        "filesAnalyzed": False,
        "licenseConcluded": "NOASSERTION",
        "licenseDeclared": "NOASSERTION",
        "copyrightText": "NOASSERTION",
        "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                          "referenceLocator": f"pkg:deb/debian/{stanza['Package']}@{version}"
                                              f"?arch={stanza['Architecture'] or arch}&distro=debian-12"}],
    }


def main(version, archives):
    packages, relationships, digests = [], [], []
    for path in archives:
        with tarfile.open(path) as tar:
            top = json.loads(tar.extractfile("index.json").read())["manifests"][0]
            ref = top["annotations"]["org.opencontainers.image.ref.name"]
            name = ref.rsplit(":", 1)[0]
            digests.append(top["digest"])
            for manifest in json.loads(blob(tar, top["digest"]))["manifests"]:
                arch = manifest["platform"]["architecture"]
                image_id = spdx_id(name, arch)
                packages.append({
                    "SPDXID": image_id,
                    "name": name,
                    "versionInfo": version,
                    "supplier": "Organization: libresolv-k8s",
                    "downloadLocation": "NOASSERTION",
                    "filesAnalyzed": False,
                    "primaryPackagePurpose": "CONTAINER",
                    "checksums": [{"algorithm": "SHA256", "checksumValue": manifest["digest"].split(":", 1)[1]}],
                    "licenseConcluded": "NOASSERTION",
                    "licenseDeclared": "NOASSERTION",
                    "copyrightText": "NOASSERTION",
                    "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                                      "referenceLocator": f"pkg:oci/{name}@{top['digest'].replace(':', '%3A')}"
                                                          f"?arch={arch}&tag={version}"}],
                })
                relationships.append({"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES",
                                      "relatedSpdxElement": image_id})
                ours = {"SPDXID": spdx_id(name, arch, "libresolv-k8s"), "name": "libresolv-k8s",
                        "versionInfo": version, "supplier": "Organization: libresolv-k8s",
                        "downloadLocation": "NOASSERTION", "filesAnalyzed": False,
                        "licenseConcluded": "Apache-2.0", "licenseDeclared": "Apache-2.0",
                        "copyrightText": "NOASSERTION"}
                contained = [ours] + [deb_package(image_id, arch, s)
                                      for _, s in sorted(packages_of(tar, manifest).items())]
                for p in contained:
                    packages.append(p)
                    relationships.append({"spdxElementId": image_id, "relationshipType": "CONTAINS",
                                          "relatedSpdxElement": p["SPDXID"]})
    namespace = uuid.uuid5(uuid.NAMESPACE_URL, hashlib.sha256(" ".join(digests).encode()).hexdigest())
    json.dump({
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": f"resolv-k8s-{version}",
        "documentNamespace": f"https://spdx.org/spdxdocs/resolv-k8s-{version}-{namespace}",
        "creationInfo": {"created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                         "creators": ["Tool: libresolv-k8s mk/sbom.py"]},
        "packages": packages,
        "relationships": relationships,
    }, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: sbom.py VERSION ARCHIVE...")
    main(sys.argv[1], sys.argv[2:])
