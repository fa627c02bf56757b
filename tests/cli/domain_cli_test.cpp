// `qaplan domain build | background` through the binary: the lexicon is written atomically and
// is the same bytes twice; a missing or bad input exits 2 with one line naming it and writes
// nothing; the index input is refused with what to pass instead.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::qaplan_bin;
using qaplan::test::run;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class DomainCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-domain-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string fixture(const std::string& name) {
    return (qaplan::test::source_dir() / "tests" / "data" / "domain" / name).string();
  }
  static std::string background() {
    return (qaplan::test::source_dir() / "config" / "domain" / "background.tsv").string();
  }
  qaplan::test::RunResult domain(const std::string& args) const {
    return run(sh_quote(qaplan_bin()) + " domain " + args);
  }

  fs::path dir_;
};

TEST_F(DomainCli, BuildFromKbTwiceGivesTheSameBytes) {
  for (const char* out : {"a.qdl", "b.qdl"}) {
    const auto r = domain("build --kb " + sh_quote(fixture("kb")) + " --background " +
                          sh_quote(background()) + " --output " + sh_quote(path(out)));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"sha256\""), std::string::npos);
    EXPECT_NE(r.out.find("\"terms\""), std::string::npos);
  }
  const std::string a = slurp(path("a.qdl"));
  EXPECT_EQ(a.rfind("qaplan-domain-lexicon\t1\n", 0), 0u);
  EXPECT_EQ(a, slurp(path("b.qdl")));
}

TEST_F(DomainCli, BuildFromCorpusWithDefaultBackground) {
  const auto r = run("cd " + sh_quote(qaplan::test::source_dir().string()) + " && " +
                     sh_quote(qaplan_bin()) + " domain build --corpus " +
                     sh_quote(fixture("corpus.jsonl")) + " --output " + sh_quote(path("c.qdl")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(path("c.qdl")).find("\nbuilt_from\tcorpus\t"), std::string::npos);
}

TEST_F(DomainCli, ErrorsExitTwoAndWriteNothing) {
  const std::string bg = " --background " + sh_quote(background());
  struct Case {
    std::string args;
    std::string expect;  // in the one stderr line
  };
  std::ofstream(path("bad.jsonl")) << "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"a\"}\n";
  std::ofstream(path("bad_bg.tsv")) << "not a background\n";
  fs::create_directories(dir_ / "idx");
  std::ofstream(dir_ / "idx" / "bm25.qidx") << "x";
  const Case cases[] = {
      {"build --corpus " + sh_quote(path("missing.jsonl")) + bg, "missing.jsonl"},
      {"build --corpus " + sh_quote(path("bad.jsonl")) + bg, "bad.jsonl:2"},
      {"build --kb " + sh_quote(path("nokb")) + bg, "nokb"},
      {"build --index " + sh_quote(path("idx")) + bg, "--corpus"},
      {"build --corpus " + sh_quote(fixture("corpus.jsonl")) + " --kb " + sh_quote(fixture("kb")) +
           bg,
       "exactly one"},
      {"build --corpus " + sh_quote(fixture("corpus.jsonl")) + " --background " +
           sh_quote(path("bad_bg.tsv")),
       "bad_bg.tsv:1"},
      {"build --corpus " + sh_quote(fixture("corpus.jsonl")) + bg + " --source-share 0.3",
       "--source-share"},
  };
  for (const Case& c : cases) {
    const auto r = domain(c.args + " --output " + sh_quote(path("out.qdl")));
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(path("out.qdl"))) << c.args;
  }
}

TEST_F(DomainCli, NeverOverwritesAnInput) {
  fs::copy_file(fixture("corpus.jsonl"), path("c.jsonl"));
  const std::string before = slurp(path("c.jsonl"));
  const auto r = domain("build --corpus " + sh_quote(path("c.jsonl")) + " --background " +
                        sh_quote(background()) + " --output " + sh_quote(path("c.jsonl")));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(slurp(path("c.jsonl")), before);
}

TEST_F(DomainCli, BackgroundFromRouterData) {
  const auto r = domain("background --data " +
                        sh_quote((qaplan::test::source_dir() / "eval_sets" / "router").string()) +
                        " --output " + sh_quote(path("bg.tsv")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(path("bg.tsv")), slurp(background()));
  const auto bad = domain("background --data " + sh_quote(path("nothing")) + " --output " +
                          sh_quote(path("bg2.tsv")));
  EXPECT_EQ(bad.status, 2);
  EXPECT_FALSE(fs::exists(path("bg2.tsv")));
}

}  // namespace
