// A small JSON parser (RFC 8259) that remembers the line of every value,
// so a bad cluster file is reported as "file:line: what is wrong".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rk8s::server {

struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind = kNull;
  int line = 0;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> items;        // kArray, or the values of a kObject
  std::vector<std::string> keys;  // kObject: the names of `items`, in file order

  // The member called `key` of an object; null for anything else.
  const Json* get(std::string_view key) const;
};

const char* json_kind_name(Json::Kind kind);

// Throws LoadError("file:line: ...") on the first error.
Json parse_json(std::string_view text, const std::string& file);

}  // namespace rk8s::server
