// SPDX-License-Identifier: Apache-2.0
// Differential, end to end: glibc's own getaddrinfo against our
// resolve_addrinfo with the real transport, both asking one server on
// 127.0.0.1:53 in a private network namespace, on fdiff::DnsInput
// (harness.h). The server is the raw one, answering from the input's slots
// and deaf to the autopath option, or the companion server (server/) in the
// autopath mode the input names, forwarding every name it is asked, every
// candidate of a walk included, to an upstream answering from the slots:
// what glibc hears and what autopath tells us come from the same data.
// The results, their order, the canonical name and the EAI error must be
// glibc's.
//
// README's deliberate differences for glibc cannot arise here, and of its
// known gaps, only the one of an upstream that says NXDOMAIN for one type
// of a name and NOERROR for the other is tolerated: the server
// answers every query (no timeout), a slot is at most 1500 bytes (every
// reply fits glibc's buffer) and a reply asked again over TCP holds the same
// records. Not compared: a call the library hands to libc whole, a search
// list glibc aborts on, and one with a marker-shaped domain (README).
//
// The raw server's reply carries the query's ID, random in each run: a name
// read through a pointer into the header reads it, and may read well in
// one run and not in the other (the input 640176f7: an A record owned by
// a pointer to offset 0, ending the pair for both when the ID makes no name,
// a record of type 0 to skip when it does). Unlike dns_musl_diff's, glibc's
// transport cannot be given our IDs: a difference where a slot may point
// at the ID is tolerated (fdiff::slots_point_at_id).

#include <memory>
#include <optional>

#include "fuzz/diff/harness.h"
#include "resolve/addrinfo.h"
#include "server/answer/handler.h"
#include "server/cache/reply.h"
#include "server/faults/edns_modes.h"
#include "server/forward/forwarder.h"

using namespace rk8s;

namespace {

// The upstream: each name answered from its slot, over TCP when cut.
class Slots : public server::Source {
 public:
  void resolve(const server::Ask& ask, server::Resolved done) override {
    uint8_t msg[2048];
    size_t n = fdiff::slot_reply(ask.name, ask.type, msg, sizeof msg);
    msg[2] &= ~(dns::kFlagTC >> 8);
    auto answer = std::make_shared<server::CachedAnswer>();
    server::Resolution res;
    res.rcode = dns::kServFail;  // as the forwarder answers a reply it cannot read
    if (n && server::read_upstream_reply(Bytes{msg, n}, *answer))
      res = server::resolution_of(server::CacheHit{answer, 60}, ask.type, server::ServeStaleConfig{}.stale_ttl);
    done(&res);
  }
};

struct Server {
  Slots upstream;
  server::Router router;
  server::HandlerConfig config;
  server::Handle handle;  // handle_query with `config`, or a test fault's mode around it
  Server() {
    router.set_fallback(&upstream);
    config.router = &router;
  }
};
Server* companion;

size_t companion_answer(Bytes query, bool tcp, uint8_t* out, size_t cap) {
  size_t n = 0;
  companion->handle(query, server::QueryFrom{IpAddr{}, tcp},
                    [&](std::vector<uint8_t>& reply, const server::QueryInfo&) {
                      if (reply.size() <= cap) memcpy(out, reply.data(), n = reply.size());
                    });
  return n;
}

// The slot's rcode for candidate `c` and `type` (a missing slot: NXDOMAIN).
uint8_t slot_rcode(const dns::Name& c, uint16_t type) {
  uint8_t msg[2048];
  return fdiff::slot_reply(c, type, msg, sizeof msg) ? msg[3] & dns::kRcodeMask : dns::kNxDomain;
}

// README's known gap: an upstream that says NXDOMAIN for a candidate's A or
// AAAA and NOERROR for the other. The autopath walk trusts the NXDOMAIN
// (the name does not exist, whatever the type: RFC 2308); glibc reads the
// pair and may stop at the name.
bool nxdomain_for_one_type(const fdiff::DnsInput& in) {
  dns::Name c;
  for (size_t i = 0; candidate_name(in.conf, in.plan, i, c); i++) {
    uint8_t a = slot_rcode(c, dns::kTypeA), aaaa = slot_rcode(c, dns::kTypeAAAA);
    if ((a == dns::kNxDomain && aaaa == dns::kNoError) || (a == dns::kNoError && aaaa == dns::kNxDomain))
      return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fdiff::enter_sandbox(fdiff::kNet);
  fdiff::put_etc(fdiff::kNsswitch, "hosts: files dns\n");
  fdiff::put_etc(fdiff::kHostConf, "multi on\n");
  unsetenv("LOCALDOMAIN");
  unsetenv("RES_OPTIONS");
  companion = new Server;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fdiff::DnsInput in;
  if (!fdiff::load_dns_input(Bytes{data, size}, in)) return 0;
  if (fdiff::glibc_res_init_aborts(in.conf))
    return fdiff::tolerate("a search list glibc 2.36 aborts on in res_init"), 0;
  if (fdiff::has_marker_domain(in.conf))
    return fdiff::tolerate("a search domain of the marker's shape is not asked"), 0;
  const struct {
    const char* name;
    server::AutopathMode mode;
    std::optional<server::EdnsMode> test_mode;  // server/faults/'s
  } kModes[] = {{"on", server::AutopathMode::on, {}}, {"off", server::AutopathMode::off, {}},
                {"echo", server::AutopathMode::on, server::EdnsMode::echo},
                {"formerr", server::AutopathMode::on, server::EdnsMode::formerr}};
  fdiff::serve(fdiff::raw_answer);
  bool raw = true;
  for (const auto& m : kModes) {
    if (strcmp(in.server, m.name) != 0) continue;
    raw = false;
    server::HandlerConfig& config = companion->config;
    config.mode = m.mode;
    config.option_code = in.conf.opt.autopath_code;
    companion->handle = m.test_mode ? server::edns_mode_handle(*m.test_mode, config)
                                    : server::Handle([&config](Bytes q, const server::QueryFrom& from,
                                                               server::ReplyFn reply) {
                                        server::handle_query(config, q, from, std::move(reply));
                                      });
    fdiff::serve(companion_answer);
  }

  char* libc = fdiff::text_of([](FILE* f) { print_case(f, &in.call, getaddrinfo, freeaddrinfo); });
  char* ours = fdiff::text_of(
      [](FILE* f) { print_case(f, &in.call, fdiff::our_getaddrinfo, fdiff::our_freeaddrinfo); });
  bool walked_by_server = strcmp(in.server, "on") == 0;
  if (fdiff::our_gai_rc == kLetLibcAnswer)
    fdiff::tolerate("a call the library hands to libc whole");
  else if (strcmp(libc, ours) != 0 && walked_by_server && nxdomain_for_one_type(in))
    fdiff::tolerate("an upstream that says NXDOMAIN for a name's A and has records for its AAAA");
  else if (strcmp(libc, ours) != 0 && raw && fdiff::slots_point_at_id())
    fdiff::tolerate("a name read from the reply's header, where each side's random query ID sits");
  else if (strcmp(libc, ours) != 0)
    fdiff::diverged("getaddrinfo", libc, ours);
  free(libc);
  free(ours);
  return 0;
}
