// SPDX-License-Identifier: Apache-2.0
// What the differential targets of fuzz/diff/ share: the glibc libFuzzer
// targets and the musl replay drivers alike, so freestanding like the core.
//
//   - a sandbox: a private mount namespace (and network and UTS ones) in
//     which the /etc files a lookup reads are files of our own;
//   - the two input framings, resolv.conf and DNS (below);
//   - a responder on 127.0.0.1:53, UDP and TCP, answering from the input;
//   - the report of a divergence, and the musl drivers' replay loop.
#pragma once

#include "lookup/support.h"
#include "plan/plan.h"
#include "tests/addrinfo-oracle/cases.h"

namespace fdiff {

using rk8s::Bytes;
using rk8s::Str;

enum EtcFile { kResolvConf, kHosts, kNsswitch, kHostConf, kGaiConf, kEtcFiles };
enum : unsigned { kNet = 1, kUts = 2 };

// As root, once: a private mount namespace with every EtcFile bound to an
// empty file of ours; kNet adds a network namespace with loopback up, kUts
// a UTS namespace. Exits when it cannot.
void enter_sandbox(unsigned flags);
// Replaces the file's bytes, and its mtime with one never used before: the
// libcs' and our change detection then see a new file even within one tick.
void put_etc(EtcFile f, Str text);
void put_etc(EtcFile f, const char* text);

// glibc 2.36 copies the first 6 search domains into _res.defdname (256
// bytes); when one does not fit, its consistency check compares the bytes
// copied with the size of _res.dnsrch (56) instead, an assertion fails and
// the program aborts (resolv/resolv_conf.c, update_from_conf). True when
// that may happen to `c`, glibc's list as we read it.
bool glibc_res_init_aborts(const rk8s::Config& c);
// A search domain of the marker's shape, which our plans leave out (README).
bool has_marker_domain(const rk8s::Config& c);

// The line at the front of `in`, without its newline; `in` moves past it.
Str next_line(Str& in);

// A resolv.conf input: leading lines LOCALDOMAIN=..., RES_OPTIONS=... and
// HOSTNAME=... (tests/conf-oracle/fixtures/*.env) set what glibc reads
// besides the file; the rest is the file. musl reads only the file.
struct ConfInput {
  char localdomain[256] = {}, res_options[256] = {}, hostname[65] = "pod-0.oracle.example";
  bool has_localdomain = false, has_res_options = false;
  Str file;
};
void split_conf_input(Str in, ConfInput& out);

// A DNS input: one getaddrinfo call against a server answering from it.
//   line 1  a case of tests/addrinfo-oracle/cases:
//           NODE SERVICE FAMILY SOCKTYPE PROTOCOL FLAGS
//   line 2  the server, then what the library knows of its support
//           (unknown, yes, no, formerr): "raw" answers from the slots below
//           and ignores the autopath option; "on", "off", "echo", "formerr"
//           (glibc target only, else raw) are the companion server's
//           autopath modes, forwarding to an upstream that answers so
//   lines   resolv.conf lines, up to an empty line, between "nameserver
//           127.0.0.1", a kubelet search list and ndots:5 before and
//           "options timeout:1 attempts:1" after
//   rest    reply slots, each a 2-byte length and its bytes: slot 2i answers
//           candidate i of the search plan for A, 2i+1 for AAAA, the slot
//           after the last candidate's any other name; a missing slot is
//           NXDOMAIN. A slot is the header's flags word and its answer,
//           authority and additional counts (8 bytes; short is zeros),
//           then records, written after the question (0xc00c points at it).
struct DnsInput {
  gai_case call = {};
  char server[16] = {};
  rk8s::Support support = rk8s::Support::unknown;
  rk8s::Config conf;  // as our library reads the resolv.conf written
  rk8s::Plan plan;
};
// Parses `in`, writes its resolv.conf and makes its slots the responder's.
// False when line 1 is no case.
bool load_dns_input(Bytes in, DnsInput& out);

// The responder's answer to `query`: the reply's length in `out`, 0 for none.
using AnswerFn = size_t (*)(Bytes query, bool tcp, uint8_t* out, size_t cap);
// Starts the responder on its first call (in the network namespace); each
// query is answered by the function last given.
void serve(AnswerFn answer);
// The slots' answer as a raw server gives it: the query's ID and question,
// the slot's flags and records; TC only over UDP; to a query carrying an
// EDNS option, OPT records turned into another type, so that no input can
// forge an autopath reply option (the raw server does not know the option).
size_t raw_answer(Bytes query, bool tcp, uint8_t* out, size_t cap);
// The slot for (name, type) as a whole reply: ID 0, QR set, opcode 0, the
// slot's other flags (TC too).
size_t slot_reply(const rk8s::dns::Name& name, uint16_t type, uint8_t* out, size_t cap);
// Whether a UDP reply since the last load_dns_input was over 512 bytes.
bool udp_over_512();
// Whether a slot holds the two bytes of a compression pointer to offset 0
// or 1 of its reply: a name read through it is made of the query's ID,
// random, so two lookups may read two names (or one may fail) from one
// input. Anywhere in a slot, so never missed (an address 192.0.x.x counts).
bool slots_point_at_id();

// Our getaddrinfo and freeaddrinfo, the whole pipeline with the real
// transport; our_gai_rc is what the last call returned (kLetLibcAnswer: the
// library would have handed it to libc). FDIFF_TRACE=1 in the environment
// writes our queries and replies to stderr, to read a finding.
extern int our_gai_rc;
int our_getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                    struct addrinfo** res);
void our_freeaddrinfo(struct addrinfo* ai);

// Counts a difference explained by one of README's deliberate differences,
// named by its words; the counts are printed at exit.
void tolerate(const char* readme);
// Prints what differs, the libc's text and ours, and aborts (the musl
// drivers first save the input as ./crash-<driver>-<hash>).
[[noreturn]] void diverged(const char* what, const char* libc, const char* ours);

// The text `print` writes to a FILE, malloc'd (the caller frees it).
template <class F>
char* text_of(F print);

// The musl drivers' main: runs every file of the directories given, then
// mutations of them until -max_total_time=S (default 10) has passed, with
// -seed=N; prints libFuzzer's final stats. A divergence is saved as
// -artifact_prefix=P (default ./) crash-<driver>-<hash>.
int replay_main(int argc, char** argv, void (*run_one)(const uint8_t* data, size_t size));

}  // namespace fdiff

#include <stdio.h>
#include <stdlib.h>

template <class F>
char* fdiff::text_of(F print) {
  char* text = nullptr;
  size_t len = 0;
  FILE* out = open_memstream(&text, &len);
  if (!out) abort();
  print(out);
  fclose(out);
  return text;
}
