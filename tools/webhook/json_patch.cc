// SPDX-License-Identifier: Apache-2.0
#include "tools/webhook/json_patch.h"

#include <string>

namespace cli {
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

}  // namespace cli
