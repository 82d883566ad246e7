// SPDX-License-Identifier: Apache-2.0
#include "common/json.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "common/load_error.h"

namespace rk8s {

namespace {

constexpr int kMaxDepth = 256;

const Json::CharReaderBuilder& strict_reader() {
  static const Json::CharReaderBuilder builder = [] {
    Json::CharReaderBuilder b;
    Json::CharReaderBuilder::strictMode(&b.settings_);
    b["strictRoot"] = false;  // RFC 8259: any value
    b["stackLimit"] = kMaxDepth;
    return b;
  }();
  return builder;
}

// jsoncpp's first error, "* Line N, Column M\n  What.\n...": N and What.
LoadError first_error(const std::string& errors, const std::string& file) {
  int line = 1;
  size_t at = errors.find("Line ");
  if (at != std::string::npos) line = std::atoi(errors.c_str() + at + 5);
  size_t start = errors.find('\n');
  start = start == std::string::npos ? 0 : errors.find_first_not_of(' ', start + 1);
  size_t end = errors.find('\n', start);
  return LoadError(file, line, errors.substr(start, end == std::string::npos ? end : end - start));
}

// jsoncpp throws past its stackLimit, without a position: the line where
// the nesting goes deeper than it allows.
int line_too_deep(std::string_view text) {
  int line = 1, depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      in_string = escaped || c != '"';
      escaped = !escaped && c == '\\';
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth >= kMaxDepth) {
      return line;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return line;
}

}  // namespace

JsonDoc::JsonDoc(std::string_view text, const std::string& file) {
  std::unique_ptr<Json::CharReader> reader(strict_reader().newCharReader());
  Json::String errors;
  try {
    if (!reader->parse(text.data(), text.data() + text.size(), &root_, &errors))
      throw first_error(errors, file);
  } catch (const Json::Exception&) {
    throw LoadError(file, line_too_deep(text), "nested deeper than " + std::to_string(kMaxDepth));
  }
  line_starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts_.push_back(i + 1);
}

int JsonDoc::line(const Json::Value& v) const {
  size_t offset = size_t(std::max<ptrdiff_t>(v.getOffsetStart(), 0));
  return int(std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) -
             line_starts_.begin());
}

const char* json_kind_name(const Json::Value& v) {
  switch (v.type()) {
    case Json::nullValue: return "null";
    case Json::booleanValue: return "boolean";
    case Json::intValue:
    case Json::uintValue:
    case Json::realValue: return "number";
    case Json::stringValue: return "string";
    case Json::arrayValue: return "array";
    case Json::objectValue: return "object";
  }
  return "?";
}

const Json::Value& json_member(const Json::Value& obj, const char* key) {
  static const Json::Value none;
  const Json::Value* v = obj.isObject() ? obj.find(key, key + strlen(key)) : nullptr;
  return v ? *v : none;
}

std::string json_string(const Json::Value& obj, const char* key) {
  const Json::Value& v = json_member(obj, key);
  return v.isString() ? v.asString() : "";
}

}  // namespace rk8s
