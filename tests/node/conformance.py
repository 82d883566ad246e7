# SPDX-License-Identifier: Apache-2.0
"""conformance.py SERVER ZONE cache|auth [SEEDS_DIR]: the checks of RFC 8906
section 8, and those of issue 46, as raw packets to SERVER:53 about ZONE.

The zone holds an SOA and `two` with two TXT records of 573 bytes together.
`cache`: a recursive server (RD=1, RA expected); `auth`: an authoritative
one (RD=0, AA expected). One line a check, tab-separated: `ok NAME` or
`FAIL NAME DETAIL`; then `done N`. With SEEDS_DIR, every query sent is
written there too (the fuzz targets' seeds). Run with the system python3
(dnspython).
"""

import hashlib
import os
import socket
import struct
import sys

import dns.edns
import dns.flags
import dns.message
import dns.opcode
import dns.rcode
import dns.rdataclass
import dns.rdatatype
import dns.tsig
import dns.tsigkeyring

SERVER, ZONE, MODE = sys.argv[1], sys.argv[2].rstrip(".") + ".", sys.argv[3]
SEEDS = sys.argv[4] if len(sys.argv) > 4 else None
CACHE = MODE == "cache"
RD = dns.flags.RD if CACHE else 0
DO = dns.flags.DO
UNKNOWN_OPTION = 100
UNKNOWN_EDNS_FLAG = 0x0040  # a bit of the EDNS flags that MBZ
Z = 0x0040  # the header's Z bit
count = 0


def result(name, ok, detail=""):
    global count
    count += 1
    print(f"ok\t{name}" if ok else f"FAIL\t{name}\t{detail}", flush=True)


def exchange(wire, tcp=False):
    """The reply's bytes, or None after 3 s."""
    if SEEDS:
        with open(os.path.join(SEEDS, hashlib.sha1(wire).hexdigest()), "wb") as f:
            f.write(wire)
    family = socket.AF_INET6 if ":" in SERVER else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM if tcp else socket.SOCK_DGRAM)
    s.settimeout(3)
    try:
        s.connect((SERVER, 53))
        if not tcp:
            s.send(wire)
            return s.recv(65535)
        s.sendall(struct.pack("!H", len(wire)) + wire)
        head = b""
        while len(head) < 2:
            head += s.recv(2 - len(head))
        (n,) = struct.unpack("!H", head)
        out = b""
        while len(out) < n:
            chunk = s.recv(n - len(out))
            if not chunk:
                return None
            out += chunk
        return out
    except (socket.timeout, ConnectionError):
        return None
    finally:
        s.close()


def query(qname=ZONE, qtype="SOA", flags=RD, edns=-1, ednsflags=0, payload=1232, options=None):
    q = dns.message.make_query(qname, qtype)
    q.use_edns(edns, ednsflags, payload, options=options or [])
    q.flags = flags
    return q


class Unparsed:
    """A reply to an opcode dnspython does not know, read by hand: the
    header, and the OPT when it is the only record (its version)."""

    def __init__(self, wire):
        _, self.flags, qd, an, ns, ar = struct.unpack("!HHHHHH", wire[:12])
        self.answer = [None] * an
        opt = ar == 1 and qd == an == ns == 0 and wire[12:15] == b"\0\0\x29"
        self.edns = wire[18] if opt else -1
        self.extended = wire[17] if opt else 0

    def rcode(self):
        return self.extended << 4 | self.flags & 0xF

    def opcode(self):
        return self.flags >> 11 & 0xF


def ask(q, tcp=False):
    wire = exchange(q.to_wire() if isinstance(q, dns.message.Message) else q, tcp)
    if wire is None:
        return None
    return Unparsed(wire) if wire[2] >> 3 & 0xF == 15 else dns.message.from_wire(wire)


def has_soa(r):
    return any(rr.rdtype == dns.rdatatype.SOA for rr in r.answer)


def expect(name, r, rcode=dns.rcode.NOERROR, soa=None, edns=None, **more):
    """Each named condition of the reply `r`, one result for all."""
    if r is None:
        return result(name, False, "no reply")
    why = []
    if r.rcode() != rcode:
        why.append(f"rcode {dns.rcode.to_text(r.rcode())}, wanted {dns.rcode.to_text(rcode)}")
    if soa is not None and has_soa(r) != soa:
        why.append("SOA in the answer" if not soa else "no SOA in the answer")
    if edns is not None and r.edns != edns:
        why.append(f"EDNS version {r.edns}, wanted {edns}")
    if soa and rcode == dns.rcode.NOERROR:
        if CACHE and not r.flags & dns.flags.RA:
            why.append("RA clear")
        if not CACHE and not r.flags & dns.flags.AA:
            why.append("AA clear")
    for what, ok in more.items():
        if not ok:
            why.append(what.replace("_", " "))
    result(name, not why, "; ".join(why))


def option_codes(r):
    return [o.otype for o in r.options]


# RFC 8906 8.1: plain DNS.
expect("8.1.1 plain DNS: the SOA", ask(query()), soa=True, edns=-1)
r = ask(query(qtype=dns.rdatatype.from_text("TYPE1000")))
expect("8.1.2 unknown type: NODATA with the SOA in authority", r, soa=False,
       SOA_in_authority=r is not None and any(rr.rdtype == dns.rdatatype.SOA for rr in r.authority))
expect("8.1.3.1 CD=1", ask(query(flags=RD | dns.flags.CD)), soa=True)
expect("8.1.3.2 AD=1", ask(query(flags=RD | dns.flags.AD)), soa=True)
r = ask(query(flags=RD | Z))
expect("8.1.3.3 Z=1: answered, Z clear in the reply", r, soa=True, Z_set=r is None or not r.flags & Z)
header_only = struct.pack("!HHHHHH", 0x1234, 15 << 11 | RD, 0, 0, 0, 0)
r = ask(header_only)
expect("8.1.4 opcode 15, no question: NOTIMP", r, rcode=dns.rcode.NOTIMP, soa=False,
       opcode_not_copied=r is None or r.opcode() == 15)
expect("8.1.5 TCP", ask(query(), tcp=True), soa=True)

# RFC 8906 8.2: EDNS.
r = ask(query(edns=0))
expect("8.2.1 EDNS 0", r, soa=True, edns=0, options_in_reply=r is None or not r.options)
expect("8.2.2 EDNS 1: BADVERS, version 0", ask(query(edns=1)), rcode=dns.rcode.BADVERS, soa=False, edns=0)
opt100 = [dns.edns.GenericOption(UNKNOWN_OPTION, b"")]
r = ask(query(edns=0, options=opt100))
expect("8.2.3 unknown EDNS option: not echoed", r, soa=True, edns=0,
       option_100_echoed=r is None or UNKNOWN_OPTION not in option_codes(r))
r = ask(query(edns=0, ednsflags=UNKNOWN_EDNS_FLAG))
expect("8.2.4 unknown EDNS flag: not echoed", r, soa=True, edns=0,
       flag_echoed=r is None or not r.ednsflags & UNKNOWN_EDNS_FLAG)
r = ask(query(edns=1, ednsflags=UNKNOWN_EDNS_FLAG))
expect("8.2.5 EDNS 1 and an unknown flag: BADVERS", r, rcode=dns.rcode.BADVERS, soa=False, edns=0,
       flag_echoed=r is None or not r.ednsflags & UNKNOWN_EDNS_FLAG)
r = ask(query(edns=1, options=opt100))
expect("8.2.6 EDNS 1 and an unknown option: BADVERS", r, rcode=dns.rcode.BADVERS, soa=False, edns=0,
       option_100_echoed=r is None or UNKNOWN_OPTION not in option_codes(r))
r = ask(query("two." + ZONE, "TXT", edns=0, ednsflags=DO, payload=512))
expect("8.2.7 DO=1 at 512 bytes: cut whole, OPT kept", r, edns=0,
       partial_RRset=r is None or not r.answer or len(r.answer[0]) == 2,
       answer_whole_or_TC=r is None or bool(r.answer) != bool(r.flags & dns.flags.TC))
r = ask(query(edns=0, ednsflags=DO))
expect("8.2.8 DO=1: DO copied (RFC 3225 3)", r, soa=True, edns=0, DO_clear=r is None or r.ednsflags & DO)
expect("8.2.9 EDNS 1 and DO=1: BADVERS", ask(query(edns=1, ednsflags=DO)), rcode=dns.rcode.BADVERS,
       soa=False, edns=0)
several = [dns.edns.GenericOption(dns.edns.NSID, b""),
           dns.edns.ECSOption("0.0.0.0", 0),
           dns.edns.GenericOption(dns.edns.EXPIRE, b""),
           dns.edns.GenericOption(dns.edns.COOKIE, bytes(range(8)))]
r = ask(query(edns=0, options=several))
# NSID, ECS, EXPIRE and cookies are not implemented: none comes back.
expect("8.2.10 NSID, ECS, EXPIRE, COOKIE at once", r, soa=True, edns=0,
       an_option_came_back=r is None or not r.options)
expect("EDNS over TCP", ask(query(edns=0), tcp=True), soa=True, edns=0)
expect("EDNS at 512 bytes", ask(query(edns=0, payload=512)), soa=True, edns=0)

# Issue 46.
r = ask(query("two." + ZONE, "TXT"))
expect("573 bytes without EDNS: TC, no part of the RRset (RFC 2181 9)", r, edns=-1,
       TC_clear=r is None or r.flags & dns.flags.TC, partial_RRset=r is None or not r.answer)
r = ask(query("two." + ZONE, "TXT"), tcp=True)
expect("573 bytes over TCP: both records", r, TC_set=r is None or not r.flags & dns.flags.TC,
       not_both=r is not None and r.answer and len(r.answer[0]) == 2)
no_question = query(edns=0)
no_question.question = []
r = ask(no_question)
expect("no question, with OPT: FORMERR with OPT (RFC 6891 7)", r, rcode=dns.rcode.FORMERR, edns=0)
r = ask(struct.pack("!HHHHHH", 0x1234, 15 << 11, 0, 0, 0, 1) + query(edns=0).to_wire()[-11:])
expect("opcode 15 with OPT: NOTIMP with OPT", r, rcode=dns.rcode.NOTIMP, edns=0)
for qtype in ("AXFR", "IXFR"):
    for tcp in (False, True):
        q = query(qtype=qtype)
        if qtype == "IXFR":
            q.authority = [dns.rrset.from_text(ZONE, 0, "IN", "SOA", ". . 1 1 1 1 1")]
        expect(f"{qtype} over {'TCP' if tcp else 'UDP'}: REFUSED", ask(q, tcp), rcode=dns.rcode.REFUSED)
for klass in ("ANY", "CH"):
    q = query()
    q.question[0].rdclass = dns.rdataclass.from_text(klass)
    expect(f"QCLASS {klass}: REFUSED", ask(q), rcode=dns.rcode.REFUSED)
r = ask(query(flags=0))
if CACHE:
    expect("RD=0 to a cache: REFUSED", r, rcode=dns.rcode.REFUSED)
else:
    expect("RD=0 to an authority: answered", r, soa=True)

# RFC 8945 5.2.1: a key we do not hold is BADKEY, never an unsigned answer.
keyring = dns.tsigkeyring.from_text({"unknown-key.": "c2VjcmV0c2VjcmV0c2VjcmV0"})
q = query("tsig-probe." + ZONE, "A")
q.use_tsig(keyring, keyname="unknown-key.")
wire = exchange(q.to_wire())
if wire is None:
    result("TSIG with an unknown key: NOTAUTH, BADKEY", False, "no reply")
else:
    try:
        dns.message.from_wire(wire, keyring=keyring, request_mac=q.mac)
        result("TSIG with an unknown key: NOTAUTH, BADKEY", False, "the reply was taken as signed")
    except dns.tsig.PeerBadKey:
        rcode = wire[3] & 0xF
        result("TSIG with an unknown key: NOTAUTH, BADKEY", rcode == dns.rcode.NOTAUTH,
               f"rcode {dns.rcode.to_text(rcode)}")
    except Exception as e:  # anything else a client makes of it
        result("TSIG with an unknown key: NOTAUTH, BADKEY", False, repr(e))

print(f"done\t{count}")
