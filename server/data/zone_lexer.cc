// SPDX-License-Identifier: Apache-2.0
#include "server/data/zone_lexer.h"

#include "common/load_error.h"

namespace rk8s::server {

namespace {

bool ends_bare(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == '(' || c == ')' ||
         c == '"';
}

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  std::vector<ZoneEntry> run() {
    std::vector<ZoneEntry> out;
    ZoneEntry cur;
    bool line_start = true;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (line_start && depth_ == 0) {
        if (!cur.tokens.empty()) out.push_back(std::move(cur));
        cur = ZoneEntry{line_, c == ' ' || c == '\t', {}};
      }
      line_start = false;
      if (c == '\n') {
        ++line_, ++pos_;
        line_start = true;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == ';') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '(') {
        if (depth_++ == 0) open_line_ = line_;
        ++pos_;
      } else if (c == ')') {
        if (depth_-- == 0) throw LoadError(file_, line_, "')' without '('");
        ++pos_;
      } else {
        cur.tokens.push_back(c == '"' ? quoted() : bare());
      }
    }
    if (depth_ > 0) throw LoadError(file_, open_line_, "'(' is never closed");
    if (!cur.tokens.empty()) out.push_back(std::move(cur));
    return out;
  }

 private:
  // A backslash and the character after it stay together.
  void take_escape(std::string& out) {
    out += s_[pos_++];
    if (pos_ == s_.size()) throw LoadError(file_, line_, "'\\' at the end of the file");
    if (s_[pos_] == '\n') ++line_;
    out += s_[pos_++];
  }

  ZoneToken bare() {
    ZoneToken t;
    while (pos_ < s_.size() && !ends_bare(s_[pos_])) {
      if (s_[pos_] == '\\') take_escape(t.text);
      else t.text += s_[pos_++];
    }
    return t;
  }

  ZoneToken quoted() {
    ZoneToken t{"", true};
    int start = line_;
    ++pos_;
    for (;;) {
      if (pos_ == s_.size()) throw LoadError(file_, start, "unterminated quoted string");
      char c = s_[pos_];
      if (c == '"') break;
      if (c == '\\') {
        take_escape(t.text);
        continue;
      }
      if (c == '\n') ++line_;
      t.text += c;
      ++pos_;
    }
    ++pos_;
    return t;
  }

  std::string_view s_;
  const std::string& file_;
  size_t pos_ = 0;
  int line_ = 1;
  int depth_ = 0;
  int open_line_ = 0;
};

}  // namespace

std::vector<ZoneEntry> split_zone(std::string_view text, const std::string& file) {
  return Lexer(text, file).run();
}

}  // namespace rk8s::server
