// SPDX-License-Identifier: Apache-2.0
#include "server/net/loop.h"

#include <event2/thread.h>

#include <stdexcept>

namespace rk8s::server {
namespace {

// The loop this thread runs, set for run()'s length: what post() checks
// to run work inline, and current() gives a source (forward/forwarder.cc)
// asked from a listener's callback, whose interface (model/source.h, below
// net/) has no loop to pass. It says which thread this is; it carries
// nothing from one call to the next.
thread_local Loop* running;

// libevent locks its structures for event_active from other threads.
bool threads_on = [] { return evthread_use_pthreads() == 0; }();

// Timers by CLOCK_MONOTONIC, to the microsecond: by default libevent reads
// the coarse clock, a tick of the kernel's (4 ms at HZ=250), and --delay-ms
// 2 then waited 2 or 4 ms by chance.
event_base* new_base() {
  event_config* config = event_config_new();
  if (!config) return nullptr;
  event_config_set_flag(config, EVENT_BASE_FLAG_PRECISE_TIMER);
  event_base* base = event_base_new_with_config(config);
  event_config_free(config);
  return base;
}

}  // namespace

Loop::Loop() : base_(new_base()) {
  if (!threads_on || !base_) throw std::runtime_error("libevent: no event base");
  wakeup_ = event_new(base_, -1, EV_PERSIST, drain, this);
  event_add(wakeup_, nullptr);
}

Loop::~Loop() {
  kept_.clear();  // their events are on base_
  event_free(wakeup_);
  event_base_free(base_);
}

Loop* Loop::current() { return running; }

void Loop::post(std::function<void()> fn) {
  if (running == this) return fn();
  std::lock_guard<std::mutex> lock(mutex_);
  mailbox_.push_back(std::move(fn));
  if (mailbox_.size() == 1) event_active(wakeup_, EV_READ, 0);
}

void Loop::drain(evutil_socket_t, short, void* arg) {
  Loop& loop = *static_cast<Loop*>(arg);
  std::vector<std::function<void()>> work;
  {
    std::lock_guard<std::mutex> lock(loop.mutex_);
    work.swap(loop.mailbox_);
  }
  for (auto& fn : work) fn();
}

void Loop::run() {
  running = this;
  event_base_loop(base_, EVLOOP_NO_EXIT_ON_EMPTY);
  running = nullptr;
}

void Loop::stop() {
  post([this] { event_base_loopbreak(base_); });
}

void Once::fire(evutil_socket_t, short, void* arg) {
  std::unique_ptr<Once> once(static_cast<Once*>(arg));
  once->fn();
}

void Loop::after(unsigned ms, std::function<void()> fn) {
  timeval tv{long(ms / 1000), long(ms % 1000) * 1000};
  event_base_once(base_, -1, EV_TIMEOUT, Once::fire, new Once{std::move(fn)}, &tv);
}

}  // namespace rk8s::server
