// SPDX-License-Identifier: Apache-2.0
// The marker path of "DNS Autopath in PodSpec" (docs/autopath-protocol.md,
// "The marker"). A pod whose first search domain is
// search.<ns>.<clusterDomain>.<marker> asks every short name under it
// first, whatever its resolver; this source answers such a name for its
// base walked over the list kubelet writes for ClusterFirst:
// <ns>.svc.<clusterDomain>, svc.<clusterDomain>, <clusterDomain>, the
// node's search domains, then the base as typed. The first candidate that
// exists decides: with data, the answer is `marker-name CNAME candidate`
// and the candidate's own answer; without, NODATA for the marker name,
// where every resolver acts as at the candidate itself. Nothing found, or
// a failure, is NXDOMAIN for the marker name, so that the client goes on
// down the list kept after the marker and reaches its own verdict, as each
// resolver has its own rules for failures.
#pragma once

#include "server/answer/autopath_settings.h"
#include "server/answer/autopath_walk.h"

namespace rk8s::server {

// <clusterDomain>.<marker>, the zone the source answers.
bool marker_zone(const MarkerConfig& config, Name& zone);

// The base and namespace of <base>.search.<ns>.<zone>: false for any other
// name, a namespace that is not an RFC 1123 label, and a base that holds a
// marker name itself.
bool parse_marker_name(const Name& zone, const Name& name, Name& base, Name& ns);

// The pod's search list for namespace `ns` (the node's domains without
// those kubelet would drop as repeated), then the root for the name as
// typed, as an autopath option's suffixes.
void marker_search(const MarkerConfig& config, const Name& ns, autopath::QueryOption& out);

class MarkerSource : public Source {
 public:
  // `router` resolves the candidates; both outlive the source, and so does
  // `held`, what the walks are charged to, and `cuts`, what they skip
  // (autopath_walk.h).
  MarkerSource(const MarkerConfig& config, const Name& zone, const Router& router, HeldBytes* held = nullptr,
               const WalkCuts& cuts = {})
      : config_(config), zone_(zone), router_(router), held_(held), cuts_(cuts) {}
  void resolve(const Ask& ask, Resolved done) override;

 private:
  const MarkerConfig& config_;
  const Name zone_;
  const Router& router_;
  HeldBytes* held_;
  const WalkCuts cuts_;
};

}  // namespace rk8s::server
