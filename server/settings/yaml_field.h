// SPDX-License-Identifier: Apache-2.0
// A value of the parsed YAML file read with checks: each wrong type or bad
// value is a FieldError naming the value's key and line (yaml.cc adds the
// file's name).
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "libresolv-k8s/dns/wire.h"

namespace rk8s::server {

struct FieldError : std::runtime_error {
  FieldError(int at, const std::string& what) : std::runtime_error(what), line(at) {}
  int line;  // 1-based
};

class Mapping;

// The keys a mapping of the file may hold, and the dotted keys that lead to
// it ("cache.serveStale"; a list's items are under the list's key): each
// feature's list of them, which the chart's schema and the example must
// name (tests/server/config/known_settings_test.cc).
struct SettingKeys {
  std::string path;
  std::span<const std::string_view> keys;
};

// `keys` with `path` and a dot put before each of their paths.
std::vector<SettingKeys> keys_under(const std::string& path, std::vector<SettingKeys> keys);

class Field {
 public:
  // `key` starts each message ("listen: ..."); the whole document has none.
  Field(std::string key, YAML::Node node, int line)
      : key_(std::move(key)), node_(std::move(node)), line_(line) {}

  int line() const { return line_; }
  const std::string& key() const { return key_; }
  bool is_scalar() const { return node_.IsScalar(); }
  bool is_null() const { return node_.IsNull(); }
  [[noreturn]] void fail(const std::string& what) const;

  // A mapping whose keys are all among `known`, each once.
  Mapping mapping(std::span<const std::string_view> known) const;
  // A mapping of any keys, each once: the keys' fields and the values'.
  std::vector<std::pair<Field, Field>> entries() const;
  // A sequence of `min` to `max` items, each keyed as this field is.
  std::vector<Field> items(size_t min, size_t max) const;
  // The scalar, each `${NAME}` in it replaced by the environment variable
  // NAME (unset: an error). items() leaves out an item that is `${NAME}`
  // alone when NAME is set empty.
  std::string text() const;
  bool boolean() const;  // true or false (True, TRUE...), not yes/no/on/off
  unsigned long number(unsigned long min, unsigned long max) const;
  uint32_t duration_seconds() const;  // duration.h
  // A duration in milliseconds: also "1800ms", "1s500ms"; at most `max`.
  unsigned duration_ms(unsigned max) const;
  uint64_t bytes(uint64_t min, uint64_t max) const;  // quantity.h
  dns::Name domain() const;  // a domain name below the root
  // The index in `choices` of the text, which must be one of them.
  size_t choice(std::initializer_list<std::string_view> choices) const;

 private:
  std::string key_;
  YAML::Node node_;
  int line_;
};

// The one YAML document of `text` (a second is an error), as a Field
// without a key. Throws FieldError, and YAML::Exception for bad syntax.
Field parse_document(const std::string& text);

class Mapping {
 public:
  const Field* find(std::string_view key) const;  // nullptr when absent
  const Field& need(std::string_view key) const;  // an error at the mapping's line when absent

 private:
  friend class Field;
  explicit Mapping(const Field& whole) : whole_(whole) {}

  Field whole_;
  std::vector<std::pair<std::string, Field>> entries_;
};

}  // namespace rk8s::server
