// SPDX-License-Identifier: Apache-2.0
#include "util/line_reader.h"

#include <errno.h>
#include <unistd.h>

namespace rk8s {

bool LineReader::next(size_t max, Str& line) {
  for (;;) {
    size_t have = end_ - start_, span = have < max ? have : max;
    const void* nl = span ? memchr(buf_ + start_, '\n', span) : nullptr;
    size_t n = nl ? size_t(static_cast<const char*>(nl) - (buf_ + start_)) + 1
               : have >= max || (eof_ && have) ? span
                                               : 0;
    if (n) {
      line = Str{buf_ + start_, n};
      start_ += n;
      return true;
    }
    if (eof_ || failed_) return false;
    // Room for more: what is left moves to the front.
    if (start_) {
      memmove(buf_, buf_ + start_, have);
      start_ = 0, end_ = have;
    }
    if (end_ == cap_) {
      failed_ = true;  // a line the buffer cannot hold
      return false;
    }
    ssize_t got = read(fd_, buf_ + end_, cap_ - end_);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) failed_ = true;
    if (got == 0) eof_ = true;
    if (got > 0) end_ += size_t(got);
  }
}

}  // namespace rk8s
