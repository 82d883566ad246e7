// SPDX-License-Identifier: Apache-2.0
// JSON read by jsoncpp, strictly (RFC 8259: no comments, trailing commas or
// text after the value; duplicate keys refused), with the line each value
// starts on, so a bad cluster file is reported as "file:line: what is
// wrong".
#pragma once

#include <jsoncpp/json/json.h>

#include <string>
#include <string_view>
#include <vector>

namespace rk8s {

class JsonDoc {
 public:
  // Throws LoadError("file:line: ...") at the first error.
  JsonDoc(std::string_view text, const std::string& file);

  const Json::Value& root() const { return root_; }
  // The line, from 1, a value of this document starts on.
  int line(const Json::Value& v) const;

 private:
  Json::Value root_;
  std::vector<size_t> line_starts_;
};

// "null", "boolean", "number", "string", "array" or "object".
const char* json_kind_name(const Json::Value& v);

// The member `key` of `obj`, null when `obj` is no object or has none.
const Json::Value& json_member(const Json::Value& obj, const char* key);
// The member `key` of `obj` when it is a string, else "".
std::string json_string(const Json::Value& obj, const char* key);

}  // namespace rk8s
