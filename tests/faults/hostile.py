#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""hostile.py ADDR LOG -- CMD ARGS...: runs CMD while a DNS responder on ADDR
port 53 (UDP and TCP) misbehaves according to the first label of each query
name, so one responder serves every candidate of a search walk the same way.
Logs "qname qtype proto" per query to LOG; exits with CMD's status.

  ok            a normal answer: A 10.1.1.1 / AAAA fd00::1
  garbage       the query's id, then 60 bytes of noise
  short         six bytes: id and flags
  otherid       first a spoofed reply (another id, A 6.6.6.6), then the real one
  otherq        first a reply for another question (right id, A 6.6.6.6), then the real one
  forged        first spoofed replies (A 6.6.6.6) from another port (UDP only), with another
                id and for another question, then the real one
  cnameloop     QNAME CNAME QNAME
  cnamepair     QNAME CNAME x.QNAME, x.QNAME CNAME QNAME
  comploop      an answer whose owner is a compression pointer to itself
  bigcount      header claims 65535 answers, carries none
  badstatus     a real answer with an autopath reply option of status 9
  badindex      status MATCHED, index 200, a real answer
  matchedempty  status MATCHED, index 1, NOERROR without records
  echo          the query's option echoed verbatim (Q set), NXDOMAIN
  tc            TC set and no records, over UDP and over TCP alike
anything else: NXDOMAIN.
"""
import os
import random
import socket
import struct
import subprocess
import sys
import threading

OPT_CODE = 65431
SPOOF = bytes([6, 6, 6, 6])
noise = random.Random(7)


def parse(q):
    """(id, flags, qname labels, question bytes, query option data or None)"""
    qid, flags = struct.unpack(">HH", q[:4])
    i, labels = 12, []
    while q[i]:
        labels.append(q[i + 1:i + 1 + q[i]])
        i += 1 + q[i]
    question = q[12:i + 5]
    option = None
    j = i + 5
    if struct.unpack(">H", q[10:12])[0] and q[j] == 0 and q[j + 1:j + 3] == b"\x00\x29":
        rdlen = struct.unpack(">H", q[j + 9:j + 11])[0]
        k, end = j + 11, j + 11 + rdlen
        while k + 4 <= end:
            code, olen = struct.unpack(">HH", q[k:k + 4])
            if code == OPT_CODE:
                option = q[k + 4:k + 4 + olen]
            k += 4 + olen
    return qid, flags, labels, question, option


def name(labels):
    return b"".join(bytes([len(x)]) + x for x in labels) + b"\0"


def rr(owner, rtype, rdata, ttl=30):
    return owner + struct.pack(">HHIH", rtype, 1, ttl, len(rdata)) + rdata


def opt_rr(payload):
    data = struct.pack(">HH", OPT_CODE, len(payload)) + payload if payload is not None else b""
    return b"\0" + struct.pack(">HHIH", 41, 1232, 0, len(data)) + data


def message(qid, qflags, rcode, question, answers=(), option=None, tc=False, ancount=None):
    flags = 0x8000 | (qflags & 0x0100) | 0x0080 | rcode | (0x0200 if tc else 0)
    add = [opt_rr(option)] if option is not None else []
    n = len(answers) if ancount is None else ancount
    head = struct.pack(">HHHHHH", qid, flags, 1, n, 0, len(add))
    return head + question + b"".join(answers) + b"".join(add)


def address(qtype, spoof=False):
    if qtype == 1:
        return 1, SPOOF if spoof else bytes([10, 1, 1, 1])
    return 28, (b"\x66" * 16) if spoof else bytes.fromhex("fd000000000000000000000000000001")


def replies(q):
    """The datagrams to send back, in order."""
    qid, qflags, labels, question, option = parse(q)
    qtype = struct.unpack(">H", question[-4:-2])[0]
    mode = labels[0].decode("ascii", "replace").lower() if labels else ""
    owner = b"\xc0\x0c"
    real = [rr(owner, *address(qtype))] if qtype in (1, 28) else []
    ok = message(qid, qflags, 0, question, real)
    spoof = [rr(owner, *address(qtype, True))]
    otherid = message(qid ^ 0x5555, qflags, 0, question, spoof)
    otherq = message(qid, qflags, 0, name([b"evil", b"example"]) + question[-4:], spoof)
    if mode == "ok":
        return [ok]
    if mode == "garbage":
        return [q[:2] + bytes(noise.randrange(256) for _ in range(60))]
    if mode == "short":
        return [q[:2] + b"\x81\x80"]
    if mode == "otherid":
        return [otherid, ok]
    if mode == "otherq":
        return [otherq, ok]
    if mode == "forged":
        return [otherid, otherq, ok]
    if mode == "cnameloop":
        return [message(qid, qflags, 0, question, [rr(owner, 5, owner)])]
    if mode == "cnamepair":
        x = name([b"x"] + labels)
        return [message(qid, qflags, 0, question, [rr(owner, 5, x), rr(x, 5, owner)])]
    if mode == "comploop":
        at = 12 + len(question)
        return [message(qid, qflags, 0, question, [struct.pack(">H", 0xC000 | at) + struct.pack(">HHIH", qtype, 1, 30, 4) + SPOOF])]
    if mode == "bigcount":
        return [message(qid, qflags, 0, question, ancount=65535)]
    if mode == "badstatus":
        return [message(qid, qflags, 0, question, real, option=bytes([1, 0, 9, 0]))]
    if mode == "badindex":
        return [message(qid, qflags, 0, question, real, option=bytes([1, 0, 0, 200]))]
    if mode == "matchedempty":
        return [message(qid, qflags, 0, question, option=bytes([1, 0, 0, 1]))]
    if mode == "echo":
        return [message(qid, qflags, 3, question, option=option)]
    if mode == "tc":
        return [message(qid, qflags, 0, question, tc=True)]
    return [message(qid, qflags, 3, question)]


def strays(q):
    """The datagrams to send first, from another port."""
    qid, qflags, labels, question, _ = parse(q)
    if not labels or labels[0].lower() != b"forged":
        return []
    qtype = struct.unpack(">H", question[-4:-2])[0]
    return [message(qid, qflags, 0, question, [rr(b"\xc0\x0c", *address(qtype, True))])]


def serve_udp(sock, stray, log):
    while True:
        q, peer = sock.recvfrom(4096)
        try:
            first, out = strays(q), replies(q)
        except (IndexError, struct.error):
            continue
        log_query(log, q)
        for r in first:
            stray.sendto(r, peer)
        for r in out:
            sock.sendto(r, peer)


def serve_tcp_conn(conn, log):
    with conn:
        while True:
            head = conn.recv(2)
            if len(head) < 2:
                return
            n = struct.unpack(">H", head)[0]
            q = b""
            while len(q) < n:
                part = conn.recv(n - len(q))
                if not part:
                    return
                q += part
            try:
                out = replies(q)
            except (IndexError, struct.error):
                return
            log_query(log, q, "tcp")
            for r in out:
                conn.sendall(struct.pack(">H", len(r)) + r)


def serve_tcp(sock, log):
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=serve_tcp_conn, args=(conn, log), daemon=True).start()


lock = threading.Lock()


def log_query(log, q, proto="udp"):
    _, _, labels, question, _ = parse(q)
    qtype = struct.unpack(">H", question[-4:-2])[0]
    with lock:
        log.write("%s %d %s\n" % (b".".join(labels).decode("ascii", "replace"), qtype, proto))


def main():
    addr, logname, dashes = sys.argv[1:4]
    assert dashes == "--"
    log = open(logname, "a", buffering=1)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((addr, 53))
    stray = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    stray.bind((addr, 0))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((addr, 53))
    tcp.listen(16)
    threading.Thread(target=serve_tcp, args=(tcp, log), daemon=True).start()
    threading.Thread(target=serve_udp, args=(udp, stray, log), daemon=True).start()
    sys.exit(subprocess.call(sys.argv[4:]))


if __name__ == "__main__":
    main()
