# SPDX-License-Identifier: Apache-2.0
"""deb_status.py ROOT: an image root's Debian package metadata, as a scanner
reads var/lib/dpkg/status.d (one status entry a file, its files' MD5 sums in
NAME.md5sums). Prints "entry NAME VERSION ARCH" for each entry, "bad ENTRY
WHY" for one a scanner would skip, "unlisted PATH" for each file of the
image in no package's sums (ours excepted: the programs, /licenses and the
metadata itself) and "changed PATH" for one whose sum differs."""
import hashlib
import os
import sys

root = sys.argv[1]
status = os.path.join(root, "var/lib/dpkg/status.d")
OURS = ("copier", "resolv-k8s/", "usr/bin/resolv-k8s", "licenses/", "var/lib/dpkg/", "usr/share/doc/")

sums = {}
for name in sorted(os.listdir(status)):
    path = os.path.join(status, name)
    if name.endswith(".md5sums"):
        for line in open(path):
            digest, file = line.split(None, 1)
            sums[file.strip()] = digest
        continue
    fields = {}
    for line in open(path):
        if line[:1] not in (" ", "\t") and ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    missing = [k for k in ("Package", "Version", "Architecture", "Status") if not fields.get(k)]
    if missing or "installed" not in fields.get("Status", "").split():
        print("bad", name, "missing " + " ".join(missing) if missing else "not installed")
    else:
        print("entry", fields["Package"], fields["Version"], fields["Architecture"])

for dirpath, _, files in os.walk(root):
    for f in files:
        path = os.path.join(dirpath, f)
        rel = os.path.relpath(path, root)
        if rel.startswith(OURS) or os.path.islink(path):
            continue
        if rel not in sums:
            print("unlisted", rel)
        elif hashlib.md5(open(path, "rb").read()).hexdigest() != sums[rel]:
            print("changed", rel)
