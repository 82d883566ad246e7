// SPDX-License-Identifier: Apache-2.0
#include "server/forward/transport_settings.h"

#include <cstdlib>
#include <string_view>

#include "libresolv-k8s/files/watched_file.h"
#include "server/util/dns_text.h"

namespace rk8s::server {

namespace {

constexpr std::string_view kTransportKeys[] = {"transport", "tls"};
constexpr std::string_view kTlsKeys[] = {"serverName", "caBundle"};

// Whether the file has a PEM certificate block; OpenSSL reads it whole
// when a connection is made (forward/exchange_tls.cc).
bool holds_certificate(const std::string& path) {
  FileBytes file;
  if (!read_file(path.c_str(), file)) return false;
  bool found = std::string_view(file.data, file.size).find("-----BEGIN CERTIFICATE-----") != std::string_view::npos;
  free(file.data);
  return found;
}

}  // namespace

std::shared_ptr<const TlsConfig> parse_transport(const Field* f, const FileNames& files) {
  if (!f) return nullptr;
  Mapping m = f->mapping(kTransportKeys);
  const Field* t = m.find("transport");
  bool tls = t && t->choice({"", "Cleartext", "TLS"}) == 2;
  const Field* settings = m.find("tls");
  if (!tls) {
    if (settings) settings->fail("is for transport TLS");
    return nullptr;
  }
  if (!settings) f->fail("transport TLS needs tls.serverName");
  Mapping s = settings->mapping(kTlsKeys);
  auto c = std::make_shared<TlsConfig>();
  const Field& name = s.need("serverName");
  c->server_name = name.text();
  if (!c->server_name.empty() && c->server_name.back() == '.') c->server_name.pop_back();
  Name parsed;
  if (c->server_name.empty() || !parse_name(c->server_name, parsed))
    name.fail("'" + name.text() + "' is not a domain name");
  if (const Field* ca = s.find("caBundle")) {
    c->ca_bundle = files.readable(*ca);
    if (!holds_certificate(c->ca_bundle)) ca->fail(c->ca_bundle + ": no PEM certificate in it");
  }
  return c;
}

std::vector<SettingKeys> transport_setting_keys() {
  return {{"", kTransportKeys}, {"tls", kTlsKeys}};
}

}  // namespace rk8s::server
