// SPDX-License-Identifier: Apache-2.0
#include "server/process/query_log.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "libresolv-k8s/dns/wire.h"
#include "server/util/dns_text.h"

namespace rk8s::server {

namespace {

// NXDOMAIN, or NOERROR with no answer (NODATA).
bool denial(const QueryInfo& info, const std::vector<uint8_t>& reply) {
  if (info.rcode == dns::kNxDomain) return true;
  return info.rcode == dns::kNoError && reply.size() >= 12 && reply[6] == 0 && reply[7] == 0;
}

std::string now_rfc3339() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tm utc;
  gmtime_r(&ts.tv_sec, &utc);
  char text[40];
  size_t n = strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  snprintf(text + n, sizeof text - n, ".%06ldZ", ts.tv_nsec / 1000);
  return text;
}

}  // namespace

std::string query_line(const sockaddr_storage& client, const QueryInfo& info) {
  std::string line = address_text(client) + " " + (info.has_question ? name_text(info.qname) : "-") + " " +
                     type_to_text(info.qtype) + " opt=" + (info.has_option ? "yes " : "no ") +
                     (info.dropped ? "dropped" : rcode_to_text(info.rcode));
  const char* status = info.autopath ? autopath::status_name(info.autopath->status) : nullptr;
  if (status)
    line += std::string(" autopath=") + status + " index=" +
            std::to_string(info.autopath->index) + " walked=" + std::to_string(info.walked);
  return line;
}

QueryLog::~QueryLog() {
  if (file_ && file_ != stdout) fclose(file_);
}

void QueryLog::open(const std::string& path) {
  FILE* file = path.empty() ? stdout : fopen(path.c_str(), "ae");
  if (!file) throw std::runtime_error("queryLog " + path + ": " + strerror(errno));
  if (file_ && file_ != stdout) fclose(file_);
  file_ = file;
  path_ = path;
}

void QueryLog::configure(LogLevel level, const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (level != LogLevel::normal && (!file_ || path != path_)) open(path);
  level_ = level;
}

void QueryLog::write(const sockaddr_storage& client, const QueryInfo& info, const std::vector<uint8_t>& reply,
                     double seconds) {
  LogLevel level = level_;
  if (level == LogLevel::normal) return;
  bool error = info.dropped || (info.rcode != dns::kNoError && info.rcode != dns::kNxDomain);
  if (level == LogLevel::debug && !error && !denial(info, reply)) return;
  char took[32];
  snprintf(took, sizeof took, " %.6f\n", seconds);
  std::string line = now_rfc3339() + " " + query_line(client, info) + took;
  std::lock_guard<std::mutex> lock(mutex_);
  fputs(line.c_str(), file_);
  fflush(file_);
}

}  // namespace rk8s::server
