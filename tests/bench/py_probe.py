# SPDX-License-Identifier: Apache-2.0
# py_probe.py MS NAME...: a Python program's lookups, socket.getaddrinfo
# (glibc's, or the library's through LD_PRELOAD), AF_UNSPEC, SOCK_STREAM,
# paced as gai-probe -i MS: the k-th name starts MS * k milliseconds after
# the first (at once when the one before ran late). One line per lookup on
# stdout, the addresses in the order returned or the error's number; its
# wall time in microseconds on stderr, a line each (gai-probe -L's format).
import socket
import sys
import time

interval = int(sys.argv[1]) / 1000
start = time.monotonic()
for k, name in enumerate(sys.argv[2:]):
    time.sleep(max(0.0, start + k * interval - time.monotonic()))
    t0 = time.monotonic()
    try:
        found = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
        line = " ".join(info[4][0] for info in found)
    except socket.gaierror as e:
        line = f"error {e.errno}"
    took = int((time.monotonic() - t0) * 1e6)
    print(f"{name}: {line}", flush=True)
    print(took, file=sys.stderr, flush=True)
