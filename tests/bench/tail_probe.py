#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tail_probe.py SERVER NAMES RATE SECONDS: asks SERVER (port 53, UDP) for
# n1.wild.example.com .. nNAMES.wild.example.com A, each name RATE times a
# second, spread evenly, for SECONDS, once each is cached; prints "p50 p99
# p999 answered lost" over every query, latencies in ms. A query unanswered
# after 2 s is lost.
import asyncio
import os
import socket
import struct
import sys
import time


def query(qid, name):
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split("."))
    return struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0) + labels + b"\0" + struct.pack(">HH", 1, 1)


class Client(asyncio.DatagramProtocol):
    def __init__(self):
        self.sent = {}  # id -> send time
        self.latencies = []

    def datagram_received(self, data, addr):
        qid = struct.unpack(">H", data[:2])[0]
        t = self.sent.pop(qid, None)
        if t is not None:
            self.latencies.append(time.perf_counter() - t)


async def main(server, names, rate, seconds):
    loop = asyncio.get_running_loop()
    transport, client = await loop.create_datagram_endpoint(Client, remote_addr=(server, 53),
                                                            family=socket.AF_INET)
    # Every name cached first: the misses of a cold cache are no tail.
    for i in range(names):
        transport.sendto(query(i, "n%d.wild.example.com" % (i + 1)))
        await asyncio.sleep(0.001)
    await asyncio.sleep(1)
    client.latencies.clear()
    interval = 1.0 / (names * rate)
    start = time.perf_counter()
    qid = int.from_bytes(os.urandom(2), "big")
    n = 0
    while (now := time.perf_counter()) - start < seconds:
        due = start + n * interval
        if due > now:
            await asyncio.sleep(due - now)
        qid = (qid + 1) & 0xFFFF
        client.sent[qid] = time.perf_counter()
        transport.sendto(query(qid, "n%d.wild.example.com" % (n % names + 1)))
        n += 1
    await asyncio.sleep(2)
    transport.close()
    lat = sorted(client.latencies)
    if not lat:
        print("- - - 0", n)
        return

    def pct(p):
        return "%.3f" % (lat[min(len(lat) - 1, int(len(lat) * p))] * 1000)

    print(pct(0.50), pct(0.99), pct(0.999), len(lat), n - len(lat))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])))
