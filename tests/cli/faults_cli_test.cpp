// The fault catalogue of docs/reliability.md as CLI regression tests: before its fix each went
// wrong as its comment says.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

using qaplan::test::run;
using qaplan::test::one_error_line;
using qaplan::test::quoted_bin;
using qaplan::test::sh_quote;

// Runs `cmd` while this process holds DIR/.lock as another writer would: exit 2, one line
// naming the holder's pid.
void expect_refused_while_locked(const std::filesystem::path& dir, const std::string& cmd) {
  const int fd = ::open((dir / ".lock").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string pid = std::to_string(::getpid()) + "\n";
  ASSERT_EQ(::pwrite(fd, pid.data(), pid.size(), 0), static_cast<ssize_t>(pid.size()));
  const auto r = run(cmd);
  ::close(fd);
  EXPECT_EQ(r.status, 2) << cmd;
  EXPECT_TRUE(one_error_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("pid " + std::to_string(::getpid())), std::string::npos) << r.err;
}

// Item 6 / 9: --version and --help on a full disk exited 0. Every command's stdout is checked:
// a failed write is exit 2 with one line naming stdout and the errno text (it said "cannot write
// to stdout" without the reason, or nothing).
TEST(FaultsCli, EveryCommandOnAFullDiskExitsTwoWithErrno) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "SKIPPED: no /dev/full";
  const auto dir =
      std::filesystem::temp_directory_path() / ("qaplan-full-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string corpus = (dir / "c.jsonl").string();
  std::ofstream(corpus) << "{\"id\":\"a\",\"text\":\"年假怎么申请\"}\n";
  const std::string ix = sh_quote((dir / "ix").string());
  ASSERT_EQ(run(quoted_bin() + " index build --corpus " + sh_quote(corpus) + " --output " + ix).status, 0);
  const std::string rules =
      sh_quote((qaplan::test::source_dir() / "config" / "rules.toml").string());
  for (const std::string& args : std::vector<std::string>{
           "--version", "--help", "plan --help", "plan 年假怎么申请",
           "rewrite 那病假呢 --history 年假怎么申请", "config check " + rules,
           "tokenize --input " + sh_quote(corpus), "search --query 年假 --index " + ix,
           "search --query 年假 --corpus " + sh_quote(corpus), "ask 年假怎么申请 --index " + ix,
           "index build --corpus " + sh_quote(corpus) + " --output " + ix}) {
    const auto r = run(quoted_bin() + " " + args + " > /dev/full");
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(one_error_line(r.err)) << args << ": " << r.err;
    EXPECT_NE(r.err.find("stdout: cannot write: No space left on device"), std::string::npos)
        << args << ": " << r.err;
  }
  // A batch stops at the first failed write instead of planning the rest for nobody.
  std::ofstream(dir / "q.jsonl") << "{\"question\":\"年假怎么申请\"}\n";
  const auto r =
      run(quoted_bin() + " plan --input " + sh_quote((dir / "q.jsonl").string()) + " > /dev/full");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

// Item 9: `--version --bogus` exited 0 (CLI11 answers --version before reading the rest).
TEST(FaultsCli, VersionWithAnotherArgumentIsAUsageError) {
  const auto r = run(quoted_bin() + " --version --bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(one_error_line(r.err)) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(run(quoted_bin() + " --version").status, 0);
}

// Item 7: a session field that is not UTF-8, or holds a control byte, went into the filters as
// U+FFFD with exit 0.
TEST(FaultsCli, SessionFieldsMustBeValidText) {
  for (const auto& [flag, value, field] :
       {std::tuple{"--session-department", std::string("\xff\xfe"), "session_department"},
        std::tuple{"--session-user", std::string("a\x1b[31mb"), "session_user"}}) {
    const auto r = run(quoted_bin() + " plan 年假怎么申请 " + flag + " " + sh_quote(value));
    EXPECT_EQ(r.status, 2) << flag;
    EXPECT_TRUE(one_error_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(run(quoted_bin() + " plan 我们组的报销 --session-department 研发部").status, 0);
}

class FaultsFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("qaplan-faults-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return (dir_ / name).string();
  }
  std::filesystem::path dir_;
};

// Item 9: a batch file holding only a BOM (or a BOM and a blank line) was "malformed JSON".
TEST_F(FaultsFiles, ABomStartsABatchFileAndIsNothingElse) {
  for (const char* content : {"\xEF\xBB\xBF", "\xEF\xBB\xBF\n", "\xEF\xBB\xBF\r\n\n"}) {
    const auto r = run(quoted_bin() + " plan --input " + sh_quote(file("bom.jsonl", content)));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const auto r = run(quoted_bin() + " plan --plan-only --input " +
                     sh_quote(file("q.jsonl", "\xEF\xBB\xBF{\"question\":\"年假怎么申请\"}\n")));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"query\":\"年假怎么申请\""), std::string::npos) << r.out;
}

// Item 5: a directory as the batch input (named, or as stdin) read as an empty file: exit 0.
TEST_F(FaultsFiles, ADirectoryIsNoBatchInput) {
  for (const std::string& args : {"--input - < " + sh_quote(dir_.string()),
                                  "--input " + sh_quote(dir_.string())}) {
    const auto r = run(quoted_bin() + " plan " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_TRUE(one_error_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  }
}

// Item 8: what `config check` accepts runs, and every command refuses what it refuses.
// max_history_turns = 0 passed the check and then refused every request with history;
// budget_stop_retrieval_tokens below budget_normal_tokens passed; search --config read [ranking]
// only.
TEST_F(FaultsFiles, CheckAndRunAgreeOnCrossFieldRules) {
  const std::filesystem::path src = qaplan::test::source_dir() / "config";
  for (const auto& [from, to, field] :
       {std::tuple{std::string("max_history_turns = 20"), std::string("max_history_turns = 0"),
                   "max_history_turns"},
        std::tuple{std::string("budget_stop_retrieval_tokens = 10000"),
                   std::string("budget_stop_retrieval_tokens = 5000"), "budget_stop_retrieval_tokens"}}) {
    const std::filesystem::path cfg = dir_ / "config";
    std::filesystem::remove_all(cfg);
    std::filesystem::copy(src, cfg, std::filesystem::copy_options::recursive);
    std::string rules = qaplan::test::slurp(cfg / "rules.toml");
    const auto at = rules.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    rules.replace(at, from.size(), to);
    std::ofstream(cfg / "rules.toml", std::ios::binary | std::ios::trunc) << rules;
    const std::string c = sh_quote((cfg / "rules.toml").string());
    const std::string corpus = file("c.jsonl", "{\"id\":\"a\",\"text\":\"年假\"}\n");
    for (const std::string& cmd :
         {"config check " + c, "plan 年假怎么申请 --config " + c,
          "search --corpus " + sh_quote(corpus) + " --query 年假 --config " + c}) {
      const auto r = run(quoted_bin() + " " + cmd);
      EXPECT_EQ(r.status, 2) << cmd;
      EXPECT_TRUE(one_error_line(r.err)) << r.err;
      EXPECT_NE(r.err.find(field), std::string::npos) << cmd << ": " << r.err;
    }
  }
}

// Item 1/3: two builds into one --output mixed their files, and a killed build could leave the
// new bm25 beside the old hnsw. Builds now publish generations under an exclusive lock: the
// loser exits 2 naming the holder; staging a killed build left is removed by the next build; a
// broken pointer is an error naming it.
TEST_F(FaultsFiles, IndexBuildsPublishGenerationsUnderALock) {
  const std::string corpus = file("c.jsonl", "{\"id\":\"a\",\"text\":\"年假怎么申请\"}\n");
  const std::filesystem::path ix = dir_ / "ix";
  const std::string build = quoted_bin() + " index build --corpus " + sh_quote(corpus) + " --output " +
                            sh_quote(ix.string());
  ASSERT_EQ(run(build).status, 0);
  // Another build holds the lock (this process, as that build would).
  expect_refused_while_locked(ix, build);
  EXPECT_EQ(qaplan::test::slurp(ix / "CURRENT"), "gen-0\n");
  // What a killed build left is removed by the next one.
  std::filesystem::create_directories(ix / ".gen-1.partial-99999");
  std::ofstream(ix / ".gen-1.partial-99999" / "bm25.qidx") << "half";
  ASSERT_EQ(run(build).status, 0);
  EXPECT_FALSE(std::filesystem::exists(ix / ".gen-1.partial-99999"));
  EXPECT_EQ(qaplan::test::slurp(ix / "CURRENT"), "gen-1\n");
  const std::string search = quoted_bin() + " search --query 年假 --index " + sh_quote(ix.string());
  EXPECT_EQ(run(search).status, 0);
  for (const char* pointer : {"gen-7\n", "../../etc\n", ""}) {
    std::ofstream(ix / "CURRENT", std::ios::trunc) << pointer;
    const auto r = run(search);
    EXPECT_EQ(r.status, 2) << pointer;
    EXPECT_TRUE(one_error_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("CURRENT"), std::string::npos) << r.err;
  }
}

// Item 3: `bench --write-vector-pack` renamed its two files into DIR one by one without the
// lock: two runs could leave one's index beside the other's query vectors, a kill the same. The
// pair is now published as one generation under DIR/.lock, as an index build and reports are.
TEST_F(FaultsFiles, AVectorPackIsPublishedAsOneGenerationUnderTheLock) {
  namespace fs = std::filesystem;
  const fs::path out = dir_ / "pack";
  const std::string write =
      quoted_bin() + " bench --backend local-tfidf --dataset " +
      sh_quote((qaplan::test::source_dir() / "eval_sets" / "policy-retrieval-v1.json").string()) +
      " --write-vector-pack " + sh_quote(out.string());
  for (int n = 0; n < 2; ++n) {
    const auto r = run(write);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(fs::read_symlink(out / "current"), "gen-" + std::to_string(n));
    EXPECT_EQ(qaplan::test::published_names(out),
              (std::set<std::string>{"local-tfidf.index.json", "local-tfidf.query-vectors.json"}));
  }
  // The published pair is the shipped pack, byte for byte, read through the links.
  const fs::path shipped = qaplan::test::source_dir() / "eval_sets" / "vectors";
  for (const char* name : {"local-tfidf.index.json", "local-tfidf.query-vectors.json"})
    EXPECT_EQ(qaplan::test::slurp(out / name), qaplan::test::slurp(shipped / name)) << name;
  expect_refused_while_locked(out, write);
  EXPECT_EQ(fs::read_symlink(out / "current"), "gen-1");
}

// Item 1/3: a report set (report.json + report.md) could end as a new json beside an old md.
// Reports are now published like index generations: DIR/gen-N written whole, DIR/current
// switched by one rename, DIR/report.* links through it. A stale real file of the old layout is
// replaced, the previous generation stays for a reader that resolved it, older ones go, a link
// to a file the new set lacks goes, and a second writer exits 2 without touching the set.
TEST_F(FaultsFiles, ReportSetsArePublishedAsOneGeneration) {
  namespace fs = std::filesystem;
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  std::ofstream(out / "report.json") << "{\"stale\": true}";
  std::ofstream(out / "report.md") << "stale";
  fs::create_symlink("current/chart.svg", out / "chart.svg");  // an earlier set's file
  const std::string eval = quoted_bin() + " eval-policy --dataset " +
                           sh_quote((qaplan::test::source_dir() / "eval_sets" / "intent_policy.json").string()) +
                           " --output " + sh_quote(out.string());
  for (int n = 0; n < 3; ++n) {
    const auto r = run(eval);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(qaplan::test::published_names(out), (std::set<std::string>{"report.json", "report.md"}));
    EXPECT_EQ(fs::read_symlink(out / "current"), "gen-" + std::to_string(n));
    EXPECT_NE(qaplan::test::slurp(out / "report.json").find("\"samples\""), std::string::npos);
  }
  EXPECT_TRUE(fs::is_directory(out / "gen-1"));  // the previous generation stays
  EXPECT_FALSE(fs::exists(out / "gen-0"));
  expect_refused_while_locked(out, eval);
  EXPECT_EQ(fs::read_symlink(out / "current"), "gen-2");
}

// Items 4/5/6: one reader for every input. A FIFO as a rules file or as bm25.qidx blocked
// forever in open(); /dev/zero as a rules file grew to ~0.9 GB; `plan --input - < /proc/self/mem`,
// `<&-` and `tokenize --input /proc/self/mem` exited 0 with nothing. Each is now exit 2 naming
// the input, at once (`timeout` would turn a hang into 124).
TEST_F(FaultsFiles, WhatIsNoFileIsRefusedAtOnce) {
  namespace fs = std::filesystem;
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string corpus = file("c.jsonl", "{\"id\":\"a\",\"text\":\"年假怎么申请\"}\n");
  const fs::path ix = dir_ / "ix";
  ASSERT_EQ(run(quoted_bin() + " index build --corpus " + sh_quote(corpus) + " --output " +
                sh_quote(ix.string())).status, 0);
  const fs::path live = ix / qaplan::test::slurp(ix / "CURRENT").substr(0, 5) / "bm25.qidx";
  fs::remove(live);
  ASSERT_EQ(::mkfifo(live.c_str(), 0600), 0);
  const std::string t = "timeout 20 " + quoted_bin();
  for (const auto& [cmd, what] : std::vector<std::pair<std::string, std::string>>{
           {t + " config check " + sh_quote(fifo.string()), "not a regular file"},
           {t + " config check /dev/zero", "not a regular file"},
           {t + " search --query 年假 --index " + sh_quote(ix.string()), "not a regular file"},
           {t + " plan --input - < /proc/self/mem", "cannot read --input"},  // EIO or empty
           {t + " plan --input - <&-", "Bad file descriptor"},
           {t + " tokenize --input /proc/self/mem", "Input/output error"}}) {
    const auto r = run(cmd);
    EXPECT_EQ(r.status, 2) << cmd << ": " << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << cmd << ": " << r.err;
  }
}

// Item 4: the cap on one whole-file read is stated and configurable.
TEST_F(FaultsFiles, TheInputCapIsConfigurable) {
  const std::string rules = (qaplan::test::source_dir() / "config" / "rules.toml").string();
  const auto capped = run("QAPLAN_MAX_INPUT_BYTES=100 " + quoted_bin() + " config check " + sh_quote(rules));
  EXPECT_EQ(capped.status, 2);
  EXPECT_TRUE(one_error_line(capped.err)) << capped.err;
  EXPECT_NE(capped.err.find("larger than 100 bytes (QAPLAN_MAX_INPUT_BYTES)"), std::string::npos)
      << capped.err;
  EXPECT_EQ(run(quoted_bin() + " config check " + sh_quote(rules)).status, 0);
}

// Item 9: `model train` found an output it could not write only after training. The output file
// and the report directory are checked first: no "trained" line is logged before the refusal.
TEST_F(FaultsFiles, ModelTrainChecksItsOutputsBeforeTraining) {
  const std::string data = sh_quote((qaplan::test::source_dir() / "eval_sets" / "router").string());
  const std::string blocker = file("blocker", "a file where a directory should be");
  for (const auto& [args, what] : std::vector<std::pair<std::string, std::string>>{
           {"--output " + sh_quote(dir_.string()), "is a directory"},
           {"--output " + sh_quote((dir_ / "missing" / "m.qpm").string()), "does not exist"},
           {"--output /proc/qaplan-m.qpm", "cannot write"},
           {"--output " + sh_quote((dir_ / "m.qpm").string()) + " --report " + sh_quote(blocker),
            "must be a directory"}}) {
    const auto r = run(quoted_bin() + " --log-level info model train --data " + data + " " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(r.err.find("trained"), std::string::npos) << args << ": " << r.err;
  }
}

// Items 1/3/7: a kill between two renames left the new bm25 beside the old hnsw. Now a SIGKILL at
// every rename of a build or a report publish (strace fault injection, the K-th rename) leaves
// the old generation or the new one live and complete: the index answers with one corpus or
// the other, the report set is whole.
TEST_F(FaultsFiles, AKillAtAnyRenameLeavesOneCompleteGeneration) {
  if (run("strace -o /dev/null true").status != 0)
    GTEST_SKIP() << "SKIPPED: strace missing or ptrace not permitted (scripts/setup.sh installs strace)";
  namespace fs = std::filesystem;
  const std::string c1 = file("c1.jsonl", "{\"id\":\"a\",\"text\":\"年假怎么申请\"}\n");
  const std::string c2 = file("c2.jsonl", "{\"id\":\"b\",\"text\":\"年假 病假\"}\n"
                                          "{\"id\":\"c\",\"text\":\"年假\"}\n");
  const std::string ix = sh_quote((dir_ / "ix").string());
  ASSERT_EQ(run(quoted_bin() + " index build --corpus " + sh_quote(c1) + " --output " + ix).status, 0);
  const std::string out = sh_quote((dir_ / "out").string());
  const std::string eval = quoted_bin() + " eval-policy --dataset " +
                           sh_quote((qaplan::test::source_dir() / "eval_sets" / "intent_policy.json").string()) +
                           " --output " + out;
  ASSERT_EQ(run(eval).status, 0);
  auto kill_at = [](int k) {
    return "strace -f -o /dev/null -e inject=rename,renameat,renameat2:signal=SIGKILL:when=" +
           std::to_string(k) + " ";
  };
  bool index_done = false, report_done = false;
  for (int k = 1; k <= 16 && !(index_done && report_done); ++k) {
    if (!index_done) {
      index_done = run(kill_at(k) + quoted_bin() + " index build --corpus " + sh_quote(c2) + " --output " + ix).status == 0;
      const auto r = run(quoted_bin() + " search --query 年假 --index " + ix);
      ASSERT_EQ(r.status, 0) << "kill at rename " << k << ": " << r.err;
      const bool old_set = r.out.find("\"id\":\"a\"") != std::string::npos;
      const bool new_set = r.out.find("\"id\":\"b\"") != std::string::npos &&
                           r.out.find("\"id\":\"c\"") != std::string::npos;
      EXPECT_TRUE(old_set != new_set) << "kill at rename " << k << ": " << r.out;
    }
    if (!report_done) {
      report_done = run(kill_at(k) + eval).status == 0;
      EXPECT_EQ(qaplan::test::published_names(dir_ / "out", true),
                (std::set<std::string>{"report.json", "report.md"}))
          << "kill at rename " << k;
      EXPECT_NE(qaplan::test::slurp(dir_ / "out" / "report.md").find("#"), std::string::npos);
    }
  }
  EXPECT_TRUE(index_done && report_done) << "every run was killed: more renames than expected";
}

}  // namespace
