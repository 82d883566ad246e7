#include "util/text.h"
#include "server/zone_file.h"

#include <arpa/inet.h>

#include <cctype>
#include <map>
#include <optional>

#include "server/load_error.h"
#include "server/zone_lexer.h"

namespace rk8s::server {

namespace {

// Rdata fields: a IPv4, 6 IPv6, n name, s 16-bit number, l 32-bit number,
// t TTL-style number, x one or more character strings.
struct TypeSyntax {
  const char* name;
  uint16_t type;
  const char* fields;
};

constexpr TypeSyntax kTypes[] = {
    {"A", dns::kTypeA, "a"},          {"AAAA", dns::kTypeAAAA, "6"},
    {"NS", dns::kTypeNS, "n"},        {"CNAME", dns::kTypeCNAME, "n"},
    {"PTR", dns::kTypePTR, "n"},      {"MX", dns::kTypeMX, "sn"},
    {"SRV", dns::kTypeSRV, "sssn"},   {"TXT", dns::kTypeTXT, "x"},
    {"SOA", dns::kTypeSOA, "nnltttt"},
};

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

const TypeSyntax* find_type(std::string_view word) {
  for (const TypeSyntax& t : kTypes)
    if (iequal(word, t.name)) return &t;
  return nullptr;
}

bool parse_number(std::string_view s, uint64_t max, uint64_t& out) {
  if (s.empty() || s.size() > 10) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + uint64_t(c - '0');
  }
  return out <= max;
}

// Seconds, or BIND's units: 1h30m, 2d, 1w.
bool parse_ttl(std::string_view s, uint32_t& out) {
  uint64_t total = 0, n = 0;
  bool digits = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      n = n * 10 + uint64_t(c - '0');
      digits = true;
      if (n > UINT32_MAX) return false;
      continue;
    }
    static const std::string_view units = "smhdw";
    static const uint64_t scale[] = {1, 60, 3600, 86400, 604800};
    size_t u = units.find(ascii_lower(c));
    if (!digits || u == std::string_view::npos) return false;
    total += n * scale[u];
    n = 0;
    digits = false;
  }
  total += n;
  if (s.empty() || total > UINT32_MAX) return false;
  out = uint32_t(total);
  return true;
}

bool is_absolute(std::string_view text) {
  size_t backslashes = 0;
  for (size_t i = text.size() - 1; i > 0 && text[i - 1] == '\\'; --i) ++backslashes;
  return text.back() == '.' && backslashes % 2 == 0;
}

// TXT character-string: \X and \DDD escapes decoded.
bool unescape(std::string_view s, std::string& out) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (i + 3 < s.size() && isdigit(uint8_t(s[i + 1])) && isdigit(uint8_t(s[i + 2])) &&
               isdigit(uint8_t(s[i + 3]))) {
      int v = (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0');
      if (v > 255) return false;
      out += char(v);
      i += 3;
    } else if (i + 1 < s.size()) {
      out += s[++i];
    }
  }
  return out.size() <= 255;
}

struct Record {
  int line;
  Name owner;
  Rr rr;
};

class ZoneReader {
 public:
  explicit ZoneReader(const std::string& file) : file_(file) {}

  void entry(const ZoneEntry& e) {
    line_ = e.line;
    const auto& t = e.tokens;
    if (!e.owner_omitted && t[0].text[0] == '$' && !t[0].quoted) return directive(t);
    size_t i = 0;
    if (!e.owner_omitted) owner_ = name(t[i++]);
    else if (!owner_) fail("no owner name before this record");
    std::optional<uint32_t> ttl;
    bool have_class = false;
    for (; i < t.size(); ++i) {
      uint32_t v;
      if (!have_class && iequal(t[i].text, "IN")) have_class = true;
      else if (!ttl && parse_ttl(t[i].text, v)) ttl = v;
      else break;
    }
    if (i == t.size()) fail("no record type");
    const TypeSyntax* type = find_type(t[i].text);
    if (!type) fail("unsupported type or class '" + t[i].text + "'");
    if (ttl) last_ttl_ = ttl;
    else ttl = default_ttl_ ? default_ttl_ : last_ttl_;
    if (!ttl) fail("no TTL and no $TTL before this record");
    records_.push_back(Record{line_, *owner_, Rr{type->type, *ttl, rdata(*type, t, i + 1)}});
  }

  void finish(Store& store) {
    const Record* soa = nullptr;
    for (const Record& r : records_) {
      if (r.rr.type != dns::kTypeSOA) continue;
      line_ = r.line;
      if (soa) fail("a second SOA record: one file is one zone");
      soa = &r;
    }
    line_ = 1;
    if (!soa) fail("no SOA record");
    check_contents(soa->owner);
    line_ = soa->line;
    if (!store.add_zone(soa->owner, soa->rr)) fail("zone " + name_text(soa->owner) + " is loaded twice");
    for (const Record& r : records_) store.add(r.owner, r.rr);
  }

 private:
  [[noreturn]] void fail(const std::string& what) { throw LoadError(file_, line_, what); }

  void directive(const std::vector<ZoneToken>& t) {
    if (t[0].text == "$ORIGIN" && t.size() == 2) {
      origin_ = name(t[1]);
    } else if (t[0].text == "$TTL" && t.size() == 2) {
      uint32_t v;
      if (!parse_ttl(t[1].text, v)) fail("bad $TTL '" + t[1].text + "'");
      default_ttl_ = v;
    } else if (t[0].text == "$ORIGIN" || t[0].text == "$TTL") {
      fail(t[0].text + " takes exactly one value");
    } else {
      fail(t[0].text + " is not supported");
    }
  }

  Name name(const ZoneToken& t) {
    Name out;
    if (t.text == "@") return origin_;
    if (!t.quoted && is_absolute(t.text) && parse_name(t.text, out)) return out;
    Name relative;
    if (!t.quoted && !is_absolute(t.text) && parse_name(t.text, relative) &&
        dns::name_concat(relative, origin_, out))
      return out;
    fail("bad domain name '" + t.text + "'");
  }

  uint64_t number(const ZoneToken& t, uint64_t max) {
    uint64_t v;
    if (!parse_number(t.text, max, v)) fail("bad number '" + t.text + "'");
    return v;
  }

  std::vector<uint8_t> rdata(const TypeSyntax& type, const std::vector<ZoneToken>& t, size_t i) {
    std::vector<uint8_t> out;
    size_t fields = strlen(type.fields);
    bool strings = type.fields[0] == 'x';
    if (strings ? i == t.size() : t.size() - i != fields)
      fail(std::string(type.name) + " takes " + (strings ? "at least 1" : std::to_string(fields)) +
           " rdata fields, got " + std::to_string(t.size() - i));
    for (const char* f = type.fields; *f; ++f) {
      const ZoneToken& tok = t[i++];
      switch (*f) {
        case 'a':
        case '6': {
          uint8_t addr[16];
          int family = *f == 'a' ? AF_INET : AF_INET6;
          if (inet_pton(family, tok.text.c_str(), addr) != 1) fail("bad address '" + tok.text + "'");
          out.insert(out.end(), addr, addr + (family == AF_INET ? 4 : 16));
          break;
        }
        case 'n': put_name(out, name(tok)); break;
        case 's': put16(out, uint16_t(number(tok, UINT16_MAX))); break;
        case 'l': put32(out, uint32_t(number(tok, UINT32_MAX))); break;
        case 't': {
          uint32_t v;
          if (!parse_ttl(tok.text, v)) fail("bad time value '" + tok.text + "'");
          put32(out, v);
          break;
        }
        case 'x':
          for (--i; i < t.size(); ++i) {
            std::string s;
            if (!unescape(t[i].text, s)) fail("character string over 255 bytes or bad escape");
            out.push_back(uint8_t(s.size()));
            out.insert(out.end(), s.begin(), s.end());
          }
          break;
      }
    }
    return out;
  }

  // Every owner inside the zone; CNAME alone at its name (RFC 1034 3.6.2).
  void check_contents(const Name& apex) {
    std::map<std::string, std::pair<bool, bool>> kinds;  // has CNAME, has other
    for (const Record& r : records_) {
      line_ = r.line;
      if (!dns::name_ends_with(r.owner, apex))
        fail(name_text(r.owner) + " is outside the zone " + name_text(apex));
      auto& [cname, other] = kinds[name_key(r.owner)];
      (r.rr.type == dns::kTypeCNAME ? cname : other) = true;
      if (cname && other) fail("CNAME and other data at " + name_text(r.owner));
    }
  }

  const std::string& file_;
  int line_ = 0;
  Name origin_;
  std::optional<Name> owner_;
  std::optional<uint32_t> default_ttl_, last_ttl_;
  std::vector<Record> records_;
};

}  // namespace

void load_zone(std::string_view text, const std::string& file, Store& store) {
  ZoneReader reader(file);
  for (const ZoneEntry& e : split_zone(text, file)) reader.entry(e);
  reader.finish(store);
}

}  // namespace rk8s::server
