// SPDX-License-Identifier: Apache-2.0
// Differential: glibc's files source against ours, on inputs whose first
// line is a getaddrinfo case (tests/addrinfo-oracle/cases) and whose rest is
// /etc/hosts. getaddrinfo and gethostbyname2_r (AF_INET6 for an inet6 case,
// else AF_INET; a 1024-byte buffer, so ERANGE is met too) of glibc itself
// and of our pipeline (resolve_addrinfo, resolve_hostent, the real
// transport) must give the same results, errors and h_errno.
//
// nsswitch.conf says `hosts: files dns`: with `files` alone the library
// hands every call to libc. DNS is a nameserver that is not there (ICMP
// port unreachable in the sandbox's network namespace), so a name the file
// lacks fails the same quick way on both sides. A call the library hands to
// libc whole is not compared.
#include <arpa/inet.h>
#include <errno.h>

#include "fuzz/diff/harness.h"
#include "resolve/addrinfo.h"
#include "resolve/gethostbyname_pipeline.h"

using namespace rk8s;

namespace {

bool handed_to_libc;

using HostentFn = int (*)(const char* name, int af, struct hostent* h, char* buf, size_t len,
                          struct hostent** result, int* h_errnop);

int our_gethostbyname2_r(const char* name, int af, struct hostent* h, char* buf, size_t len,
                         struct hostent** result, int* h_errnop) {
  int rc = resolve_hostent({name, af, h, buf, len, result, h_errnop, exchange, nullptr});
  handed_to_libc |= rc == kHostentLibc;
  return rc;
}

void print_hostent(FILE* out, const char* name, int af, HostentFn fn) {
  static char buf[1024];
  // A value neither sets, to see what each leaves alone.
  struct hostent h, *result = nullptr;
  int herr = 12345;
  int rc = fn(name, af, &h, buf, sizeof buf, &result, &herr);
  fprintf(out, "ret %d h_errno %d\n", rc, herr);
  if (!result) return;
  fprintf(out, "name %s\naddrtype %d length %d\n", h.h_name, h.h_addrtype, h.h_length);
  for (char** a = h.h_aliases; *a; a++) fprintf(out, "alias %s\n", *a);
  for (char** a = h.h_addr_list; *a; a++) {
    char text[INET6_ADDRSTRLEN] = "?";
    inet_ntop(h.h_addrtype, *a, text, sizeof text);
    fprintf(out, "address %s\n", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fdiff::enter_sandbox(fdiff::kNet);
  fdiff::put_etc(fdiff::kResolvConf, "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
  fdiff::put_etc(fdiff::kNsswitch, "hosts: files dns\n");
  fdiff::put_etc(fdiff::kHostConf, "multi on\n");
  unsetenv("LOCALDOMAIN");
  unsetenv("RES_OPTIONS");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Str in{reinterpret_cast<const char*>(data), size};
  Str first = fdiff::next_line(in);
  char line[512];
  snprintf(line, sizeof line, "%.*s", int(first.size), first.data);
  static gai_case call;
  if (!parse_case(line, &call) || !call.has_node) return 0;
  fdiff::put_etc(fdiff::kHosts, in);
  static int af;
  af = call.has_hints && call.hints.ai_family == AF_INET6 ? AF_INET6 : AF_INET;

  char* libc = fdiff::text_of([](FILE* f) {
    print_case(f, &call, getaddrinfo, freeaddrinfo);
    print_hostent(f, call.node, af, gethostbyname2_r);
  });
  char* ours = fdiff::text_of([](FILE* f) {
    print_case(f, &call, fdiff::our_getaddrinfo, fdiff::our_freeaddrinfo);
    handed_to_libc = fdiff::our_gai_rc == kLetLibcAnswer;
    print_hostent(f, call.node, af, our_gethostbyname2_r);
  });
  if (handed_to_libc)
    fdiff::tolerate("a call the library hands to libc whole");
  else if (strcmp(libc, ours) != 0)
    fdiff::diverged("hosts", libc, ours);
  free(libc);
  free(ours);
  return 0;
}
