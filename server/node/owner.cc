// SPDX-License-Identifier: Apache-2.0
#include "server/node/owner.h"

#include "common/json.h"
#include "common/kube_api.h"
#include "common/load_error.h"

namespace rk8s::server {

OwnerAnswer daemon_set_state(const std::string& owner, const std::string& account_dir) {
  OwnerAnswer a;
  size_t slash = owner.find('/');
  KubeAnswer answer = kube_request("GET", "/apis/apps/v1/namespaces/" + owner.substr(0, slash) + "/daemonsets/" +
                                              owner.substr(slash + 1),
                                   "", "", account_dir);
  if (answer.status == 0) {
    a.why = answer.why;
    return a;
  }
  int status = answer.status;
  a.why = std::to_string(status);
  if (status == 404 || status == 401 || status == 403) {
    a.state = OwnerState::gone;
    return a;
  }
  if (status != 200) return a;
  try {
    JsonDoc doc(answer.body, "the DaemonSet");
    if (!doc.root().isObject()) return a;
    const Json::Value& meta = doc.root()["metadata"];
    if (meta.isObject() && meta.isMember("deletionTimestamp")) {
      a.state = OwnerState::gone;
      a.why = "being deleted";
    } else {
      a.state = OwnerState::present;
    }
  } catch (const LoadError& e) {
    a.why = std::string("200 with ") + e.what();
  }
  return a;
}

}  // namespace rk8s::server
