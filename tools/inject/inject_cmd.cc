// SPDX-License-Identifier: Apache-2.0
#include "tools/inject/inject_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <iterator>

#include "tools/inject/inject_options.h"
#include "tools/inject/inject_stream.h"
#include "tools/usage/usage.h"

namespace rk8s::tools {
namespace {

InjectOptions parse_options(const Args& args, std::string& input) {
  InjectOptions o;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& flag = args[i];
    if (read_inject_flag("inject", args, i, o)) {
      continue;
    } else if (flag == "--remove") {
      o.remove = true;
    } else if (flag == "--namespace") {
      if (i + 1 == args.size() || args[i + 1].empty()) usage_error("inject: --namespace needs a value");
      o.default_namespace = args[++i];
    } else if (flag.starts_with("-") && flag != "-") {
      usage_error("inject: unknown flag '" + flag + "'");
    } else if (!input.empty()) {
      usage_error("inject: one FILE (or - for stdin) is needed");
    } else {
      input = flag;
    }
  }
  if (input.empty()) usage_error("inject: one FILE (or - for stdin) is needed");
  check_inject_options("inject", o);
  return o;
}

bool read_input(const std::string& input, std::string& text) {
  struct stat st;
  if (input != "-" && stat(input.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return false;
  }
  if (input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream f(input, std::ios::binary);
  text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return f.is_open() && !f.bad();
}

}  // namespace

int inject_command(const Args& args) {
  std::string input, text;
  InjectOptions options = parse_options(args, input);
  if (!read_input(input, text)) {
    fprintf(stderr, "resolv-k8s: inject: %s: %s\n", input.c_str(), strerror(errno));
    return 1;
  }
  const char* name = input == "-" ? "stdin" : input.c_str();
  try {
    std::vector<StreamError> notes;
    std::string out = inject_stream(text, options, &notes);
    for (const StreamError& n : notes)
      fprintf(stderr, "resolv-k8s: inject: %s:%d: document %d: %s\n", name, n.line, n.document, n.what.c_str());
    fwrite(out.data(), 1, out.size(), stdout);
  } catch (const StreamError& e) {
    fprintf(stderr, "resolv-k8s: inject: %s:%d: document %d: %s\n", name, e.line, e.document, e.what.c_str());
    return 1;
  }
  return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

}  // namespace rk8s::tools
