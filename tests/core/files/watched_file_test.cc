// SPDX-License-Identifier: Apache-2.0
// WatchedFile: parsed once, parsed again when the file changed, frozen
// when the parse says so, unreadable files, and a forked child.
#include "files/watched_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace rk8s {
namespace {

int parses;

// The file's first line as a number; "freeze" stops the watching.
bool parse_number(Str text, long& out) {
  parses++;
  std::string s(text.data ? text.data : "", text.size);
  out = s.empty() ? -1 : std::stol(s);
  return s.find("freeze") == std::string::npos;
}

// WatchedFiles live for the whole process (the fork handler lists them):
// each test has its own, static, on a file of its own.
#define DIR "/tmp/rk8s-watched-file-test"

// As glibc reads gai.conf without `reload yes`: once.
bool frozen_number(Str text, long& out) {
  parse_number(text, out);
  return false;
}

class WatchedFileTest : public testing::Test {
 protected:
  void SetUp() override {
    mkdir(DIR, 0700);
    path_ = std::string(DIR "/") + testing::UnitTest::GetInstance()->current_test_info()->name();
    parses = 0;
  }
  void TearDown() override {
    unlink(path_.c_str());
    rmdir(path_.c_str());
    rmdir(DIR);
  }
  void write(const std::string& text) { std::ofstream(path_, std::ios::trunc) << text; }
  long value(WatchedFile<long>& f) {
    auto ref = f.current();
    return ref ? *ref : -2;
  }

  std::string path_;
};

TEST_F(WatchedFileTest, ParsedOnceUntilItChanges) {
  static WatchedFile<long> f(DIR "/ParsedOnceUntilItChanges", parse_number, true);
  write("1\n");
  EXPECT_EQ(value(f), 1);
  EXPECT_EQ(value(f), 1);
  EXPECT_EQ(parses, 1);
  write("22\n");  // another size: another identity
  EXPECT_EQ(value(f), 22);
  EXPECT_EQ(parses, 2);
}

TEST_F(WatchedFileTest, HeldParseOutlivesAChange) {
  static WatchedFile<long> f(DIR "/HeldParseOutlivesAChange", parse_number, true);
  write("1\n");
  auto held = f.current();
  write("22\n");
  EXPECT_EQ(value(f), 22);
  EXPECT_EQ(*held, 1);
}

TEST_F(WatchedFileTest, FrozenIsNeverLookedAtAgain) {
  static WatchedFile<long> f(DIR "/FrozenIsNeverLookedAtAgain", parse_number, true);
  write("3 freeze\n");
  EXPECT_EQ(value(f), 3);
  write("44\n");
  EXPECT_EQ(value(f), 3);
  EXPECT_EQ(parses, 1);
}

TEST_F(WatchedFileTest, MissingIsEmptyAndWatched) {
  static WatchedFile<long> f(DIR "/MissingIsEmptyAndWatched", parse_number, true);
  EXPECT_EQ(value(f), -1);
  write("5\n");
  EXPECT_EQ(value(f), 5);
}

TEST_F(WatchedFileTest, AFileThatWentMissingKeepsBeingWatched) {
  static WatchedFile<long> f(DIR "/AFileThatWentMissingKeepsBeingWatched", parse_number, true);
  write("6\n");
  EXPECT_EQ(value(f), 6);
  unlink(path_.c_str());
  EXPECT_EQ(value(f), -1);
  write("8 freeze\n");
  EXPECT_EQ(value(f), 8);
  write("99\n");
  EXPECT_EQ(value(f), 8);
}

TEST_F(WatchedFileTest, FrozenWhenMissingFromTheStart) {
  static WatchedFile<long> f(DIR "/FrozenWhenMissingFromTheStart", frozen_number, true);
  EXPECT_EQ(value(f), -1);
  write("9\n");
  EXPECT_EQ(value(f), -1);
}

TEST_F(WatchedFileTest, Unreadable) {
  ASSERT_EQ(mkdir(path_.c_str(), 0700), 0);  // exists; read() fails
  static WatchedFile<long> retried(DIR "/Unreadable", parse_number, true);
  EXPECT_EQ(value(retried), -2);
  EXPECT_EQ(parses, 0);
  static WatchedFile<long> empty(DIR "/Unreadable", parse_number, false);
  EXPECT_EQ(value(empty), -1);
  EXPECT_EQ(value(empty), -1);
  EXPECT_EQ(parses, 1);
}

TEST_F(WatchedFileTest, ForkedChildParsesAgain) {
  static WatchedFile<long> f(DIR "/ForkedChildParsesAgain", parse_number, true);
  write("7\n");
  EXPECT_EQ(value(f), 7);
  pid_t pid = fork();
  if (pid == 0) _exit(value(f) == 7 && parses == 2 ? 0 : 1);
  int status;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(parses, 1);
}

}  // namespace
}  // namespace rk8s
