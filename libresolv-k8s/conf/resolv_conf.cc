// SPDX-License-Identifier: Apache-2.0
// parse_conf: one of the two dialects, then what holds for both.
#include "conf/resolv_conf.h"

#include <sys/socket.h>

#include "conf/glibc.h"
#include "conf/musl.h"

namespace rk8s {

void parse_conf(Dialect dialect, const char* text, size_t len, const ConfEnv& env, Config& out) {
  out = Config{};
  out.dialect = dialect;
  out.release = env.release ? env.release : reference_release(dialect);
  Str file{text, text ? len : 0};
  if (dialect == Dialect::glibc)
    conf::parse_glibc(file, env, out);
  else
    conf::parse_musl(file, out);

  if (out.ns.count == 0) {
    IpAddr loopback{AF_INET, {127, 0, 0, 1}, 0};
    out.ns.push(loopback);
  }
  if (out.opt.attempts == 0) {
    out.warnings |= kWarnAttemptsZero;
    // glibc then sends nothing, which is what we do too; musl divides by it.
    if (dialect == Dialect::musl) out.opt.attempts = 1;
  }
  if (out.opt.strict_error) out.complete = false;
  if (!out.complete) out.warnings |= kWarnTooLarge;
}

}  // namespace rk8s
