// SPDX-License-Identifier: Apache-2.0
// The query log: one line per query, written as it is answered,
//   CLIENT QNAME QTYPE opt=yes|no RCODE [autopath=STATUS index=I walked=N]
// ("dropped" in place of the rcode for a name that is never answered).
// The production log (logLevel, config.h) puts the time in front, RFC 3339
// in UTC to the microsecond, and the seconds the answer took at the end:
//   2026-11-25T21:19:12.345678Z 10.0.0.5:41203 www.example.com. A opt=no NXDOMAIN 0.000412
// The test faults' --query-log (server/faults/test_log.h) writes every
// query's line without either.
#pragma once

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "server/config/config.h"
#include "server/model/query_info.h"
#include "server/net/socket.h"

namespace rk8s::server {

// A query's line, without the time and the seconds.
std::string query_line(const sockaddr_storage& client, const QueryInfo& info);

class QueryLog {
 public:
  // Off until configured.
  QueryLog() = default;
  ~QueryLog();
  // From the config, at start and on each reload. Throws std::runtime_error
  // when the file cannot be opened; the log is then as it was.
  void configure(LogLevel level, const std::string& path);
  // The client's address is formatted only for a line that is written.
  void write(const sockaddr_storage& client, const QueryInfo& info, const std::vector<uint8_t>& reply,
             double seconds);

 private:
  void open(const std::string& path);

  std::atomic<LogLevel> level_{LogLevel::normal};
  std::string path_;
  FILE* file_ = nullptr;  // stdout when path_ is empty
  std::mutex mutex_;
};

}  // namespace rk8s::server
