// SPDX-License-Identifier: Apache-2.0
// What the tools' unit tests share (tests/tools/README.md): files to read,
// a command run for its exit status and output, usage errors expected in a
// child, inject's options as the command line gives them, an object
// injected, JSON as tables name it, and a JSON Patch applied.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/json.h"
#include "common/load_error.h"
#include "tools/inject/inject_options.h"
#include "tools/inject/inject_pod.h"
#include "tools/inject/yaml_json.h"

namespace rk8s::tools::test {

// A directory of this process's own (other checkouts may run these tests
// at the same time), removed when the tests end.
inline const std::string& temp_dir() {
  static const std::string dir = [] {
    std::string d = testing::TempDir() + "tools_test_" + std::to_string(getpid()) + "/";
    std::filesystem::create_directory(d);
    return d;
  }();
  return dir;
}
struct TempDirRemoved : testing::Environment {
  void TearDown() override { std::filesystem::remove_all(temp_dir()); }
};
inline testing::Environment* const kTempDirRemoved = testing::AddGlobalTestEnvironment(new TempDirRemoved);

// A file in temp_dir() holding `text`.
inline std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = temp_dir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// `text` as a POSIX regular expression matching it alone.
inline std::string literal(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// `run` in a child: it exits with `status` and stderr holds `err`
// (for a command that exits itself, as usage_error does).
inline void expect_exit(const std::function<int()>& run, int status, const std::string& err) {
  EXPECT_EXIT(exit(run()), testing::ExitedWithCode(status), literal(err));
}

// Bad usage: exit status 2 and the one line usage_error writes.
inline void expect_usage_error(const std::function<int()>& run, const std::string& what) {
  expect_exit(run, 2, "resolv-k8s: " + what + " (resolv-k8s --help)\n");
}

// A command's arguments and the usage error they must give.
struct UsageCase {
  Args args;
  std::string error;
};
inline void expect_usage_errors(int (*command)(const Args&), const std::vector<UsageCase>& cases) {
  for (const UsageCase& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    expect_usage_error([&] { return command(c.args); }, c.error);
  }
}

// A command run in this process, for what it returns and prints.
struct Output {
  int status;
  std::string out, err;
};
inline Output run_captured(const std::function<int()>& run) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int status = run();
  std::string out = testing::internal::GetCapturedStdout();
  return Output{status, out, testing::internal::GetCapturedStderr()};
}

const char kImage[] = "registry.example.com/dns/libresolv-k8s-init:1";
// The usage error of a command given no --image, after "inject: " or "webhook: ".
const char kImageNeeded[] =
    "--image is needed: the init image from your registry, such as registry.example.com/dns/libresolv-k8s-init:TAG "
    "(make push writes it)";

// inject's options from its shared flags, as the command line sets them
// (given what the flags name).
inline InjectOptions options_of(const Args& flags) {
  InjectOptions o;
  for (size_t i = 0; i < flags.size(); i++)
    if (!read_inject_flag("inject", flags, i, o)) ADD_FAILURE() << "not an inject flag: " << flags[i];
  return o;
}

inline Json::Value parse_json(const std::string& text) { return JsonDoc(text, "test").root(); }

// The object of `yaml` as inject_object leaves it, as JSON; what it left
// alone, and why, in `notes`. Throws InjectError.
inline Json::Value injected(const std::string& yaml, const InjectOptions& options,
                            std::vector<InjectError>* notes = nullptr) {
  YAML::Node object = YAML::Load(yaml);
  std::vector<InjectError> left;
  inject_object(object, options, left);
  if (notes) *notes = left;
  return json_of(object);
}

// RFC 6901's pointer "/a/b~1c" as its tokens {"a", "b/c"}.
inline std::vector<std::string> pointer_tokens(const std::string& pointer) {
  std::vector<std::string> out;
  for (size_t pos = 1; pos <= pointer.size() && !pointer.empty();) {
    size_t end = std::min(pointer.find('/', pos), pointer.size());
    std::string token;
    for (size_t i = pos; i < end; i++) {
      if (pointer[i] == '~' && i + 1 < end)
        token += pointer[++i] == '1' ? '/' : '~';
      else
        token += pointer[i];
    }
    out.push_back(token);
    pos = end + 1;
  }
  return out;
}

// The value at a pointer ("/spec/containers/0/env") as compact JSON;
// "(none)" when it is not there.
inline std::string at(const Json::Value& root, const std::string& pointer) {
  const Json::Value* v = &root;
  for (const std::string& token : pointer_tokens(pointer)) {
    if (v->isArray() && !token.empty() && token.find_first_not_of("0123456789") == std::string::npos &&
        std::stoul(token) < v->size())
      v = &(*v)[Json::ArrayIndex(std::stoul(token))];
    else if (v->isObject() && v->isMember(token))
      v = &(*v)[token];
    else
      return "(none)";
  }
  return json_text(*v);
}

// `ops` (RFC 6902's add, remove and replace) applied to `doc`, as the API
// server applies a webhook's patch.
inline Json::Value apply_patch(Json::Value doc, const Json::Value& ops) {
  for (const Json::Value& op : ops) {
    std::vector<std::string> tokens = pointer_tokens(op["path"].asString());
    std::string kind = op["op"].asString();
    if (tokens.empty()) {
      doc = op["value"];
      continue;
    }
    Json::Value* parent = &doc;
    for (size_t i = 0; i + 1 < tokens.size(); i++)
      parent = parent->isArray() ? &(*parent)[Json::ArrayIndex(std::stoul(tokens[i]))] : &(*parent)[tokens[i]];
    const std::string& last = tokens.back();
    if (parent->isObject()) {
      if (kind == "remove")
        parent->removeMember(last);
      else
        (*parent)[last] = op["value"];
      continue;
    }
    Json::ArrayIndex index = last == "-" ? parent->size() : Json::ArrayIndex(std::stoul(last));
    if (kind == "replace") {
      (*parent)[index] = op["value"];
      continue;
    }
    Json::Value items(Json::arrayValue);
    for (Json::ArrayIndex i = 0; i <= parent->size(); i++) {
      if (i == index && kind == "add") items.append(op["value"]);
      if (i < parent->size() && !(i == index && kind == "remove")) items.append((*parent)[i]);
    }
    *parent = items;
  }
  return doc;
}

}  // namespace rk8s::tools::test
