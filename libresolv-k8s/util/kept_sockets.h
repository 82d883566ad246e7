// SPDX-License-Identifier: Apache-2.0
// Sockets kept between lookups in one small process-wide shelf, each under
// a key: the server a DNS socket is connected to (transport/socket_pool.cc),
// or the family of a route probe (results/route.cc). Opening a socket costs
// more than what it is used for. A socket taken back is checked to still be
// ours (the application may have closed it and got the number back for
// something else), and none is kept on descriptors 0-2. A forked child
// closes the shelf's sockets: parent and child must not share one.
#pragma once

#include <sys/types.h>

#include "util/ip.h"

namespace rk8s {

struct KeptSocket {
  enum Use : uint8_t { dns, probe } use = dns;
  IpAddr key;       // dns: the server; probe: IpAddr{family}
  int fd = -1;
  uint16_t uses = 0;  // how often it served before
  dev_t dev = 0;      // its identity, as fstat sees it
  ino_t ino = 0;
};

// Fills s.dev and s.ino from s.fd; false when fstat fails (never keep it then).
bool identify(KeptSocket& s);
// The socket kept for `use` under `key` that is still ours, taken off the
// shelf; false when there is none.
bool take_kept(KeptSocket::Use use, const IpAddr& key, KeptSocket& out);
// Shelves `s` (identified, fd > 2); false when the shelf is full: close it then.
bool keep(const KeptSocket& s);

}  // namespace rk8s
