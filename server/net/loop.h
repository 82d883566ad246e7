// SPDX-License-Identifier: Apache-2.0
// One event loop per worker thread (libevent), and the way other threads
// hand it work: a mailbox drained on the loop's own thread.
#pragma once

#include <event2/event.h>

#include <functional>
#include <map>
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

  // What another layer keeps for this loop, one T per loop (forward/'s
  // pooled connections and TLS contexts): made at its first use, freed
  // with the loop, before its event base. From the loop's thread only.
  template <class T>
  T& kept() {
    static const char tag = 0;  // one address per T
    std::shared_ptr<void>& slot = kept_[&tag];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

 private:
  static void drain(evutil_socket_t, short, void* arg);

  event_base* base_;
  event* wakeup_;
  std::mutex mutex_;
  std::vector<std::function<void()>> mailbox_;
  std::map<const void*, std::shared_ptr<void>> kept_;
};

// A C callback's `arg` for a one-shot std::function.
struct Once {
  std::function<void()> fn;
  static void fire(evutil_socket_t, short, void* arg);
};

}  // namespace rk8s::server
