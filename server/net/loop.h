// SPDX-License-Identifier: Apache-2.0
// One event loop per worker thread (libevent), and the way other threads
// hand it work: a mailbox drained on the loop's own thread.
#pragma once

#include <event2/event.h>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace rk8s::server {

class Loop {
 public:
  Loop();
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  event_base* base() const { return base_; }
  // Runs `fn` on this loop's thread: at once when called from it, else
  // soon. Safe from any thread.
  void post(std::function<void()> fn);
  // Runs until stop() (from any thread) or until no event is left.
  void run();
  void stop();
  // `fn` once, after `ms` milliseconds, on this loop.
  void after(unsigned ms, std::function<void()> fn);

  // The loop whose thread is calling; nullptr outside the workers.
  static Loop* current();

 private:
  static void drain(evutil_socket_t, short, void* arg);

  event_base* base_;
  event* wakeup_;
  std::mutex mutex_;
  std::vector<std::function<void()>> mailbox_;
};

// A C callback's `arg` for a one-shot std::function.
struct Once {
  std::function<void()> fn;
  static void fire(evutil_socket_t, short, void* arg);
};

}  // namespace rk8s::server
