// SPDX-License-Identifier: Apache-2.0
#include "fuzz/diff/harness.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conf/resolv_conf.h"
#include "dns/wire.h"
#include "plan/plan.h"
#include "resolve/addrinfo.h"
#include "resolve/trace.h"
#include "results/list.h"
#include "transport/dead_servers.h"
#include "util/text.h"

namespace fdiff {
namespace {

using namespace rk8s;

[[noreturn]] void die(const char* what) {
  fprintf(stderr, "fuzz-diff: %s: %s (run as root)\n", what, strerror(errno));
  exit(2);
}

// --- the sandbox ---

const char* const kEtcPath[kEtcFiles] = {"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf",
                                         "/etc/host.conf", "/etc/gai.conf"};
int etc_fd[kEtcFiles];
long etc_stamp = 1000000000;

void loopback_up() {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ifreq ifr = {};
  strcpy(ifr.ifr_name, "lo");
  if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) != 0) die("lo");
  ifr.ifr_flags |= IFF_UP;
  if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0) die("lo up");
  close(s);
}

}  // namespace

void enter_sandbox(unsigned flags) {
  int ns = CLONE_NEWNS | (flags & kNet ? CLONE_NEWNET : 0) | (flags & kUts ? CLONE_NEWUTS : 0);
  if (unshare(ns) != 0) die("unshare");
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) die("mount --make-rprivate /");
  // Our files live in a tmpfs on /tmp only while they are bound (as in
  // tests/pod/sandbox.sh): nothing reaches the disk, and /tmp is the host's
  // again afterwards. A file /etc lacks is made in an overlay over /etc.
  if (mount("fuzz-diff", "/tmp", "tmpfs", 0, "size=4m") != 0) die("tmpfs on /tmp");
  for (const char* path : kEtcPath) {
    if (access(path, F_OK) == 0) continue;
    if (mkdir("/tmp/upper", 0755) != 0 || mkdir("/tmp/work", 0755) != 0 ||
        mount("fuzz-diff", "/etc", "overlay", 0, "lowerdir=/etc,upperdir=/tmp/upper,workdir=/tmp/work") != 0)
      die("overlay on /etc");
    break;
  }
  for (int i = 0; i < kEtcFiles; i++) {
    char ours[32];
    snprintf(ours, sizeof ours, "/tmp/etc-%d", i);
    etc_fd[i] = open(ours, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    int made = open(kEtcPath[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (etc_fd[i] < 0 || made < 0 || mount(ours, kEtcPath[i], nullptr, MS_BIND, nullptr) != 0)
      die(kEtcPath[i]);
    close(made);
  }
  if (umount2("/tmp", MNT_DETACH) != 0) die("umount /tmp");
  if (flags & kNet) loopback_up();
}

void put_etc(EtcFile f, Str text) {
  timespec stamp[2] = {{etc_stamp, 0}, {etc_stamp, 0}};
  etc_stamp++;
  if (ftruncate(etc_fd[f], 0) != 0 || pwrite(etc_fd[f], text.data, text.size, 0) != ssize_t(text.size) ||
      futimens(etc_fd[f], stamp) != 0)
    die(kEtcPath[f]);
}

void put_etc(EtcFile f, const char* text) { put_etc(f, str(text)); }

bool has_marker_domain(const Config& c) {
  for (size_t i = 0; i < c.search_count(); i++)
    if (marker_domain(c.search(i))) return true;
  return false;
}

// We hold glibc's empty domains as "." (a byte more): each may count one
// byte too many, so any doubt counts as an abort.
bool glibc_res_init_aborts(const Config& c) {
  size_t used = 0, slack = 0;
  for (size_t i = 0; i < c.search_count() && i < 6; i++) {
    Str d = c.search(i);
    if (used + d.size + 1 > 256) return used <= 56 + slack;
    used += d.size + 1;
    slack += d == str(".");
  }
  return false;
}

Str next_line(Str& in) {
  Str line = take(in, find(in, '\n'));
  in = drop(in, line.size + 1);
  return line;
}

// --- resolv.conf inputs ---

namespace {

bool env_line(Str line, const char* name, char* out, size_t cap) {
  if (!starts_with(line, name)) return false;
  Str value = drop(line, strlen(name));
  size_t n = value.size < cap ? value.size : cap - 1;
  memcpy(out, value.data, n);
  out[n] = 0;
  return true;
}

}  // namespace

void split_conf_input(Str in, ConfInput& out) {
  for (;;) {
    Str rest = in, line = next_line(rest);
    if (env_line(line, "LOCALDOMAIN=", out.localdomain, sizeof out.localdomain))
      out.has_localdomain = true;
    else if (env_line(line, "RES_OPTIONS=", out.res_options, sizeof out.res_options))
      out.has_res_options = true;
    else if (!env_line(line, "HOSTNAME=", out.hostname, sizeof out.hostname))
      break;
    in = rest;
  }
  out.file = in;
}

// --- DNS inputs and the responder ---

namespace {

constexpr size_t kMaxSlot = 1500;  // every reply fits glibc's 2048-byte buffer

Bytes slots;
DnsInput* current_input;
bool udp_big;

// Slot `i`, or none (NXDOMAIN).
bool find_slot(size_t i, Bytes& out) {
  Bytes at = slots;
  for (;; i--) {
    if (at.size < 2) return false;
    size_t n = load16(at.data);
    out = Bytes{at.data + 2, n < at.size - 2 ? n : at.size - 2};
    if (i == 0) break;
    at = Bytes{out.data + out.size, at.size - 2 - out.size};
  }
  if (out.size > kMaxSlot) out.size = kMaxSlot;
  return true;
}

size_t slot_index(const dns::Name& name, uint16_t type) {
  const DnsInput& in = *current_input;
  size_t i = 0;
  for (dns::Name c; candidate_name(in.conf, in.plan, i, c); i++)
    if (dns::name_equal(c, name)) return 2 * i + (type == dns::kTypeAAAA);
  return 2 * i;
}

bool carries_option(dns::Reader& r) {
  for (dns::Record rec; r.record(rec);)
    if (rec.type == dns::kTypeOPT && rec.rdlength > 0) return true;
  return false;
}

// Gives every OPT record of the reply another type (65280, private use),
// leaving its bytes and counts as they were.
void disarm_opt(uint8_t* msg, size_t len) {
  dns::Reader r(msg, len);
  dns::Header h;
  dns::Question q;
  if (!r.header(h) || (h.qdcount && !r.question(q))) return;
  for (dns::Record rec; r.record(rec);)
    if (rec.type == dns::kTypeOPT) store16(msg + rec.rdata_off - 10, 0xff00);
}

AnswerFn answer_fn;
int udp_fd = -1, tcp_fd = -1;

bool read_full(int fd, uint8_t* buf, size_t n) {
  return n == 0 || recv(fd, buf, n, MSG_WAITALL) == ssize_t(n);
}

// One query of a TCP connection; false at its end.
bool answer_tcp(int conn) {
  static uint8_t query[65536], reply[2 + 65536];
  uint8_t len[2];
  if (!read_full(conn, len, 2) || !read_full(conn, query, load16(len))) return false;
  size_t n = answer_fn(Bytes{query, load16(len)}, true, reply + 2, sizeof reply - 2);
  store16(reply, uint16_t(n));
  return n == 0 || send(conn, reply, n + 2, MSG_NOSIGNAL) == ssize_t(n + 2);
}

void answer_udp() {
  static uint8_t query[65536], reply[65536];
  sockaddr_storage from;
  socklen_t from_len = sizeof from;
  ssize_t n = recvfrom(udp_fd, query, sizeof query, 0, reinterpret_cast<sockaddr*>(&from), &from_len);
  if (n <= 0) return;
  size_t len = answer_fn(Bytes{query, size_t(n)}, false, reply, sizeof reply);
  udp_big |= len > 512;
  if (len) sendto(udp_fd, reply, len, 0, reinterpret_cast<sockaddr*>(&from), from_len);
}

// UDP, the listener and up to 6 TCP connections; a libc may keep one open
// while it goes on over UDP.
void* respond(void*) {
  pollfd fds[8] = {{udp_fd, POLLIN, 0}, {tcp_fd, POLLIN, 0}};
  size_t nfds = 2;
  for (;;) {
    if (poll(fds, nfds, -1) <= 0) continue;
    if (fds[0].revents & POLLIN) answer_udp();
    for (size_t i = 2; i < nfds; i++) {
      if (!fds[i].revents || answer_tcp(fds[i].fd)) continue;
      close(fds[i].fd);
      fds[i--] = fds[--nfds];
    }
    if (fds[1].revents & POLLIN) {
      int conn = accept4(tcp_fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (conn >= 0 && nfds == 8) close(conn);
      else if (conn >= 0) fds[nfds++] = pollfd{conn, POLLIN, 0};
    }
  }
  return nullptr;
}

int bound_socket(int type) {
  sockaddr_in sa = {};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(53);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) die("127.0.0.1:53");
  return fd;
}

}  // namespace

bool load_dns_input(Bytes data, DnsInput& out) {
  rk8s::forget_dead_servers();  // each input a new process, as the libc's run is
  Str in{reinterpret_cast<const char*>(data.data), data.size};
  char line[512];
  Str first = next_line(in);
  snprintf(line, sizeof line, "%.*s", int(first.size), first.data);
  if (!parse_case(line, &out.call)) return false;

  Str second = next_line(in);
  Str server = word(second, is_space);
  snprintf(out.server, sizeof out.server, "%.*s", int(server.size), server.data);
  Str known = word(skip(drop(second, server.size), is_space), is_space);
  out.support = Support::unknown;
  const Support kKnown[] = {Support::yes, Support::no, Support::formerr};
  for (Support s : kKnown)
    if (known == str(support_name(s))) out.support = s;

  static char conf[8192];
  size_t n = size_t(snprintf(conf, sizeof conf, "%s",
                             "nameserver 127.0.0.1\n"
                             "search default.svc.cluster.local svc.cluster.local cluster.local corp.example\n"
                             "options ndots:5\n"));
  for (Str l = next_line(in); l.size && n + l.size + 64 < sizeof conf; l = next_line(in)) {
    memcpy(conf + n, l.data, l.size);
    n += l.size;
    conf[n++] = '\n';
  }
  n += size_t(snprintf(conf + n, sizeof conf - n, "options timeout:1 attempts:1\n"));
  put_etc(kResolvConf, Str{conf, n});
  ConfEnv env{nullptr, nullptr, nullptr};
  parse_conf(kLibc, conf, n, env, out.conf);
  build_plan(out.conf, str(out.call.node), out.plan);
  for (const IpAddr& ns : out.conf.ns) remember_support(ns, Support::unknown);
  if (out.conf.ns.count) remember_support(out.conf.ns[0], out.support);

  slots = Bytes{reinterpret_cast<const uint8_t*>(in.data), in.size};
  current_input = &out;
  udp_big = false;
  return true;
}

size_t slot_reply(const dns::Name& name, uint16_t type, uint8_t* out, size_t cap) {
  uint8_t head[8] = {0x81, 0x80 | dns::kNxDomain};
  Bytes slot;
  if (find_slot(slot_index(name, type), slot)) {
    size_t n = slot.size < 8 ? slot.size : 8;
    memset(head, 0, sizeof head);
    memcpy(head, slot.data, n);
    slot = Bytes{slot.data + n, slot.size - n};
  }
  size_t n = 12 + name.len + 4 + slot.size;
  if (n > cap) return 0;
  store16(out, 0);
  store16(out + 2, uint16_t((load16(head) | dns::kFlagQR) & ~dns::kOpcodeMask));
  store16(out + 4, 1);
  memcpy(out + 6, head + 2, 6);
  memcpy(out + 12, name.wire, name.len);
  store16(out + 12 + name.len, type);
  store16(out + 14 + name.len, dns::kClassIN);
  if (slot.size) memcpy(out + 16 + name.len, slot.data, slot.size);
  return n;
}

size_t raw_answer(Bytes query, bool tcp, uint8_t* out, size_t cap) {
  dns::Reader r(query.data, query.size);
  dns::Header h;
  dns::Question q;
  if (!r.header(h) || cap < 12) return 0;
  size_t n = 12;
  if (h.qdcount != 1 || !r.question(q)) {
    // Nothing to echo (musl 1.2.3 sends such queries): FORMERR, alone.
    memset(out, 0, 12);
    out[2] = 0x80;
    out[3] = dns::kFormErr;
  } else if (!(n = slot_reply(q.name, q.type, out, cap))) {
    return 0;
  } else if (carries_option(r)) {
    disarm_opt(out, n);
  }
  store16(out, h.id);
  if (tcp) out[2] &= ~(dns::kFlagTC >> 8);
  return n;
}

bool udp_over_512() { return udp_big; }

bool slots_point_at_id() {
  Bytes slot;
  for (size_t i = 0; find_slot(i, slot); i++)
    for (size_t j = 0; j + 1 < slot.size; j++)
      if (slot.data[j] == 0xc0 && slot.data[j + 1] < 2) return true;
  return false;
}

void serve(AnswerFn answer) {
  answer_fn = answer;
  if (udp_fd >= 0) return;
  udp_fd = bound_socket(SOCK_DGRAM);
  tcp_fd = bound_socket(SOCK_STREAM);
  if (listen(tcp_fd, 8) != 0) die("listen");
  pthread_t t;
  if (pthread_create(&t, nullptr, respond, nullptr) != 0) die("responder thread");
}

// --- our side ---

int our_gai_rc;

int our_getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                    struct addrinfo** res) {
  static const ExchangeFn transport = getenv("FDIFF_TRACE") ? traced_exchange : exchange;
  return our_gai_rc = resolve_addrinfo(node, service, hints, res, transport, nullptr);
}

void our_freeaddrinfo(struct addrinfo* ai) { gai_free(kLibc, ai); }

// --- divergences and the musl drivers' replay loop ---

namespace {

const char* driver_name;
const char* artifact_prefix = "";
Bytes replaying;

struct Tolerated {
  const char* readme;
  unsigned long count;
};
Tolerated tolerated[8];

void print_tolerated() {
  for (const Tolerated& t : tolerated)
    if (t.readme) fprintf(stderr, "fuzz-diff: tolerated %lu: %s\n", t.count, t.readme);
}

}  // namespace

void tolerate(const char* readme) {
  if (!tolerated[0].readme) atexit(print_tolerated);
  for (Tolerated& t : tolerated)
    if (!t.readme || t.readme == readme) {
      t.readme = readme;
      t.count++;
      return;
    }
}

void diverged(const char* what, const char* libc, const char* ours) {
  fprintf(stderr, "fuzz-diff: %s differs\n--- libc\n%s--- ours\n%s---\n", what, libc, ours);
  if (driver_name) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < replaying.size; i++) h = (h ^ replaying.data[i]) * 16777619u;
    char path[256];
    snprintf(path, sizeof path, "%scrash-%s-%08x", artifact_prefix, driver_name, h);
    FILE* f = fopen(path, "wb");
    if (f) fwrite(replaying.data, 1, replaying.size, f), fclose(f);
    fprintf(stderr, "fuzz-diff: input saved as %s\n", path);
  }
  abort();
}

namespace {

constexpr size_t kMaxInput = 4096;  // libFuzzer's default -max_len for these corpora
constexpr size_t kMaxCorpus = 4096;

struct Input {
  uint8_t* data;
  size_t size;
};
Input corpus[kMaxCorpus];
size_t corpus_size;

uint64_t rng = 88172645463325252ull;
uint32_t next_random(uint32_t below) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return below ? uint32_t(rng % below) : 0;
}

void load_dir(const char* dir) {
  DIR* d = opendir(dir);
  if (!d) return;
  while (dirent* e = readdir(d)) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (corpus_size == kMaxCorpus || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    FILE* f = fopen(path, "rb");
    if (!f) continue;
    Input& in = corpus[corpus_size];
    in.data = static_cast<uint8_t*>(malloc(kMaxInput));
    in.size = fread(in.data, 1, kMaxInput, f);
    fclose(f);
    corpus_size++;
  }
  closedir(d);
}

// Words of both framings the mutations insert.
struct Token {
  const char* text;
  size_t size;
};
#define T(s) Token{s, sizeof s - 1}
const Token kTokens[] = {
    T("search "), T("domain "), T("nameserver "), T("options "), T("ndots:"), T("timeout:"),
    T("attempts:"), T("\n"), T(" "), T("\t"), T("."), T(".."), T("#"), T(";"), T("\r"), T("\0"),
    T("0"), T("1"), T("5"), T("15"), T("16"), T("127.0.0.1"), T("::1"), T("fe80::1%1"), T("%lo"),
    T("single-request"), T("no-tld-query"), T("edns0"), T("rotate"), T("no-aaaa"), T("use-vc"),
    T("k8s-autopath:off"), T("k8s-autopath-code:"), T("svc.cluster.local"),
    T("default.svc.cluster.local."), T("LOCALDOMAIN="), T("RES_OPTIONS="), T("HOSTNAME="), T("web"),
    T("canonname"), T("unspec"), T("inet6"), T("raw"), T("on"), T("yes"), T("\xc0\x0c"),
    T("\x00\x01"), T("\x00\x1c"), T("\x00\x05"), T("\x81\x80"), T("\x81\x83"),
    T("\x00\x00\x00\x3c")};
#undef T

void mutate(uint8_t* d, size_t& n) {
  for (uint32_t k = 1 + next_random(4); k; k--) {
    size_t at = next_random(uint32_t(n + 1));
    switch (next_random(6)) {
      case 0:
        if (n) d[at % n] ^= uint8_t(1u << next_random(8));
        break;
      case 1:
        if (n) d[at % n] = uint8_t(next_random(256));
        break;
      case 2: {
        const Token& t = kTokens[next_random(sizeof kTokens / sizeof *kTokens)];
        if (n + t.size > kMaxInput) break;
        memmove(d + at + t.size, d + at, n - at);
        memcpy(d + at, t.text, t.size);
        n += t.size;
        break;
      }
      case 3: {
        size_t len = next_random(uint32_t(n - at + 1)) % 16;
        memmove(d + at, d + at + len, n - at - len);
        n -= len;
        break;
      }
      case 4: {  // a piece of the input again elsewhere
        size_t from = next_random(uint32_t(n + 1)), len = next_random(uint32_t(n - from + 1)) % 64;
        if (n + len > kMaxInput) break;
        uint8_t piece[64];
        memcpy(piece, d + from, len);
        memmove(d + at + len, d + at, n - at);
        memcpy(d + at, piece, len);
        n += len;
        break;
      }
      default: {  // the tail of another input
        const Input& o = corpus[next_random(uint32_t(corpus_size))];
        size_t from = next_random(uint32_t(o.size + 1));
        size_t len = o.size - from < kMaxInput - at ? o.size - from : kMaxInput - at;
        memcpy(d + at, o.data + from, len);
        n = at + len;
      }
    }
  }
}

uint64_t now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000 + uint64_t(ts.tv_nsec) / 1000000;
}

}  // namespace

int replay_main(int argc, char** argv, void (*run_one)(const uint8_t* data, size_t size)) {
  const char* slash = strrchr(argv[0], '/');
  driver_name = slash ? slash + 1 : argv[0];
  unsigned long seconds = 10;
  for (int i = 1; i < argc; i++) {
    if (sscanf(argv[i], "-max_total_time=%lu", &seconds) == 1) continue;
    if (strncmp(argv[i], "-artifact_prefix=", 17) == 0) {
      artifact_prefix = argv[i] + 17;
      continue;
    }
    if (sscanf(argv[i], "-seed=%lu", &rng) == 1) {
      rng = rng ? rng : 1;
      continue;
    }
    load_dir(argv[i]);
  }
  if (!corpus_size) {
    fprintf(stderr, "usage: %s [-max_total_time=S] [-seed=N] CORPUS_DIR...\n", argv[0]);
    return 2;
  }
  uint64_t start = now_ms(), runs = 0;
  static uint8_t buf[kMaxInput];
  for (size_t i = 0; i < corpus_size; i++, runs++) {
    replaying = Bytes{corpus[i].data, corpus[i].size};
    run_one(corpus[i].data, corpus[i].size);
  }
  while (now_ms() - start < seconds * 1000) {
    const Input& seed = corpus[next_random(uint32_t(corpus_size))];
    size_t n = seed.size;
    memcpy(buf, seed.data, n);
    mutate(buf, n);
    replaying = Bytes{buf, n};
    run_one(buf, n);
    runs++;
  }
  uint64_t ms = now_ms() - start;
  printf("stat::number_of_executed_units: %llu\nstat::average_exec_per_sec:     %llu\n"
         "stat::corpus_size:              %zu\n",
         (unsigned long long)runs, (unsigned long long)(ms ? runs * 1000 / ms : runs), corpus_size);
  return 0;
}

}  // namespace fdiff
