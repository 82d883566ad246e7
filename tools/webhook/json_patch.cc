// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/json_patch.h"

#include <string>

namespace rk8s::tools {
namespace {

// RFC 6901: "~" and "/" in a member name.
std::string pointer_token(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

Json::Value operation(const char* op, const std::string& path, const Json::Value* value) {
  Json::Value o(Json::objectValue);
  o["op"] = op;
  o["path"] = path;
  if (value) o["value"] = *value;
  return o;
}

void diff(const Json::Value& from, const Json::Value& to, const std::string& path, Json::Value& ops) {
  if (from == to) return;
  // A list with items put in front of it (our init container), or whose
  // items stay where they were, some changed, some added at its end (an env
  // variable, a mount): those alone, so the patch stays small.
  if (from.isArray() && to.isArray() && to.size() >= from.size()) {
    Json::ArrayIndex added = to.size() - from.size();
    bool in_front = added > 0;
    for (Json::ArrayIndex i = 0; in_front && i < from.size(); i++) in_front = from[i] == to[added + i];
    for (Json::ArrayIndex i = 0; in_front && i < added; i++)
      ops.append(operation("add", path + "/" + std::to_string(i), &to[i]));
    if (in_front) return;
    for (Json::ArrayIndex i = 0; i < from.size(); i++) diff(from[i], to[i], path + "/" + std::to_string(i), ops);
    for (Json::ArrayIndex i = from.size(); i < to.size(); i++) ops.append(operation("add", path + "/-", &to[i]));
    return;
  }
  if (!from.isObject() || !to.isObject()) {
    ops.append(operation("replace", path, &to));
    return;
  }
  for (const std::string& name : from.getMemberNames())
    if (!to.isMember(name)) ops.append(operation("remove", path + "/" + pointer_token(name), nullptr));
  for (const std::string& name : to.getMemberNames()) {
    std::string at = path + "/" + pointer_token(name);
    if (!from.isMember(name)) ops.append(operation("add", at, &to[name]));
    else diff(from[name], to[name], at, ops);
  }
}

}  // namespace

Json::Value json_patch(const Json::Value& from, const Json::Value& to) {
  Json::Value ops(Json::arrayValue);
  diff(from, to, "", ops);
  return ops;
}

}  // namespace rk8s::tools
