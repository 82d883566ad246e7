// SPDX-License-Identifier: Apache-2.0
#include "server/faults/test_log.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "server/process/query_log.h"

namespace rk8s::server {

TestLog::TestLog(const std::string& path) : file_(fopen(path.c_str(), "ae")) {
  if (!file_) throw std::runtime_error("queryLog " + path + ": " + strerror(errno));
}

TestLog::~TestLog() { fclose(file_); }

void TestLog::write(const Client& client, const QueryInfo& info) {
  std::string line = query_line(client.addr, info) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  fputs(line.c_str(), file_);
  fflush(file_);
}

}  // namespace rk8s::server
