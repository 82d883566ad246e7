// SPDX-License-Identifier: Apache-2.0
// A file's lines as the libcs' readers cut them (glibc's getline-like
// __nss_readline, musl's fgets into 512 bytes), from text in memory or
// streamed from a descriptor through the caller's buffer: a file of any
// size costs the buffer, as stdio costs the libc its own.
#pragma once

#include "util/base.h"

namespace rk8s {

class LineReader {
 public:
  explicit LineReader(Str text) : buf_(const_cast<char*>(text.data)), end_(text.size), eof_(true) {}
  LineReader(int fd, char* buf, size_t cap) : fd_(fd), buf_(buf), cap_(cap) {}

  // The next line, its newline included if it has one, of at most `max`
  // bytes (fgets(line, max + 1, f): a longer line comes in pieces); false
  // at the end, or when reading failed (failed()).
  bool next(size_t max, Str& line);
  // A read error, or a line longer than `max` that the buffer cannot hold
  // whole: the lines so far are all the reader gave.
  bool failed() const { return failed_; }

 private:
  int fd_ = -1;
  char* buf_;
  size_t cap_ = 0;
  size_t start_ = 0, end_ = 0;  // the bytes read and not yet handed out
  bool eof_ = false;
  bool failed_ = false;
};

}  // namespace rk8s
