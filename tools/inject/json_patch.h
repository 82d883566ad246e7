// SPDX-License-Identifier: Apache-2.0
// JSON Patch (RFC 6902) between two documents, and the bridge between the
// JSON an admission request carries (jsoncpp) and the nodes inject edits
// (yaml-cpp).
#pragma once

#include <jsoncpp/json/json.h>
#include <yaml-cpp/yaml.h>

#include <string>

namespace cli {

// `v` as inject edits it: strings quoted (tag "!"), so they stay strings.
YAML::Node yaml_of(const Json::Value& v);

// `node` as JSON: a quoted scalar is a string; a plain one is null, a bool
// or a number where YAML 1.2's core schema reads it so, else a string.
Json::Value json_of(const YAML::Node& node);

// `v` as compact JSON text.
std::string json_text(const Json::Value& v);

// The operations that turn `from` into `to`: add, remove and replace by
// member, down into objects both have; an array that differs is replaced
// whole. Empty when they are equal.
Json::Value json_patch(const Json::Value& from, const Json::Value& to);

}  // namespace cli
