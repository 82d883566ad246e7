// SPDX-License-Identifier: Apache-2.0
#include "server/net/accept_pause.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace rk8s::server {
namespace {

// libevent hands the error callback the listener's user data, which the
// HTTP server's listener gives to evhttp: the pause is found by listener.
std::mutex registry_mutex;
std::unordered_map<evconnlistener*, AcceptPause*>& registry() {
  static auto* pauses = new std::unordered_map<evconnlistener*, AcceptPause*>;
  return *pauses;
}

}  // namespace

AcceptPause::AcceptPause(Loop& loop, evconnlistener* listener, std::string what, Warn warn)
    : loop_(loop), listener_(listener), what_(std::move(what)), warn_(std::move(warn)) {
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    registry()[listener] = this;
  }
  evconnlistener_set_error_cb(listener, on_error);
}

AcceptPause::~AcceptPause() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry().erase(listener_);
}

void AcceptPause::hold() {
  if (held_) return;
  held_ = true;
  evconnlistener_disable(listener_);
}

void AcceptPause::release() {
  if (!held_) return;
  held_ = false;
  if (!pausing_) evconnlistener_enable(listener_);
}

void AcceptPause::on_error(evconnlistener* listener, void*) {
  int error = errno;
  AcceptPause* self;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto it = registry().find(listener);
    if (it == registry().end()) return;
    self = it->second;
  }
  self->warn_("accept " + self->what_ + ": " + strerror(error) + "; not accepting for " +
              std::to_string(kPauseMs) + " ms");
  self->paused();
}

void AcceptPause::paused() {
  pausing_ = true;
  evconnlistener_disable(listener_);
  loop_.after(kPauseMs, [this] {
    pausing_ = false;
    if (!held_) evconnlistener_enable(listener_);
  });
}

}  // namespace rk8s::server
