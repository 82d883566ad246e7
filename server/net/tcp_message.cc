#include "server/net/tcp_message.h"

#include "util/base.h"

namespace rk8s::server {

bool take_tcp_message(evbuffer* in, std::vector<uint8_t>& msg) {
  uint8_t len[2];
  if (evbuffer_copyout(in, len, 2) != 2 || evbuffer_get_length(in) < 2u + load16(len)) return false;
  evbuffer_drain(in, 2);
  msg.resize(load16(len));
  evbuffer_remove(in, msg.data(), msg.size());
  return true;
}

void put_tcp_message(bufferevent* bev, const std::vector<uint8_t>& msg) {
  uint8_t len[2];
  store16(len, uint16_t(msg.size()));
  bufferevent_write(bev, len, 2);
  bufferevent_write(bev, msg.data(), msg.size());
}

}  // namespace rk8s::server
