// SPDX-License-Identifier: Apache-2.0
#include "server/faults/flags.h"

#include <stdexcept>

#include "server/util/strings.h"

namespace rk8s::server {
namespace {

bool is_test_flag(const std::string& flag, const std::string* value) {
  if (flag == "--autopath") return value && (*value == "formerr" || *value == "echo");
  return flag == "--rcode" || flag == "--drop" || flag == "--delay-ms" || flag == "--query-log";
}

void take(TestFaults& t, const std::string& flag, const std::string& v) {
  auto bad = [&] { return std::runtime_error(flag + ": bad value '" + v + "'"); };
  unsigned long n;
  if (flag == "--rcode") {
    if (!t.names.add_rcode(v)) throw bad();
  } else if (flag == "--drop") {
    if (!t.names.add_drop(v)) throw bad();
  } else if (flag == "--delay-ms") {
    if (!parse_uint(v, 600000, n)) throw bad();
    t.delay_ms = unsigned(n);
  } else if (flag == "--autopath") {
    t.edns = v == "formerr" ? EdnsMode::formerr : EdnsMode::echo;
  } else {
    t.query_log = v;
  }
}

}  // namespace

TestFaults take_test_flags(std::vector<std::string>& args) {
  TestFaults t;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& flag = args[i];
    const std::string* value = i + 1 < args.size() ? &args[i + 1] : nullptr;
    if (!is_test_flag(flag, value)) {
      rest.push_back(flag);
      bool valued = flag != "--help" && flag != "-h" && flag != "--version";
      if (valued && value) rest.push_back(args[++i]);
      continue;
    }
    if (!value) throw std::runtime_error(flag + ": missing value (see --help)");
    take(t, flag, *value);
    i++;
  }
  args = std::move(rest);
  return t;
}

}  // namespace rk8s::server
