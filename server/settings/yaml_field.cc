// SPDX-License-Identifier: Apache-2.0
#include "server/settings/yaml_field.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <sstream>

#include "server/settings/duration.h"
#include "server/settings/quantity.h"
#include "server/util/dns_text.h"
#include "server/util/strings.h"

namespace rk8s::server {

namespace {

// An empty item's mark is where the next token starts, often a later line.
int line_of(const YAML::Node& node, int fallback) {
  return node.IsNull() || node.Mark().is_null() ? fallback : node.Mark().line + 1;
}

std::string one_of(std::span<const std::string_view> words) {
  std::string out;
  for (std::string_view w : words)
    out += (out.empty() ? "" : ", ") + (w.empty() ? "\"\"" : std::string(w));
  return out;
}

// Notes where each document starts; the rest of what it hears is dropped.
struct DocumentStarts : YAML::EventHandler {
  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  YAML::Mark start;
};

}  // namespace

std::vector<SettingKeys> keys_under(const std::string& path, std::vector<SettingKeys> keys) {
  for (SettingKeys& k : keys) k.path = k.path.empty() ? path : path + "." + k.path;
  return keys;
}

Field parse_document(const std::string& text) {
  // Not YAML::LoadAll: yaml-cpp 0.7.0 takes a stray ',' for an empty
  // document again and again, and LoadAll never returns.
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  if (parser.HandleNextDocument(starts) && parser.HandleNextDocument(starts))
    throw FieldError(starts.start.line + 1, "one YAML document only");
  return Field("", YAML::Load(text), 1);
}

void Field::fail(const std::string& what) const {
  throw FieldError(line_, key_.empty() ? what : key_ + ": " + what);
}

Mapping Field::mapping(std::span<const std::string_view> known) const {
  if (!node_.IsMap()) fail("expected a mapping");
  Mapping m(*this);
  for (const auto& entry : node_) {
    Field key(key_, entry.first, line_of(entry.first, line_));
    if (!entry.first.IsScalar()) key.fail("expected a key");
    std::string name = entry.first.Scalar();
    if (std::find(known.begin(), known.end(), name) == known.end())
      key.fail("unknown key '" + name + "' (known: " + one_of(known) + ")");
    if (m.find(name)) key.fail("'" + name + "' a second time");
    // A value's errors name its key's line: a block list or mapping below
    // it starts on the next, and an empty value has no line of its own.
    m.entries_.emplace_back(name, Field(name, entry.second, key.line()));
  }
  return m;
}

std::vector<std::pair<Field, Field>> Field::entries() const {
  if (!node_.IsMap()) fail("expected a mapping");
  std::vector<std::pair<Field, Field>> out;
  for (const auto& entry : node_) {
    Field key(key_, entry.first, line_of(entry.first, line_));
    std::string name = key.text();
    for (const auto& [seen, _] : out)
      if (seen.text() == name) key.fail("'" + name + "' a second time");
    out.emplace_back(key, Field(name, entry.second, key.line()));
  }
  return out;
}

std::vector<Field> Field::items(size_t min, size_t max) const {
  if (!node_.IsSequence()) fail("expected a list");
  std::vector<Field> out;
  for (const auto& item : node_) {
    Field f(key_, item, line_of(item, line_));
    // An item that is one variable alone, set empty, is left out.
    bool one_variable = item.IsScalar() && item.Scalar().starts_with("${") &&
                        item.Scalar().find('}') == item.Scalar().size() - 1;
    if (!one_variable || !f.text().empty()) out.push_back(f);
  }
  if (out.size() < min)
    fail("needs at least " + std::to_string(min) + (min == 1 ? " item" : " items"));
  if (out.size() > max) fail("takes at most " + std::to_string(max) + " items");
  return out;
}

// Each ${NAME} in the value replaced by the environment variable NAME.
std::string Field::text() const {
  if (!node_.IsScalar()) fail("expected text");
  const std::string& raw = node_.Scalar();
  std::string out;
  size_t pos = 0;
  for (size_t at; (at = raw.find("${", pos)) != std::string::npos;) {
    size_t end = raw.find('}', at);
    std::string name = raw.substr(at + 2, end == std::string::npos ? std::string::npos : end - at - 2);
    bool valid = end != std::string::npos && !name.empty() && !isdigit((unsigned char)name[0]) &&
                 std::all_of(name.begin(), name.end(), [](char c) { return isalnum((unsigned char)c) || c == '_'; });
    if (!valid) fail("'" + raw + "': ${ without a variable name and } after it");
    const char* value = getenv(name.c_str());
    if (!value) fail("'" + raw + "': the environment variable " + name + " is not set");
    out += raw.substr(pos, at - pos) + value;
    pos = end + 1;
  }
  return out + raw.substr(pos);
}

bool Field::boolean() const {
  std::string t = text();
  if (t == "true" || t == "True" || t == "TRUE") return true;
  if (t == "false" || t == "False" || t == "FALSE") return false;
  fail("expected true or false, got '" + t + "'");
}

unsigned long Field::number(unsigned long min, unsigned long max) const {
  std::string t = text();
  unsigned long n;
  if (!parse_uint(t, max, n) || n < min)
    fail("expected a number from " + std::to_string(min) + " to " + std::to_string(max) +
         ", got '" + t + "'");
  return n;
}

uint64_t Field::bytes(uint64_t min, uint64_t max) const {
  std::string t = text();
  uint64_t n;
  if (!parse_quantity(t, max, n) || n < min)
    fail("'" + t + "' is not a size such as 128Mi from " + std::to_string(min) + " to " +
         std::to_string(max) + " bytes");
  return n;
}

unsigned Field::duration_ms(unsigned max) const {
  std::string t = text();
  uint64_t ms;
  if (!parse_duration_ms(t, ms) || ms > max)
    fail("'" + t + "' is not a duration such as 1800ms or 2s (at most " + std::to_string(max) + "ms)");
  return unsigned(ms);
}

uint32_t Field::duration_seconds() const {
  std::string t = text();
  uint32_t seconds;
  unsigned long bare;
  if (parse_duration(t, seconds)) return seconds;
  if (parse_uint(t, ULONG_MAX, bare)) fail("'" + t + "' needs a unit: " + t + "s, 5m, 1h");
  fail("'" + t + "' is not a duration such as 30s, 5m or 1h30m (at most " +
       std::to_string(kMaxDurationSeconds) + "s)");
}

dns::Name Field::domain() const {
  std::string t = text();
  dns::Name n;
  if (!parse_name(t, n) || n.len <= 1) fail("'" + t + "' is not a domain name below the root");
  return n;
}

size_t Field::choice(std::initializer_list<std::string_view> choices) const {
  std::string t = text();
  auto it = std::find(choices.begin(), choices.end(), t);
  if (it == choices.end())
    fail("'" + t + "' is not one of " + one_of(std::span<const std::string_view>(choices.begin(), choices.size())));
  return size_t(it - choices.begin());
}

const Field* Mapping::find(std::string_view key) const {
  for (const auto& [name, field] : entries_)
    if (name == key) return &field;
  return nullptr;
}

const Field& Mapping::need(std::string_view key) const {
  const Field* f = find(key);
  if (!f) whole_.fail("missing '" + std::string(key) + "'");
  return *f;
}

}  // namespace rk8s::server
