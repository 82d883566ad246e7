#include "server/config/flags.h"

#include <stdexcept>

#include "server/util/text.h"
#include "util/ip.h"

namespace rk8s::server {

const char kUsage[] =
    "usage: resolv-k8s-server --listen ADDR:PORT [--listen ...] [--cluster FILE]\n"
    "       [--cluster-domain DOMAIN] [--zone FILE ...] [--autopath on|off|formerr|echo]\n"
    "       [--autopath-code N] [--delay-ms N] [--query-log FILE] [--metrics ADDR:PORT]\n"
    "       [--rcode NAME[/TYPE]=RCODE ...] [--drop NAME[/TYPE] ...]\n";

bool parse_endpoint(const std::string& text, Endpoint& out) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  std::string host = text.substr(0, colon);
  unsigned long port;
  if (!parse_uint(text.substr(colon + 1), 65535, port)) return false;
  IpAddr ip;
  bool v6 = host.size() > 2 && host.front() == '[' && host.back() == ']';
  ip.family = v6 ? AF_INET6 : AF_INET;
  if (!parse_inet_pton(ip.family, str(v6 ? host.substr(1, host.size() - 2) : host), ip.addr))
    return false;
  out = Endpoint{};
  out.text = text;
  out.len = ip_to_sockaddr(ip, uint16_t(port), &out.addr);
  return true;
}

ServerFlags parse_flags(int argc, char** argv) {
  ServerFlags f;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      f.help = true;
      continue;
    }
    if (i + 1 == argc) throw std::runtime_error(flag + ": missing value (see --help)");
    std::string v = argv[++i];
    unsigned long n;
    auto bad = [&] { return std::runtime_error(flag + ": bad value '" + v + "'"); };
    if (flag == "--listen" || flag == "--metrics") {
      Endpoint e;
      if (!parse_endpoint(v, e)) throw bad();
      if (flag == "--listen") f.listen.push_back(e);
      else f.metrics = e;
    } else if (flag == "--cluster") {
      f.cluster = v;
    } else if (flag == "--cluster-domain") {
      f.cluster_domain = v;
    } else if (flag == "--zone") {
      f.zones.push_back(v);
    } else if (flag == "--autopath") {
      if (v == "on") f.autopath = AutopathMode::on;
      else if (v == "off") f.autopath = AutopathMode::off;
      else if (v == "formerr") f.autopath = AutopathMode::formerr;
      else if (v == "echo") f.autopath = AutopathMode::echo;
      else throw bad();
    } else if (flag == "--autopath-code") {
      if (!parse_uint(v, 65535, n) || n == 0) throw bad();
      f.autopath_code = uint16_t(n);
    } else if (flag == "--delay-ms") {
      if (!parse_uint(v, 600000, n)) throw bad();
      f.delay_ms = unsigned(n);
    } else if (flag == "--query-log") {
      f.query_log = v;
    } else if (flag == "--rcode") {
      if (!f.faults.add_rcode(v)) throw bad();
    } else if (flag == "--drop") {
      if (!f.faults.add_drop(v)) throw bad();
    } else {
      throw std::runtime_error("unknown flag " + flag + " (see --help)");
    }
  }
  if (!f.help && f.listen.empty()) throw std::runtime_error("--listen is required (see --help)");
  return f;
}

}  // namespace rk8s::server
