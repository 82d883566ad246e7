// SPDX-License-Identifier: Apache-2.0
// The metrics of every part, as the one Prometheus text /metrics answers:
// each feature renders its own families (its metrics.h, in
// common/prometheus.h's text); the process registers each, in the order
// they are to appear, after the server's version (resolv_k8s_build_info).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rk8s::server {

class Registry {
 public:
  using Render = std::function<std::string()>;

  void add(Render render) { renders_.push_back(std::move(render)); }
  std::string render() const;

 private:
  std::vector<Render> renders_;
};

}  // namespace rk8s::server
