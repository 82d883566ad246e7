# SPDX-License-Identifier: Apache-2.0
# dnspython_probe.py NAME...: dnspython's resolver with the search list
# (search=True reads resolv.conf's, with its ndots), A only: one line per
# name, the canonical name and the addresses sorted, or the error's class.
import sys

import dns.resolver

for name in sys.argv[1:]:
    try:
        answer = dns.resolver.resolve(name, "A", search=True)
        print(f"{name}: {answer.canonical_name} {' '.join(sorted(r.address for r in answer))}")
    except dns.resolver.NXDOMAIN:
        print(f"{name}: NXDOMAIN")
    except dns.resolver.NoAnswer:
        print(f"{name}: NoAnswer")
    except dns.exception.DNSException as e:
        print(f"{name}: {type(e).__name__}")
