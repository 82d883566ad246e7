// SPDX-License-Identifier: Apache-2.0
// Base64 (RFC 4648, with padding) as the Kubernetes API writes []byte: an
// AdmissionReview's patch, a Secret's data.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rk8s::tools {

std::string base64(std::string_view bytes);
// The bytes, or nothing when `text` is not padded base64.
std::optional<std::string> from_base64(std::string_view text);

}  // namespace rk8s::tools
