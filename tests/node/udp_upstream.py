# SPDX-License-Identifier: Apache-2.0
"""The loop of the node tests' UDP upstream stand-ins (attack.py's flip,
split_upstream.py): each query read on ADDR:53 answered with what
`answer` makes of it, after "listening" on stderr; what does not parse is
dropped."""
import socket
import sys

import dns.message

PORT = 53


def serve(addr, answer):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, PORT))
    print("listening", file=sys.stderr, flush=True)
    while True:
        data, peer = s.recvfrom(65535)
        try:
            query = dns.message.from_wire(data)
        except Exception:
            continue
        s.sendto(answer(query).to_wire(), peer)
