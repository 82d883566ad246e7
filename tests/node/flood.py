#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""flood.py [-s SOURCE] [-e SIZE] [-t TYPE] SERVER COUNT FORMAT: COUNT queries
over UDP to SERVER port 53 as fast as one socket sends them, without
waiting for replies: a pod that floods. FORMAT % i names query i (a FORMAT
without %d: the same name every time). -s: from the address SOURCE; -e: an
OPT record with that UDP payload size; -t: the query type's number (1, A).
Replies are read as they come; prints "sent N replies M largest BYTES"."""
import argparse
import socket
import struct


def query(qid, name, qtype, edns):
    labels = b"".join(bytes([len(x)]) + x.encode() for x in name.rstrip(".").split("."))
    opt = struct.pack(">BHHIH", 0, 41, edns, 0, 0) if edns else b""
    head = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 1 if edns else 0)
    return head + labels + b"\0" + struct.pack(">HH", qtype, 1) + opt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-s", default="")
    p.add_argument("-e", type=int, default=0)
    p.add_argument("-t", type=int, default=1)
    p.add_argument("server")
    p.add_argument("count", type=int)
    p.add_argument("format")
    a = p.parse_args()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.s, 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    s.setblocking(False)
    to = (a.server, 53)
    same = "%" not in a.format
    fixed = query(0, a.format, a.t, a.e) if same else None
    replies = largest = sent = 0

    def drain():
        nonlocal replies, largest
        while True:
            try:
                largest = max(largest, len(s.recv(65535)))
                replies += 1
            except (BlockingIOError, ConnectionRefusedError):
                return

    while sent < a.count:
        msg = fixed if same else query(sent & 0xFFFF, a.format % sent, a.t, a.e)
        try:
            s.sendto(msg[:0] + struct.pack(">H", sent & 0xFFFF) + msg[2:], to)
            sent += 1
        except BlockingIOError:
            drain()
        if sent % 256 == 0:
            drain()
    drain()
    print("sent", sent, "replies", replies, "largest", largest)


if __name__ == "__main__":
    main()
