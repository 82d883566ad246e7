// SPDX-License-Identifier: Apache-2.0
// transportConfig, OpenShift's, on a forwardPlugin or upstreamResolvers:
// DNS over TLS to the upstreams (RFC 7858), read from the config file.
#pragma once

#include <memory>
#include <string>

#include "server/settings/file_names.h"
#include "server/settings/yaml_field.h"

namespace rk8s::server {

// transportConfig with transport TLS.
struct TlsConfig {
  std::string server_name;  // tls.serverName: the name the certificate must hold, sent as SNI
  std::string ca_bundle;    // tls.caBundle: a PEM file; empty: the system's trust store
};

// {transport: TLS | Cleartext | "", tls: {serverName, caBundle}}; null for
// Cleartext and when `f` is null. caBundle is a file (the ConfigMap
// OpenShift names, mounted) holding a PEM certificate.
std::shared_ptr<const TlsConfig> parse_transport(const Field* f, const FileNames& files);

// The keys of transportConfig and of its tls.
std::vector<SettingKeys> transport_setting_keys();

}  // namespace rk8s::server
