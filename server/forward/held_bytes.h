// SPDX-License-Identifier: Apache-2.0
// The bytes the server holds for clients' queries while they wait on
// upstreams (the query's state, its asker, its clientTimeout timer), in one
// budget (MemoryBudget::waiting) shared out by client address as the
// flights are (net/client_share.h): while n clients hold some, none may
// hold more than 1/(n+1) of it, and the last share's worth is kept for a
// client that holds none. A charge is what the heap gives for it,
// malloc's overhead included (cache/reply.h, heap_bytes), so that the
// bytes charged follow the process's RSS.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <unordered_map>

#include "server/net/client_share.h"

namespace rk8s::server {

class HeldBytes {
 public:
  explicit HeldBytes(size_t budget) : budget_(budget) {}
  HeldBytes(const HeldBytes&) = delete;
  HeldBytes& operator=(const HeldBytes&) = delete;

  // Bytes charged to a client until it is released or destroyed; empty
  // when nothing was charged.
  class Charge {
   public:
    Charge() = default;
    Charge(Charge&& o) noexcept { *this = std::move(o); }
    Charge& operator=(Charge&& o) noexcept;
    ~Charge() { release(); }
    explicit operator bool() const { return held_ != nullptr; }
    void release();

   private:
    friend class HeldBytes;
    HeldBytes* held_ = nullptr;
    ClientKey client_;
    size_t bytes_ = 0;
  };

  // `bytes` charged to `client`; an empty Charge past the budget or past
  // the client's share of it.
  Charge charge(const ClientKey& client, size_t bytes);

  size_t budget() const { return budget_; }
  size_t used() const { return used_.load(std::memory_order_relaxed); }
  // The most used has been: waiting queries come and go between two reads
  // of used(), and RSS keeps their high-water mark.
  size_t peak() const { return peak_.load(std::memory_order_relaxed); }

 private:
  void give_back(const ClientKey& client, size_t bytes);

  const size_t budget_;
  std::mutex mutex_;
  std::unordered_map<ClientKey, size_t, ClientKeyHash> clients_;
  std::atomic<size_t> used_{0};  // written under mutex_, read without it
  std::atomic<size_t> peak_{0};  // likewise
};

}  // namespace rk8s::server
