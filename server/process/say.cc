// SPDX-License-Identifier: Apache-2.0
#include "server/process/say.h"

#include <event2/event.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace rk8s::server {
namespace {

using Clock = std::chrono::steady_clock;

// Causes kept apart at most: beyond, the oldest record is forgotten (its
// next line is said at once).
constexpr size_t kMaxCauses = 256;

struct Cause {
  Clock::time_point said;
  uint64_t held = 0;
  std::string line;  // the last held back
};

std::mutex mutex;
std::unordered_map<std::string, Cause>& causes() {
  static auto* map = new std::unordered_map<std::string, Cause>;
  return *map;
}
std::atomic<uint64_t> held_total{0};

void print(const std::string& what) { fprintf(stderr, "resolv-k8s-server: %s\n", what.c_str()); }

// The line without its digits: lines that differ in counts, ports or
// addresses alone have one cause.
std::string cause_of(const std::string& line) {
  std::string out;
  for (char c : line)
    if (c < '0' || c > '9') out += c;
  return out;
}

std::string held_text(const Cause& c) {
  return std::to_string(c.held) + " more like '" + c.line + "' in the last " + std::to_string(kQuietSeconds) +
         " s";
}

}  // namespace

void say(const std::string& what) { print(what); }

void say_limited(const std::string& what) {
  Clock::time_point now = Clock::now();
  std::string held;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto& map = causes();
    if (map.size() >= kMaxCauses) map.clear();
    auto [it, first] = map.try_emplace(cause_of(what));
    Cause& c = it->second;
    if (!first && now - c.said < std::chrono::seconds(kQuietSeconds)) {
      c.held++;
      c.line = what;
      held_total++;
      return;
    }
    if (c.held) held = held_text(c);
    c.said = now;
    c.held = 0;
  }
  if (!held.empty()) print(held);
  print(what);
}

void say_held_back() {
  Clock::time_point now = Clock::now();
  std::vector<std::string> lines;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto& [cause, c] : causes())
      if (c.held && now - c.said >= std::chrono::seconds(kQuietSeconds)) {
        lines.push_back(held_text(c));
        c.held = 0;
        c.said = now;
      }
  }
  for (const std::string& line : lines) print(line);
}

uint64_t lines_held_back() { return held_total; }

void say_libevent_warnings() {
  event_set_log_callback([](int severity, const char* msg) {
    if (severity >= EVENT_LOG_WARN) say_limited(std::string("libevent: ") + msg);
  });
}

}  // namespace rk8s::server
