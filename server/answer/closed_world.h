// SPDX-License-Identifier: Apache-2.0
// A closed world: the records of zone files and a kubectl dump; a name
// under none of its zones is NXDOMAIN.
#pragma once

#include <memory>

#include "server/data/store.h"
#include "server/model/source.h"

namespace rk8s::server {

class ClosedWorld : public Source {
 public:
  explicit ClosedWorld(std::shared_ptr<const Store> store) : store_(std::move(store)) {}
  // At once: the store's lookup.
  void resolve(const Ask& ask, Resolved done) override;
  const Store& store() const { return *store_; }

 private:
  std::shared_ptr<const Store> store_;
};

}  // namespace rk8s::server
