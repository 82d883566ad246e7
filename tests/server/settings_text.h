// SPDX-License-Identifier: Apache-2.0
// What the tests of each feature's settings share: a section of YAML text
// read by its feature's parser as the config file's walk reads it, its
// errors as the walk says them ("c.yaml:LINE: what"), and files for the
// settings that name one.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "common/load_error.h"
#include "server/forward/forward_settings.h"
#include "server/settings/yaml_field.h"
#include "tests/server/fixture.h"

namespace rk8s::server::test {

// A file under the test's temporary directory holding `text`.
inline std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "settings_" + name;
  std::ofstream(path) << text;
  return path;
}

// The whole of a file of the repository.
inline std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// `read` given the value of `key` in `yaml`, the one key it may hold
// (null when it holds none).
template <class Read>
auto read_section(const std::string& yaml, std::string_view key, Read read) {
  try {
    std::string_view known[] = {key};
    Mapping m = parse_document(yaml.empty() ? "{}" : yaml).mapping(known);
    return read(m.find(key));
  } catch (const FieldError& e) {
    throw LoadError("c.yaml", e.line, e.what());
  }
}

// read_section()'s error, or "(accepted)".
template <class Read>
std::string section_error(const std::string& yaml, std::string_view key, Read read) {
  return load_error([&] { read_section(yaml, key, read); });
}

struct SectionCase {
  std::string yaml;
  std::string error;  // the message's start
};

// Each case's error starts as it says.
template <class Read>
void expect_section_errors(std::span<const SectionCase> cases, std::string_view key, Read read) {
  for (const SectionCase& c : cases) {
    std::string error = section_error(c.yaml, key, read);
    EXPECT_EQ(error.substr(0, c.error.size()), c.error) << c.yaml << "--- got: " << error;
  }
}

// "Sequential TCP 10.0.0.1:53 ...": a forwardPlugin or upstreamResolvers.
inline std::string forward_text(const ForwardConfig& f) {
  const char* policies[] = {"Random", "RoundRobin", "Sequential"};
  std::string out = policies[int(f.policy)];
  if (f.tcp_only) out += " TCP";
  for (const Upstream& u : f.upstreams) out += " " + u.text;
  return out;
}

}  // namespace rk8s::server::test
