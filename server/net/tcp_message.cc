// SPDX-License-Identifier: Apache-2.0
#include "server/net/tcp_message.h"

#include <algorithm>

#include "libresolv-k8s/util/base.h"

namespace rk8s::server {

bool take_tcp_message(evbuffer* in, std::vector<uint8_t>& msg) {
  uint8_t len[2];
  if (evbuffer_copyout(in, len, 2) != 2 || evbuffer_get_length(in) < 2u + load16(len)) return false;
  evbuffer_drain(in, 2);
  msg.resize(load16(len));
  evbuffer_remove(in, msg.data(), msg.size());
  return true;
}

// One buffer, so one write: a length sent apart from its message is a
// segment of its own, and a peer that reads one segment at a time waits
// for the rest.
void put_tcp_message(bufferevent* bev, const std::vector<uint8_t>& msg) {
  std::vector<uint8_t> framed(2 + msg.size());
  store16(framed.data(), uint16_t(msg.size()));
  std::copy(msg.begin(), msg.end(), framed.begin() + 2);
  bufferevent_write(bev, framed.data(), framed.size());
}

}  // namespace rk8s::server
