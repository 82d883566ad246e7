// SPDX-License-Identifier: Apache-2.0
#include "server/data/zone_file.h"

#include <cstring>
#include <map>
#include <optional>

#include "common/load_error.h"
#include "server/data/zone_fields.h"
#include "server/data/zone_lexer.h"
#include "server/util/dns_text.h"
#include "server/util/strings.h"
#include "libresolv-k8s/util/ip.h"

namespace rk8s::server {

namespace {

struct ZoneRecord {
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
      if (!have_class && equal_nocase(str(t[i].text), str("IN"))) have_class = true;
      else if (!ttl && parse_ttl(t[i].text, v)) ttl = v;
      else break;
    }
    if (i == t.size()) fail("no record type");
    uint16_t type = dns::type_from_name(str(t[i].text));
    if (!rdata_syntax(type)) fail("unsupported type or class '" + t[i].text + "'");
    if (ttl) last_ttl_ = ttl;
    else ttl = default_ttl_ ? default_ttl_ : last_ttl_;
    if (!ttl) fail("no TTL and no $TTL before this record");
    records_.push_back(ZoneRecord{line_, *owner_, Rr{type, *ttl, rdata(type, t, i + 1)}});
  }

  void finish(Store& store) {
    const ZoneRecord* soa = nullptr;
    for (const ZoneRecord& r : records_) {
      if (r.rr.type != dns::kTypeSOA) continue;
      line_ = r.line;
      if (soa) fail("a second SOA record: one file is one zone");
      soa = &r;
    }
    line_ = 1;
    if (!soa) fail("no SOA record");
    check_contents(soa->owner);
    line_ = soa->line;
    if (!store.add_zone(soa->owner, soa->rr))
      fail("zone " + name_text(soa->owner) + " is loaded twice");
    for (const ZoneRecord& r : records_) store.add(r.owner, r.rr);
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

  std::vector<uint8_t> rdata(uint16_t type, const std::vector<ZoneToken>& t, size_t i) {
    std::vector<uint8_t> out;
    const char* syntax = rdata_syntax(type);
    size_t fields = strlen(syntax);
    bool strings = syntax[0] == 'x';
    if (strings ? i == t.size() : t.size() - i != fields)
      fail(std::string(dns::type_name(type)) + " takes " +
           (strings ? "at least 1" : std::to_string(fields)) + " rdata fields, got " +
           std::to_string(t.size() - i));
    for (const char* f = syntax; *f; ++f) {
      const ZoneToken& tok = t[i++];
      switch (*f) {
        case 'a':
        case '6': {
          IpAddr ip;
          ip.family = *f == 'a' ? AF_INET : AF_INET6;
          if (!parse_inet_pton(ip.family, str(tok.text), ip.addr))
            fail("bad address '" + tok.text + "'");
          out.insert(out.end(), ip.addr, ip.addr + ip_size(ip));
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
    for (const ZoneRecord& r : records_) {
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
  std::vector<ZoneRecord> records_;
};

}  // namespace

void load_zone(std::string_view text, const std::string& file, Store& store) {
  ZoneReader reader(file);
  for (const ZoneEntry& e : split_zone(text, file)) reader.entry(e);
  reader.finish(store);
}

}  // namespace rk8s::server
