// SPDX-License-Identifier: Apache-2.0
#include "server/faults/faulty_source.h"

namespace rk8s::server {

void FaultySource::resolve(const Ask& ask, Resolved done) {
  std::optional<Fault> fault = faults_->find(ask.name, ask.type);
  if (!fault) return source_->resolve(ask, std::move(done));
  if (fault->drop) return done(nullptr);
  Resolution forced;
  forced.rcode = fault->rcode;
  done(&forced);
}

}  // namespace rk8s::server
