#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""split_upstream.py ADDR: an upstream on ADDR:53 that says NXDOMAIN for one
type of a name that has another (tests/node/cache_test.sh): a GSLB's
names under gslb.test have an A record and answer AAAA NXDOMAIN (RFC 4074
section 4.2), and names under in-addr.arpa have a PTR record and answer
any other type NXDOMAIN, as CoreDNS's kubernetes plugin does for a
Service's address. Negative answers carry an SOA of TTL 30, so that a
cache keeps them."""
import sys

import dns.message
import dns.name
import dns.rcode
import dns.rdatatype
import dns.rrset

import udp_upstream

GSLB = dns.name.from_text("gslb.test")
REVERSE = dns.name.from_text("in-addr.arpa")


def answer(query):
    reply = dns.message.make_response(query)
    q = query.question[0]
    zone, has, rdata = ((GSLB, dns.rdatatype.A, "192.0.2.10") if q.name.is_subdomain(GSLB)
                        else (REVERSE, dns.rdatatype.PTR, "web.prod.svc.cluster.local."))
    if q.rdtype == has:
        reply.answer.append(dns.rrset.from_text(q.name, 30, "IN", dns.rdatatype.to_text(has), rdata))
    else:
        reply.set_rcode(dns.rcode.NXDOMAIN)
        reply.authority.append(dns.rrset.from_text(zone, 30, "IN", "SOA", "ns. hostmaster. 1 7200 1800 604800 30"))
    return reply


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    udp_upstream.serve(sys.argv[1], answer)
