#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tcp_upstream.py ADDR LOG DELAY_MS: a DNS server on ADDR port 53, TCP only,
that answers one query at a time per connection, in order, DELAY_MS after it
took the query up (as many upstreams do). Every name has A 10.7.7.7 and AAAA
fd00::7, TTL 30; a name whose first label starts with "close" is answered and then the
connection is closed; one starting with "slam" closes a connection that has answered
before at once, leaving the query unanswered (on a new one it is answered). Logs to
LOG, a line each:

  accept                          a connection
  query NAME QTYPE waiting=N      a query, and how many before it on its
                                  connection were still unanswered
  split                           a read that ended inside a message: the
                                  client wrote one message in pieces
  slammed                         a connection closed under a slam query
"""
import socket
import struct
import sys
import threading
import time
from collections import deque

lock = threading.Lock()


def log(out, line):
    with lock:
        out.write(line + "\n")


def labels_of(q):
    i, labels = 12, []
    while q[i]:
        labels.append(q[i + 1:i + 1 + q[i]].decode("ascii", "replace"))
        i += 1 + q[i]
    return labels, q[12:i + 5]


def reply(q):
    labels, question = labels_of(q)
    qtype = struct.unpack(">H", question[-4:-2])[0]
    answers = b""
    if qtype in (1, 28):
        rdata = bytes([10, 7, 7, 7]) if qtype == 1 else bytes.fromhex("fd00" + "00" * 13 + "07")
        answers = b"\xc0\x0c" + struct.pack(">HHIH", qtype, 1, 30, len(rdata)) + rdata
    head = struct.pack(">HHHHHH", struct.unpack(">H", q[:2])[0], 0x8180 | (q[2] & 1) << 8, 1,
                       1 if answers else 0, 0, 0)
    return head + question + answers


def serve(conn, out, delay):
    queue, ready = deque(), threading.Condition()
    closed, answered = [False], [0]

    def answer():
        while True:
            with ready:
                while not queue and not closed[0]:
                    ready.wait()
                if not queue:
                    return
                q = queue[0]
            time.sleep(delay)
            r = reply(q)
            try:
                conn.sendall(struct.pack(">H", len(r)) + r)
            except OSError:
                return
            with ready:
                queue.popleft()
                answered[0] += 1
            if labels_of(q)[0][0].startswith("close"):
                conn.shutdown(socket.SHUT_RDWR)
                return

    writer = threading.Thread(target=answer, daemon=True)
    writer.start()
    buf = b""
    while True:
        try:
            data = conn.recv(65536)
        except OSError:
            data = b""
        if not data:
            break
        buf += data
        while len(buf) >= 2 and len(buf) >= 2 + struct.unpack(">H", buf[:2])[0]:
            n = struct.unpack(">H", buf[:2])[0]
            q, buf = buf[2:2 + n], buf[2 + n:]
            labels, question = labels_of(q)
            if labels[0].startswith("slam") and answered[0]:
                log(out, "slammed")
                conn.shutdown(socket.SHUT_RDWR)
                buf = b""
                break
            with ready:
                log(out, "query %s %d waiting=%d" % (".".join(labels), struct.unpack(">H", question[-4:-2])[0],
                                                    len(queue)))
                queue.append(q)
                ready.notify()
        if buf:
            log(out, "split")
    with ready:
        closed[0] = True
        ready.notify()
    writer.join()
    conn.close()


def main():
    addr, logname, delay = sys.argv[1], sys.argv[2], int(sys.argv[3]) / 1000
    out = open(logname, "a", buffering=1)
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((addr, 53))
    tcp.listen(16)
    print("listening", file=sys.stderr, flush=True)
    while True:
        conn, _ = tcp.accept()
        log(out, "accept")
        threading.Thread(target=serve, args=(conn, out, delay), daemon=True).start()


if __name__ == "__main__":
    main()
