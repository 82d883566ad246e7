// SPDX-License-Identifier: Apache-2.0
// A source with the name faults in its way (--rcode, --drop): a fault's
// name and type answer its rcode with no records, or never; every other
// question is the source's.
#pragma once

#include <memory>

#include "server/faults/name_faults.h"
#include "server/model/source.h"

namespace rk8s::server {

class FaultySource : public Source {
 public:
  FaultySource(std::unique_ptr<Source> source, std::shared_ptr<const NameFaults> faults)
      : source_(std::move(source)), faults_(std::move(faults)) {}
  void resolve(const Ask& ask, Resolved done) override;

 private:
  std::unique_ptr<Source> source_;
  std::shared_ptr<const NameFaults> faults_;
};

}  // namespace rk8s::server
