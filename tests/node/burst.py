#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""burst.py [-w WINDOW] [-p] [-t SECONDS] [-s SOURCE] SERVER COUNT FORMAT: COUNT
queries for the A records of FORMAT % i (i from 0), over UDP to SERVER port
53, as fast as the window allows: at most WINDOW (default: all) unanswered
at once, each given SECONDS (default 3). -p: each query from a socket of
its own, a new source port, so that SO_REUSEPORT spreads them over a
server's sockets. -s: from the address SOURCE. Prints "RCODE N" for each
rcode answered and "timeout N", sorted."""
import argparse
import collections
import selectors
import socket
import struct
import time

RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"]


def query(qid, name):
    labels = b"".join(bytes([len(x)]) + x.encode() for x in name.split("."))
    return struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0) + labels + b"\0\0\1\0\1"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-w", type=int, default=0)
    p.add_argument("-p", action="store_true")
    p.add_argument("-t", type=float, default=3)
    p.add_argument("-s", default="")
    p.add_argument("server")
    p.add_argument("count", type=int)
    p.add_argument("format")
    a = p.parse_args()
    window = min(a.w or a.count, 65536)
    sel = selectors.DefaultSelector()
    shared = None
    if not a.p:
        shared = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        shared.bind((a.s, 0))
        shared.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        sel.register(shared, selectors.EVENT_READ)
    waiting = {}  # id -> (socket, deadline)
    outcomes = collections.Counter()
    sent = 0

    def settle(qid, outcome):
        s, _ = waiting.pop(qid)
        outcomes[outcome] += 1
        if s is not shared:
            sel.unregister(s)
            s.close()

    while sent < a.count or waiting:
        while sent < a.count and len(waiting) < window:
            qid = sent & 0xFFFF
            s = shared
            if a.p:
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.bind((a.s, 0))
                sel.register(s, selectors.EVENT_READ)
            s.sendto(query(qid, a.format % sent), (a.server, 53))
            waiting[qid] = (s, time.monotonic() + a.t)
            sent += 1
        first = min(d for _, d in waiting.values())
        for key, _ in sel.select(max(0, first - time.monotonic())):
            try:
                reply = key.fileobj.recv(65535)
            except OSError:
                continue
            if len(reply) < 4:
                continue
            qid, flags = struct.unpack(">HH", reply[:4])
            if qid in waiting and waiting[qid][0] is key.fileobj:
                rcode = flags & 15
                settle(qid, RCODES[rcode] if rcode < len(RCODES) else str(rcode))
        now = time.monotonic()
        for qid in [q for q, (_, d) in waiting.items() if d <= now]:
            settle(qid, "timeout")
    for outcome in sorted(outcomes):
        print(outcome, outcomes[outcome])


if __name__ == "__main__":
    main()
