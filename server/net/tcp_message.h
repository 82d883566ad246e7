// SPDX-License-Identifier: Apache-2.0
// DNS over TCP's framing (RFC 1035 4.2.2): each message after its length
// in two bytes.
#pragma once

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include <cstdint>
#include <vector>

namespace rk8s::server {

// Takes the next whole message off `in` into `msg`; false until one is in.
bool take_tcp_message(evbuffer* in, std::vector<uint8_t>& msg);
void put_tcp_message(bufferevent* bev, const std::vector<uint8_t>& msg);

}  // namespace rk8s::server
