// SPDX-License-Identifier: Apache-2.0
// --query-log: one line per query, written as it is answered:
//   CLIENT QNAME QTYPE opt=yes|no RCODE [autopath=STATUS index=I walked=N]
// ("dropped" in place of the rcode for a name that is never answered).
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

#include "server/answer/handler.h"

namespace rk8s::server {

std::string query_log_line(const std::string& client, const QueryInfo& info);

class QueryLog {
 public:
  // Throws std::runtime_error when the file cannot be opened.
  explicit QueryLog(const std::string& path);
  ~QueryLog();
  void write(const std::string& client, const QueryInfo& info);

 private:
  FILE* file_;
  std::mutex mutex_;
};

}  // namespace rk8s::server
