// SPDX-License-Identifier: Apache-2.0
// A closed world: the records of zone files and a kubectl dump, the test
// faults applied; a name under none of its zones is NXDOMAIN.
#pragma once

#include <memory>

#include "server/data/store.h"
#include "server/model/faults.h"
#include "server/model/source.h"

namespace rk8s::server {

class ClosedWorld : public Source {
 public:
  ClosedWorld(std::shared_ptr<const Store> store, const Faults& faults)
      : store_(std::move(store)), faults_(faults) {}
  // At once: a fixed rcode with no records for an --rcode fault, nothing
  // for a --drop fault, else the store's lookup.
  void resolve(const Ask& ask, Resolved done) override;
  const Store& store() const { return *store_; }

 private:
  std::shared_ptr<const Store> store_;
  const Faults& faults_;
};

}  // namespace rk8s::server
