// SPDX-License-Identifier: Apache-2.0
#include "server/node/notrack.h"

#include <nftables/libnftables.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace rk8s::server {
namespace {

constexpr char kTable[] = "inet resolv_k8s";

// Runs `commands`; false with nft's message in `error`.
bool nft(const std::string& commands, std::string& error) {
  std::unique_ptr<nft_ctx, void (*)(nft_ctx*)> ctx(nft_ctx_new(NFT_CTX_DEFAULT), nft_ctx_free);
  if (!ctx) return error = "nftables: no context", false;
  nft_ctx_buffer_output(ctx.get());
  nft_ctx_buffer_error(ctx.get());
  if (nft_run_cmd_from_buffer(ctx.get(), commands.c_str()) == 0) return true;
  error = nft_ctx_get_error_buffer(ctx.get());
  return false;
}

// "ip daddr 169.254.20.10 udp dport 53" and the like, one rule a line:
// queries arriving and their replies, and the node's own queries to the
// address (hostNetwork pods'), which kube-proxy's output DNAT would
// otherwise send to kube-dns when the address is its ClusterIP.
std::string rules(const std::vector<IpAddr>& addresses) {
  std::string out;
  for (const IpAddr& a : addresses) {
    char text[64];
    ip_to_text(a, text, sizeof text);
    std::string ip = std::string(a.family == AF_INET ? "ip" : "ip6");
    for (const char* proto : {"udp", "tcp"}) {
      out += "add rule " + std::string(kTable) + " prerouting " + ip + " daddr " + text + " " + proto +
             " dport 53 counter notrack\n";
      out += "add rule " + std::string(kTable) + " output " + ip + " saddr " + text + " " + proto +
             " sport 53 counter notrack\n";
      out += "add rule " + std::string(kTable) + " output " + ip + " daddr " + text + " " + proto +
             " dport 53 counter notrack\n";
    }
  }
  return out;
}

}  // namespace

std::string notrack_table_commands(const std::vector<IpAddr>& addresses) {
  std::string table = kTable;
  return "add table " + table + "\n" +
         "add chain " + table + " prerouting { type filter hook prerouting priority raw; }\n" +
         "add chain " + table + " output { type filter hook output priority raw; }\n" + rules(addresses);
}

void NotrackRules::ensure() const {
  std::string error;
  if (nft("list table " + std::string(kTable), error)) return;
  if (!nft(notrack_table_commands(addresses_), error)) throw std::runtime_error("nftables: " + error);
}

void NotrackRules::install() const {
  std::string error, table = kTable;
  // One transaction: the table is never missing on the way.
  if (!nft("add table " + table + "\ndelete table " + table + "\n" + notrack_table_commands(addresses_), error))
    throw std::runtime_error("nftables: " + error);
}

void NotrackRules::remove() const {
  std::string error;
  nft("delete table " + std::string(kTable), error);  // gone already: nothing to do
}

}  // namespace rk8s::server
