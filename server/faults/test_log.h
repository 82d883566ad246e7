// SPDX-License-Identifier: Apache-2.0
// --query-log FILE: every query's line (process/query_log.h's, without
// the time and the seconds), appended as it is answered, packet cache
// hits included; what the shell tests read to count and check queries.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "server/model/query_info.h"
#include "server/net/serve.h"

namespace rk8s::server {

class TestLog {
 public:
  // Throws std::runtime_error when `path` cannot be opened.
  explicit TestLog(const std::string& path);
  ~TestLog();
  TestLog(const TestLog&) = delete;
  TestLog& operator=(const TestLog&) = delete;

  void write(const Client& client, const QueryInfo& info);

 private:
  FILE* file_;
  std::mutex mutex_;
};

}  // namespace rk8s::server
