// SPDX-License-Identifier: Apache-2.0
#include "server/metrics/query_log.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "server/util/mnemonics.h"

namespace rk8s::server {

std::string query_log_line(const std::string& client, const QueryInfo& info) {
  std::string line = client + " " + (info.has_question ? name_text(info.qname) : "-") + " " +
                     type_to_text(info.qtype) + " opt=" + (info.has_option ? "yes " : "no ") +
                     (info.dropped ? "dropped" : rcode_to_text(info.rcode));
  const char* status = info.autopath ? autopath::status_name(info.autopath->status) : nullptr;
  if (status)
    line += std::string(" autopath=") + status + " index=" +
            std::to_string(info.autopath->index) + " walked=" + std::to_string(info.walked);
  return line;
}

QueryLog::QueryLog(const std::string& path) : file_(fopen(path.c_str(), "a")) {
  if (!file_) throw std::runtime_error(path + ": " + strerror(errno));
}

QueryLog::~QueryLog() { fclose(file_); }

void QueryLog::write(const std::string& client, const QueryInfo& info) {
  std::string line = query_log_line(client, info) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  fputs(line.c_str(), file_);
  fflush(file_);
}

}  // namespace rk8s::server
