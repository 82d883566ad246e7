#include "util/text.h"
#include "server/names.h"

namespace rk8s::server {

Name name_parent(const Name& name) {
  Name parent;
  if (name.len <= 1) return parent;
  size_t skip = 1 + name.wire[0];
  parent.len = uint8_t(name.len - skip);
  memcpy(parent.wire, name.wire + skip, parent.len);
  return parent;
}

std::string name_key(const Name& name) {
  std::string key(reinterpret_cast<const char*>(name.wire), name.len);
  // Label lengths are at most 63, below 'A': lowering every byte is safe.
  for (char& c : key) c = ascii_lower(c);
  return key;
}

std::string name_text(const Name& name) {
  char buf[4 * dns::kMaxName + 2];
  dns::name_to_text(name, buf, sizeof buf);
  std::string text = buf;
  if (text != ".") text += '.';
  return text;
}

bool parse_name(std::string_view text, Name& out) {
  return dns::name_from_text(Str{text.data(), text.size()}, out);
}

bool name_prepend(std::string_view label, const Name& name, Name& out) {
  if (label.empty() || label.size() > 63 || label.size() + 1 + name.len > dns::kMaxName)
    return false;
  out.wire[0] = uint8_t(label.size());
  memcpy(out.wire + 1, label.data(), label.size());
  memcpy(out.wire + 1 + label.size(), name.wire, name.len);
  out.len = uint8_t(1 + label.size() + name.len);
  return true;
}

size_t name_from_wire(const uint8_t* data, size_t size, Name& out) {
  size_t pos = 0;
  while (pos < size && pos < dns::kMaxName) {
    uint8_t n = data[pos];
    if (n > 63) return 0;
    pos += 1 + n;
    if (n == 0) {
      if (pos > dns::kMaxName) return 0;
      out.len = uint8_t(pos);
      memcpy(out.wire, data, pos);
      return pos;
    }
  }
  return 0;
}

}  // namespace rk8s::server
