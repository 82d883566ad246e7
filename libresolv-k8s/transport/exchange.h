// SPDX-License-Identifier: Apache-2.0
// Sending caller-built queries to the nameservers of a Config, through
// c-ares, in the order and with the timeouts of glibc 2.36's res_send.
#pragma once

#include "util/base.h"
#include "conf/resolv_conf.h"
#include "util/random.h"

namespace rk8s {

struct Reply {
  enum Status : uint8_t {
    ok,            // msg holds the reply (any rcode but the three below: FORMERR too;
                   // every rcode with glibc's use-vc)
    servfail,      // every server asked said SERVFAIL (or the last one, on mixed errors)
    refused,
    notimp,
    lame,          // glibc over UDP: NOERROR, no answers or additional records, neither AA
                   // nor RA (a referral): dropped like SERVFAIL
    timeout,
    conn_refused,  // ICMP unreachable (or TCP RST) from every server asked
    not_sent,      // attempts:0, or the other query of the pair failed first (single-request)
    error,         // c-ares could not run: memory, descriptors
  };
  Status status = not_sent;
  // The last reply received (status ok, servfail, refused, notimp or lame),
  // valid until the next exchange on this thread.
  const uint8_t* msg = nullptr;
  size_t len = 0;
  uint8_t server = 0;  // index in Config::ns of the server that answered
};

// Sends n (1 or 2) queries as glibc would: both together on one socket, or
// one after the other with single-request, on a fresh socket for the second
// with single-request-reopen; waits for all. Query bytes go out unchanged.
void exchange(const Config& conf, const Bytes* queries, Reply* replies, size_t n);

}  // namespace rk8s
