// The one reader (src/common/input.hpp): read(2), no read error taken for the end of a file, a
// file cut while it is read is an error, lines across chunk boundaries.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/input.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::internal::Input;
using qaplan::internal::LineReader;

class InputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-input-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return dir_ / name;
  }
  fs::path dir_;
};

TEST_F(InputTest, ReadsAFileWholeAndRefusesADirectory) {
  const std::string content(3 * 1024 * 1024 + 17, 'x');
  auto in = Input::open_file(write("a", content), "test file");
  ASSERT_TRUE(in.ok()) << in.error().to_string();
  auto all = in->read_all();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, content);
  auto d = Input::open_file(dir_, "test file");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("is a directory"), std::string::npos);
}

TEST_F(InputTest, ASparseFileOverTheCapIsRefusedBeforeItIsRead) {
  const fs::path p = dir_ / "sparse";
  std::ofstream(p).put('x');
  fs::resize_file(p, qaplan::internal::max_input_bytes() + 1);  // sparse: no disk used
  auto in = Input::open_file(p, "test file");
  ASSERT_TRUE(in.ok());
  auto all = in->read_all();
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.error().message.find("larger than"), std::string::npos) << all.error().to_string();
}

TEST_F(InputTest, AFileCutWhileItIsReadIsAnError) {
  const fs::path p = write("b", std::string(4 * 1024 * 1024, 'y'));
  auto in = Input::open_file(p, "corpus");
  ASSERT_TRUE(in.ok());
  std::string buf;
  ASSERT_TRUE(in->read_some(buf, 1024).ok());
  fs::resize_file(p, 2048);  // another process truncates it
  auto rest = in->read_all();
  ASSERT_FALSE(rest.ok());
  EXPECT_NE(rest.error().message.find("shrank while it was read"), std::string::npos)
      << rest.error().to_string();
  EXPECT_EQ(rest.error().file, p.string());
}

TEST_F(InputTest, LinesSurviveChunkBoundariesAndCarriageReturns) {
  std::string content;
  std::vector<std::string> want;
  for (int i = 0; i < 40000; ++i) {
    want.push_back(std::string(static_cast<std::size_t>(i % 173), 'a' + i % 26) + std::to_string(i));
    content += want.back() + (i % 3 == 0 ? "\r\n" : "\n");
  }
  content += "last line without newline";
  want.push_back("last line without newline");
  auto in = Input::open_stream(write("c", content).string(), "lines");
  ASSERT_TRUE(in.ok());
  LineReader lines(*in);
  std::vector<std::string> got;
  std::string line;
  for (;;) {
    auto more = lines.next(line);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
    got.push_back(line);
  }
  EXPECT_EQ(got, want);
}

}  // namespace
