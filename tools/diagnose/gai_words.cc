// SPDX-License-Identifier: Apache-2.0
#include "tools/diagnose/gai_words.h"

#include <netdb.h>
#include <sys/socket.h>

#include "tools/usage/usage.h"

namespace rk8s::tools {

int parse_family(const std::string& word) {
  if (word == "inet") return AF_INET;
  if (word == "inet6") return AF_INET6;
  if (word == "unspec") return AF_UNSPEC;
  usage_error("unknown family '" + word + "': inet, inet6 or unspec");
}

const char* family_name(int family) {
  return family == AF_INET ? "inet" : family == AF_INET6 ? "inet6" : "unspec";
}

const char* eai_name(int code) {
  switch (code) {
    case 0: return "0";
    case EAI_NONAME: return "EAI_NONAME";
    case EAI_NODATA: return "EAI_NODATA";
    case EAI_AGAIN: return "EAI_AGAIN";
    case EAI_FAIL: return "EAI_FAIL";
    case EAI_FAMILY: return "EAI_FAMILY";
    case EAI_SERVICE: return "EAI_SERVICE";
    case EAI_BADFLAGS: return "EAI_BADFLAGS";
    case EAI_MEMORY: return "EAI_MEMORY";
    case EAI_SYSTEM: return "EAI_SYSTEM";
    default: return "EAI_?";
  }
}

}  // namespace rk8s::tools
