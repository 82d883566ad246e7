// SPDX-License-Identifier: Apache-2.0
#include "server/util/names.h"

#include "server/util/strings.h"

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
  // Label lengths are at most 63, below 'A': lowering every byte is safe.
  return ascii_lower(std::string_view(reinterpret_cast<const char*>(name.wire), name.len));
}

std::string name_label_from_right(const Name& name, size_t i) {
  size_t labels = dns::name_label_count(name);
  if (labels <= i) return {};
  const uint8_t* label = name.wire;
  for (size_t k = 0; k + 1 + i < labels; k++) label += 1 + *label;
  return ascii_lower(std::string_view(reinterpret_cast<const char*>(label + 1), *label));
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

}  // namespace rk8s::server
