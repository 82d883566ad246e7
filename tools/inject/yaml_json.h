// SPDX-License-Identifier: Apache-2.0
// The bridge between JSON (jsoncpp: the pod spec inject keeps in an
// annotation, the object an admission request carries) and the nodes inject
// edits (yaml-cpp).
#pragma once

#include <jsoncpp/json/json.h>
#include <yaml-cpp/yaml.h>

#include <string>

namespace rk8s::tools {

// `v` as inject edits it: strings quoted (tag "!"), so they stay strings.
YAML::Node yaml_of(const Json::Value& v);

// `node` as JSON: a quoted scalar is a string; a plain one is null, a bool
// or a number where YAML 1.2's core schema reads it so, else a string.
Json::Value json_of(const YAML::Node& node);

// `v` as compact JSON text.
std::string json_text(const Json::Value& v);

}  // namespace rk8s::tools
