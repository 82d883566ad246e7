#include "server/data/json.h"

#include <cstdlib>

#include "server/data/load_error.h"
#include "util/text.h"

namespace rk8s::server {

const Json* Json::get(std::string_view key) const {
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

const char* json_kind_name(Json::Kind kind) {
  static const char* const names[] = {"null", "boolean", "number", "string", "array", "object"};
  return names[kind];
}

namespace {

constexpr int kMaxDepth = 256;

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  Json document() {
    Json v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) { throw LoadError(file_, line_, what); }

  void skip_space() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') ++line_;
      else if (c != ' ' && c != '\t' && c != '\r') return;
      ++pos_;
    }
  }

  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c, const char* where) {
    if (!eat(c)) fail(std::string("expected '") + c + "' " + where);
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nested too deeply");
    skip_space();
    if (pos_ == s_.size()) fail("unexpected end of file");
    Json v;
    v.line = line_;
    char c = s_[pos_];
    if (c == '{') object(v, depth);
    else if (c == '[') array(v, depth);
    else if (c == '"') v.kind = Json::kString, v.string = string();
    else if (c == '-' || is_digit(c)) v.kind = Json::kNumber, v.number = number();
    else if (word("true")) v.kind = Json::kBool, v.boolean = true;
    else if (word("false")) v.kind = Json::kBool;
    else if (word("null")) v.kind = Json::kNull;
    else fail(std::string("unexpected character '") + c + "'");
    return v;
  }

  bool word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  void object(Json& v, int depth) {
    v.kind = Json::kObject;
    ++pos_;
    if (eat('}')) return;
    do {
      skip_space();
      if (pos_ == s_.size() || s_[pos_] != '"') fail("expected a member name in quotes");
      std::string key = string();
      expect(':', "after a member name");
      v.keys.push_back(std::move(key));
      v.items.push_back(value(depth + 1));
    } while (eat(','));
    expect('}', "or ',' in an object");
  }

  void array(Json& v, int depth) {
    v.kind = Json::kArray;
    ++pos_;
    if (eat(']')) return;
    do v.items.push_back(value(depth + 1));
    while (eat(','));
    expect(']', "or ',' in an array");
  }

  double number() {
    size_t start = pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
      if (pos_ == from) fail("malformed number");
    };
    if (s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') ++pos_;
    else digits();
    if (pos_ < s_.size() && s_[pos_] == '.') ++pos_, digits();
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      digits();
    }
    return strtod(std::string(s_.substr(start, pos_ - start)).c_str(), nullptr);
  }

  unsigned hex4() {
    if (s_.size() - pos_ < 4) fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      if (!is_hex(c)) fail("bad hex digit in \\u escape");
      v = v << 4 | unsigned(is_digit(c) ? c - '0' : ascii_lower(c) - 'a' + 10);
    }
    return v;
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | cp >> 6);
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xe0 | cp >> 12);
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xf0 | cp >> 18);
      out += char(0x80 | (cp >> 12 & 0x3f));
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }

  unsigned code_point() {
    unsigned cp = hex4();
    if (cp >= 0xdc00 && cp <= 0xdfff) fail("unpaired low surrogate");
    if (cp < 0xd800 || cp > 0xdbff) return cp;
    if (!word("\\u")) fail("unpaired high surrogate");
    unsigned low = hex4();
    if (low < 0xdc00 || low > 0xdfff) fail("unpaired high surrogate");
    return 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
  }

  std::string string() {
    ++pos_;
    std::string out;
    for (;;) {
      if (pos_ == s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (uint8_t(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ == s_.size()) fail("unterminated string");
      switch (char e = s_[pos_++]) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': put_utf8(out, code_point()); break;
        default: fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  std::string_view s_;
  const std::string& file_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

Json parse_json(std::string_view text, const std::string& file) {
  return Parser(text, file).document();
}

}  // namespace rk8s::server
