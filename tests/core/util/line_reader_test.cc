// SPDX-License-Identifier: Apache-2.0
// LineReader: lines cut as glibc's reader (whole) and musl's fgets (511
// bytes) cut them, the same from text in memory and from a descriptor read
// through buffers of every small size.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "util/line_reader.h"

namespace rk8s {
namespace {

std::vector<std::string> all_lines(LineReader& r, size_t max) {
  std::vector<std::string> out;
  Str line;
  while (r.next(max, line)) out.emplace_back(line.data, line.size);
  return out;
}

const std::string kText = "first\n\n  second line\nx" + std::string(30, 'y') + "\nlast, no newline";

TEST(LineReader, InMemory) {
  LineReader r(Str{kText.data(), kText.size()});
  EXPECT_EQ(all_lines(r, SIZE_MAX), (std::vector<std::string>{"first\n", "\n", "  second line\n",
                                                              "x" + std::string(30, 'y') + "\n",
                                                              "last, no newline"}));
  EXPECT_FALSE(r.failed());
}

TEST(LineReader, LongLinesInPieces) {
  LineReader r(Str{kText.data(), kText.size()});
  auto lines = all_lines(r, 8);
  EXPECT_EQ(lines[2], "  second");
  EXPECT_EQ(lines[3], " line\n");
  std::string joined;
  for (auto& l : lines) joined += l;
  EXPECT_EQ(joined, kText);
}

TEST(LineReader, StreamedAsInMemoryThroughAnyBuffer) {
  int fd = memfd_create("lines", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, kText.data(), kText.size()), ssize_t(kText.size()));
  for (size_t max : {size_t(5), size_t(16), SIZE_MAX}) {
    LineReader mem(Str{kText.data(), kText.size()});
    auto want = all_lines(mem, max);
    for (size_t cap = 40; cap <= 70; cap++) {
      lseek(fd, 0, SEEK_SET);
      std::vector<char> buf(cap);
      LineReader r(fd, buf.data(), cap);
      EXPECT_EQ(all_lines(r, max), want) << "max " << max << " buffer " << cap;
      EXPECT_FALSE(r.failed());
    }
  }
  close(fd);
}

TEST(LineReader, ALineLongerThanTheBufferFails) {
  int fd = memfd_create("lines", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, kText.data(), kText.size()), ssize_t(kText.size()));
  lseek(fd, 0, SEEK_SET);
  char buf[20];
  LineReader r(fd, buf, sizeof buf);
  EXPECT_EQ(all_lines(r, SIZE_MAX), (std::vector<std::string>{"first\n", "\n", "  second line\n"}));
  EXPECT_TRUE(r.failed());
  close(fd);
}

TEST(LineReader, AReadErrorFails) {
  char buf[64];
  LineReader r(-1, buf, sizeof buf);
  Str line;
  EXPECT_FALSE(r.next(SIZE_MAX, line));
  EXPECT_TRUE(r.failed());
}

}  // namespace
}  // namespace rk8s
