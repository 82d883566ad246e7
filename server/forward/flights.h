// SPDX-License-Identifier: Apache-2.0
// Questions on their way to an upstream, shared by every thread: the same
// question asked again meanwhile joins the one in flight, and every asker
// is answered on its own loop when the reply comes. Bounded: questions in
// flight (limits.maxConcurrent), askers waiting on one question
// (maxJoined) and in all (maxPending); and shared out by client address
// (net/client_share.h): while n clients have askers waiting, none may hold
// more than 1/(n+1) of either bound, so a client that floods leaves room
// for every other. The server's own questions (prefetches, serve-stale
// refreshes, the loop probe) have a bound of their own beside the clients'
// questions (refresh_limit), so a thousand names near expiry behind a slow
// upstream take no client's slot, and no client's flood starves them.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/model/source.h"
#include "server/net/client_share.h"
#include "server/net/loop.h"

namespace rk8s::server {

struct FlightLimits {
  size_t questions = 1000;  // maxConcurrent
  size_t waiting = 1024;    // maxPending
  size_t joined = 64;       // maxJoined
};

// The server's own questions in flight at once beside maxConcurrent: a
// tenth as many.
inline size_t refresh_limit(size_t questions) { return questions / 10 ? questions / 10 : 1; }

// Why an asker was turned away; `none` when it was not. `memory`: the bytes
// its query would hold, past the budget or its client's share of it
// (held_bytes.h).
enum class Refusal : uint8_t { none, questions, waiting, joined, share, budget, memory };
constexpr size_t kRefusals = 7;
const char* refusal_name(Refusal r);  // "maxConcurrent", "maxPending", ...

class Flights {
 public:
  explicit Flights(const FlightLimits& limits) : limits_(limits) {}

  // Joins the question `key`, or starts it when it is not in flight (then
  // `start` is set: the caller sends it, then land()s it); `done` is taken
  // only when the asker is not turned away. A null `client` is the
  // server's own asker (a prefetch), bound by refresh_limit alone and never
  // joined to another (`questions`, `joined`); `may_start` false: the
  // asker's query may send no more questions (`budget`).
  Refusal join(const std::string& key, const IpAddr* client, bool may_start, Loop* loop, Resolved&& done,
               bool& start);
  // Every asker of `key` gets `res`, one copy shared by all their loops.
  void land(const std::string& key, const Resolution& res);

  struct Counts {
    size_t questions = 0, waiting = 0, clients = 0;  // the clients'
    size_t refreshes = 0;                             // the server's own questions
  };
  Counts counts() const;

 private:
  struct Held {
    size_t waiting = 0, questions = 0;
  };
  struct Asker {
    Loop* loop;
    Resolved done;
    bool counted;  // a client's, counted in `waiting_` and `clients_`
    ClientKey client;
  };
  struct Flight {
    std::vector<Asker> askers;
    bool counted = false;  // started by a client: one of its `questions`
    bool refresh = false;  // started by the server: one of `refreshes_`
    ClientKey owner{};
  };

 public:
  // The heap an asker's place takes: its entry, and as much again that
  // the vector's doubling leaves spare at most.
  static constexpr size_t kAskerBytes = 2 * sizeof(Asker);

 private:

  Refusal admit(const ClientKey& client, bool first) const;
  void release(const ClientKey& client, bool waiting, bool question);

  const FlightLimits limits_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Flight> flights_;
  std::unordered_map<ClientKey, Held, ClientKeyHash> clients_;
  size_t waiting_ = 0;
  size_t refreshes_ = 0;
};

}  // namespace rk8s::server
