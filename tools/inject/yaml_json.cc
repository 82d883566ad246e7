// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/yaml_json.h"

#include <cerrno>
#include <cstdlib>
#include <regex>

namespace rk8s::tools {

YAML::Node yaml_of(const Json::Value& v) {
  switch (v.type()) {
    case Json::nullValue: return YAML::Node(YAML::NodeType::Null);
    case Json::booleanValue: return YAML::Node(v.asBool() ? "true" : "false");
    case Json::intValue:
    case Json::uintValue:
    case Json::realValue: return YAML::Node(v.asString());
    case Json::stringValue: {
      YAML::Node node(v.asString());
      node.SetTag("!");
      return node;
    }
    case Json::arrayValue: {
      YAML::Node node(YAML::NodeType::Sequence);
      for (const Json::Value& item : v) node.push_back(yaml_of(item));
      return node;
    }
    case Json::objectValue: {
      YAML::Node node(YAML::NodeType::Map);
      for (const std::string& name : v.getMemberNames()) node[name] = yaml_of(v[name]);
      return node;
    }
  }
  return YAML::Node();
}

Json::Value json_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      Json::Value out(Json::arrayValue);
      for (const YAML::Node& item : node) out.append(json_of(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Json::Value out(Json::objectValue);
      for (const auto& member : node) out[member.first.Scalar()] = json_of(member.second);
      return out;
    }
    case YAML::NodeType::Scalar: break;
    default: return Json::Value();
  }
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") return s;
  static const std::regex null("null|Null|NULL|~|"), yes("true|True|TRUE"), no("false|False|FALSE"),
      integer("[-+]?[0-9]+"), real("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (std::regex_match(s, null)) return Json::Value();
  if (std::regex_match(s, yes)) return true;
  if (std::regex_match(s, no)) return false;
  if (std::regex_match(s, integer)) {
    errno = 0;
    long long n = strtoll(s.c_str(), nullptr, 10);
    if (errno == 0) return Json::Value(Json::Int64(n));
  }
  if (std::regex_match(s, real)) return strtod(s.c_str(), nullptr);
  return s;
}

std::string json_text(const Json::Value& v) {
  Json::StreamWriterBuilder w;
  w["indentation"] = "";
  return Json::writeString(w, v);
}

}  // namespace rk8s::tools
