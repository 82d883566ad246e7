// SPDX-License-Identifier: Apache-2.0
// JSON Patch (RFC 6902) between two documents: how the webhook tells the
// API server what inject changed.
#pragma once

#include <jsoncpp/json/json.h>

namespace rk8s::tools {

// The operations that turn `from` into `to`: add, remove and replace by
// member, down into objects both have; into arrays whose items stay in
// place (items added at the end, or in front), else an array that differs
// is replaced whole. Empty when they are equal.
Json::Value json_patch(const Json::Value& from, const Json::Value& to);

}  // namespace rk8s::tools
