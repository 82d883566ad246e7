// The subcommands of `resolv-k8s` and what they share. Each command takes
// its arguments (after its own name) and returns the exit status.
#pragma once

#include <string>
#include <vector>

#include "conf/resolv_conf.h"
#include "dns/wire.h"

namespace cli {

using Args = std::vector<std::string>;

int conf_command(const Args& args);
int plan_command(const Args& args);
int lookup_command(const Args& args);
int stats_command(const Args& args);

// Bad usage: one line on stderr, exit status 2.
[[noreturn]] void usage_error(const std::string& what);

// resolv.conf at `path` as `dialect` reads it, with the environment and host
// name glibc also reads. False (after a message) when it cannot be read.
bool load_conf(const std::string& path, rk8s::Dialect dialect, rk8s::Config& out);

// "inet", "inet6", "unspec" -> AF_*; bad usage otherwise.
int parse_family(const std::string& word);
const char* family_name(int family);

// Absolute, with the final dot: "web.shop.svc.cluster.local.", ".".
std::string name_text(const rk8s::dns::Name& name);

// "EAI_NONAME" for an EAI_* code.
const char* eai_name(int code);

}  // namespace cli
