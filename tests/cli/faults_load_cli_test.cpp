// The fault catalogue of docs/reliability.md, continued: how a saved index is loaded, a corpus cut
// under the build, and a glossary that cannot be read. Tests that need strace say so when skipped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::run;
using qaplan::test::one_error_line;
using qaplan::test::quoted_bin;
using qaplan::test::sh_quote;
using qaplan::test::slurp;


bool strace_works() { return run("strace -o /dev/null true").status == 0; }

class FaultsLoad : public ::testing::Test {
 protected:
  fs::path path(const std::string& name) const { return dir_.path() / name; }
  std::string file(const std::string& name, const std::string& content) {
    std::ofstream(path(name), std::ios::binary) << content;
    return path(name).string();
  }
  // A copy of the shipped config/ whose rules.toml has `from` replaced by `to`.
  fs::path config_with(const std::string& from, const std::string& to) {
    const fs::path cfg = path("config");
    fs::remove_all(cfg);
    fs::copy(qaplan::test::source_dir() / "config", cfg, fs::copy_options::recursive);
    std::string rules = slurp(cfg / "rules.toml");
    const auto at = rules.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) rules.replace(at, from.size(), to);
    std::ofstream(cfg / "rules.toml", std::ios::binary | std::ios::trunc) << rules;
    return cfg / "rules.toml";
  }
  qaplan::test::ScratchDir dir_{"faults-load"};
};

// A glossary file that could not be read passed `config check` ("ok") and glossary expansion
// was silently off. A directory in its place (running as root, a mode of 000 reads fine).
TEST_F(FaultsLoad, AnUnreadableGlossaryFailsTheCheckNamingIt) {
  const fs::path rules = config_with("load = \"mmap\"", "load = \"mmap\"");
  const fs::path hr = rules.parent_path() / "glossary" / "hr.toml";
  fs::remove(hr);
  fs::create_directory(hr);
  for (const std::string cmd : {"config check ", "plan 年假怎么申请 --config "}) {
    const auto r = run(quoted_bin() + " " + cmd + sh_quote(rules.string()));
    EXPECT_EQ(r.status, 2) << cmd << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("hr.toml"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  }
}

// `load = "memory"` (config) and `--load memory` read bm25.qidx into the process instead of
// mapping it; `ask` mapped it whatever the config said. Seen from outside with strace -y: an
// mmap of the file's descriptor, or none.
TEST_F(FaultsLoad, LoadMemoryFromTheFlagOrTheConfigReadsTheIndexInsteadOfMappingIt) {
  if (!strace_works())
    GTEST_SKIP()
        << "SKIPPED: strace missing or ptrace not permitted (scripts/setup.sh installs strace)";
  const std::string corpus = file("c.jsonl", "{\"id\":\"a\",\"text\":\"年假怎么申请\"}\n");
  const std::string ix = sh_quote(path("ix").string());
  ASSERT_EQ(run(quoted_bin() + " index build --corpus " + sh_quote(corpus) + " --output " + ix).status, 0);
  const std::string memory = sh_quote(config_with("load = \"mmap\"", "load = \"memory\"").string());
  const std::string search = " search --query 年假 --index " + ix;
  const std::string ask = " ask 年假怎么申请 --index " + ix;
  for (const auto& [args, maps] : std::vector<std::pair<std::string, bool>>{
           {search, true},
           {search + " --load memory", false},
           {search + " --config " + memory, false},
           {search + " --config " + memory + " --load mmap", true},
           {ask, true},
           {ask + " --config " + memory, false}}) {
    const fs::path trace = path("trace");
    const auto r =
        run("strace -f -y -e trace=mmap -o " + sh_quote(trace.string()) + " " + quoted_bin() + args);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    const bool mmapped = slurp(trace).find("bm25.qidx>") != std::string::npos;
    EXPECT_EQ(mmapped, maps) << args;
  }
}

// A corpus truncated while `index build` or `search --corpus` read it: SIGBUS, exit 135, no
// message. strace delays the second read of the corpus; the test cuts the file as soon as the
// first read returned: the build must fail with exit 2 naming the corpus.
TEST_F(FaultsLoad, ACorpusCutWhileItIsReadIsAnErrorNamingIt) {
  if (!strace_works())
    GTEST_SKIP()
        << "SKIPPED: strace missing or ptrace not permitted (scripts/setup.sh installs strace)";
  std::string text;
  for (int i = 0; text.size() < (std::size_t{9} << 20); ++i)
    text += "{\"id\":\"d" + std::to_string(i) + "\",\"text\":\"年假怎么申请 病假 报销流程 " +
            std::to_string(i) + "\"}\n";
  for (const std::string args : {" index build --output " + sh_quote(path("ix").string()),
                                 std::string(" search --query 年假")}) {
    const std::string corpus = file("c.jsonl", text);
    const std::string log = path("trace").string();
    fs::remove(log);
    const std::string script =
        "strace -o " + sh_quote(log) + " -P " + sh_quote(corpus) +
        " -e trace=read -e inject=read:delay_enter=2000000:when=2 " + quoted_bin() + args + " --corpus " +
        sh_quote(corpus) + " > /dev/null & pid=$!; i=0; until grep -q 'read(' " + sh_quote(log) +
        " 2>/dev/null || [ $i -gt 600 ]; do sleep 0.05; i=$((i+1)); done; truncate -s 1000 " +
        sh_quote(corpus) + "; wait $pid";
    const auto r = run("sh -c " + sh_quote(script));
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_TRUE(one_error_line(r.err)) << args << ": " << r.err;
    EXPECT_NE(r.err.find(corpus), std::string::npos) << args << ": " << r.err;
  }
}

}  // namespace
