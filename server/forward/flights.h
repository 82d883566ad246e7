// SPDX-License-Identifier: Apache-2.0
// Questions on their way to an upstream, shared by every thread: the same
// question asked again meanwhile joins the one in flight, and every asker
// is answered on its own loop when the reply comes.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/model/source.h"
#include "server/net/loop.h"

namespace rk8s::server {

class Flights {
 public:
  // True when `key` was not in flight: the caller sends it, then land()s it.
  bool join(const std::string& key, Loop* loop, Resolved done);
  // Every asker of `key` gets `res` (copied to its loop).
  void land(const std::string& key, const Resolution& res);
  size_t in_flight() const;

 private:
  struct Asker {
    Loop* loop;
    Resolved done;
  };
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<Asker>> waiting_;
};

}  // namespace rk8s::server
