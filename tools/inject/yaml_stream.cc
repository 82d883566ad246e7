// SPDX-License-Identifier: Apache-2.0
// Splitting a YAML stream into documents and writing nodes back.
#include "tools/inject/yaml_stream.h"

#include <regex>
#include <string_view>

namespace rk8s::tools {
namespace {

// "---" at the start of a line, alone or before a space: a new document.
bool is_separator(std::string_view line) {
  return line.starts_with("---") && (line.size() == 3 || std::string_view(" \t\r\n").find(line[3]) != line.npos);
}

// Blank, a comment or a directive: no content yet.
bool is_preamble(std::string_view line) {
  size_t i = line.find_first_not_of(" \t\r\n");
  return i == line.npos || line[i] == '#' || line[i] == '%';
}

// A plain scalar that YAML 1.1 (Kubernetes's go-yaml) reads as a bool,
// null or number, or may: anything starting like a number.
bool reads_as_other_than_text(const std::string& s) {
  static const std::regex words(
      "|~|null|Null|NULL|[yYnN]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  return std::regex_match(s, words) || std::string_view("0123456789+-.").find(s[0]) != std::string_view::npos;
}

// yaml-cpp writes a block without a chomping indicator, so it reads back
// with one final newline: a block holds only a string ending so, given
// without that newline, and only when it reads back the same (leading
// spaces would need an indicator yaml-cpp does not write).
bool emit_as_block(YAML::Emitter& out, const std::string& s) {
  if (!s.ends_with('\n') || s.find('\n') == s.size() - 1) return false;
  std::string lines = s.substr(0, s.size() - 1);
  YAML::Emitter block;
  block << YAML::Literal << lines;
  try {
    if (YAML::Load(block.c_str() + std::string("\n")).Scalar() != s) return false;
  } catch (const YAML::Exception&) {
    return false;
  }
  out << YAML::Literal << lines;
  return true;
}

void emit(YAML::Emitter& out, const YAML::Node& node, bool key = false);

// YAML caps an implicit key ("key: value") at 1024 characters. yaml-cpp
// writes a longer key explicit ("? key") itself, but measures it before
// quoting and escaping: a key that only escapes past the cap is ours to
// mark (marking one yaml-cpp marks too leaves every later key explicit).
// Bytes, which never undercount characters.
bool needs_explicit_key(const YAML::Node& key) {
  if (!key.IsScalar() || key.Scalar().size() > 1024) return false;
  YAML::Emitter alone;
  emit(alone, key, true);
  return alone.size() > 1024;
}

void emit(YAML::Emitter& out, const YAML::Node& node, bool key) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      if (node.size() == 0) out << YAML::Flow;  // {} rather than a line of its own
      out << YAML::BeginMap;
      for (const auto& entry : node) {
        if (needs_explicit_key(entry.first)) out << YAML::LongKey;
        out << YAML::Key;
        emit(out, entry.first, true);
        out << YAML::Value;
        emit(out, entry.second);
      }
      out << YAML::EndMap;
      break;
    case YAML::NodeType::Sequence:
      if (node.size() == 0) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const YAML::Node& item : node) emit(out, item);
      out << YAML::EndSeq;
      break;
    case YAML::NodeType::Scalar:
      // "?" plain as read, "" made here, "!" quoted or a block as read, but
      // a key never a block (yaml-cpp writes a tagged one implicit: unreadable).
      if (node.Tag() == "?" || node.Tag().empty()) {
        out << node.Scalar();
        break;
      }
      if (node.Tag() != "!" && node.Tag() != "tag:yaml.org,2002:str") out << YAML::VerbatimTag(node.Tag());
      if (key || !emit_as_block(out, node.Scalar())) out << YAML::DoubleQuoted << node.Scalar();
      break;
    default:
      out << YAML::Null;
  }
}

}  // namespace

size_t invalid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    uint8_t b = uint8_t(text[i]);
    // The length of the sequence b starts, and the range of its second
    // byte (no overlong forms, no surrogates, nothing past U+10FFFF).
    size_t n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    uint8_t lo = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80;
    uint8_t hi = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
    if (n == 0 || i + n > text.size()) return i;
    for (size_t k = 1; k < n; k++) {
      uint8_t c = uint8_t(text[i + k]);
      if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xbf)) return i;
    }
    i += n;
  }
  return std::string_view::npos;
}

std::vector<YamlDocument> split_documents(const std::string& stream) {
  std::vector<YamlDocument> docs{{"", 1}};
  bool started = false;  // the last document has a separator or content
  int line = 1;
  for (size_t pos = 0; pos < stream.size(); line++) {
    size_t end = stream.find('\n', pos);
    end = end == stream.npos ? stream.size() : end + 1;
    std::string_view text(stream.data() + pos, end - pos);
    if (is_separator(text)) {
      if (started) docs.push_back({"", line});
      started = true;
    } else if (!is_preamble(text)) {
      started = true;
    }
    docs.back().text += text;
    pos = end;
  }
  return docs;
}

std::string emit_yaml(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);
  emit(out, node);
  return out.c_str();
}

std::string rewrite_document(const YamlDocument& doc, const YAML::Node& node) {
  std::string kept;
  for (size_t pos = 0, end; pos < doc.text.size(); pos = end) {
    end = doc.text.find('\n', pos);
    end = end == doc.text.npos ? doc.text.size() : end + 1;
    std::string_view line(doc.text.data() + pos, end - pos);
    if (is_separator(line) && !is_preamble(line.substr(3))) {
      kept += "---\n";  // content on the separator's line: rewritten below
      break;
    }
    if (!is_separator(line) && !is_preamble(line)) break;
    kept += line;
  }
  if (!kept.empty() && kept.back() != '\n') kept += '\n';
  return kept + emit_yaml(node) + "\n";
}

YAML::Node text_node(const std::string& text) {
  YAML::Node node(text);
  if (reads_as_other_than_text(text)) node.SetTag("!");
  return node;
}

}  // namespace rk8s::tools
