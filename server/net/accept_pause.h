// SPDX-License-Identifier: Apache-2.0
// A listener that stops taking connections for a while: after accept()
// fails (out of descriptors or memory), instead of spinning on the error,
// and while its connections are at their limit. Connections wait in the
// kernel's backlog meanwhile.
#pragma once

#include <event2/listener.h>

#include <string>

#include "server/model/warn.h"
#include "server/net/loop.h"

namespace rk8s::server {

class AcceptPause {
 public:
  static constexpr unsigned kPauseMs = 100;

  // `what` names the listener in what `warn` is told ("metrics 0.0.0.0:9254").
  AcceptPause(Loop& loop, evconnlistener* listener, std::string what, Warn warn);
  ~AcceptPause();
  AcceptPause(const AcceptPause&) = delete;
  AcceptPause& operator=(const AcceptPause&) = delete;

  // At the limit: no accept() until release().
  void hold();
  void release();

 private:
  static void on_error(evconnlistener* listener, void*);
  void paused();

  Loop& loop_;
  evconnlistener* listener_;
  std::string what_;
  Warn warn_;
  bool held_ = false, pausing_ = false;
};

}  // namespace rk8s::server
