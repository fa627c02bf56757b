// qaplan kb build and the evaluation commands on a host's own knowledge base:
// docs/evaluation.md's walk-through over examples/kb runs as written, and bad input is refused
// before anything is published.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::ScratchDir;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

TEST(KbCli, TheDocsWalkThroughRunsOnTheExampleKb) {
  const std::vector<std::string> lines = qaplan::test::bash_block(
      qaplan::test::source_dir() / "docs" / "evaluation.md", "## Your own knowledge base");
  ASSERT_EQ(lines.size(), 5u) << "docs/evaluation.md lost its walk-through block";
  ScratchDir t("kb-cli");
  for (const std::string& line : lines) {
    ASSERT_EQ(line.rfind("build/qaplan ", 0), 0u) << line;
    const RunResult r = run(qaplan::test::doc_command(line, "qh-", t.path()));
    ASSERT_EQ(r.status, 0) << line << "\n" << r.err;
    if (line.find(" kb build ") != std::string::npos) {
      const json summary = json::parse(r.out);
      EXPECT_EQ(summary["faqs"], 12);
      EXPECT_EQ(summary["chunks"], 18);
      EXPECT_EQ(summary["question_count"], 30);
    }
  }
  const json eval = json::parse(slurp(t.path() / "qh-eval" / "report.json"));
  // The user's own set: every question evaluated, nothing compared with the shipped baseline.
  EXPECT_EQ(eval["regression"]["gated"], false);
  EXPECT_NE(eval["regression"]["note"].get<std::string>().find("questions-1 / kb-1"),
            std::string::npos);
  EXPECT_EQ(eval["questions"].size(), 30u);
  EXPECT_TRUE(fs::is_regular_file(t.path() / "qh-cal" / "report.json"));
  EXPECT_TRUE(fs::is_regular_file(t.path() / "qh-rec" / "config.diff"));
}

TEST(KbCli, BadInputIsRefusedBeforeAnythingIsPublished) {
  ScratchDir t("kb-cli");
  const fs::path ex = qaplan::test::source_dir() / "examples" / "kb";
  const std::string base = sh_quote(qaplan::test::qaplan_bin()) + " kb build --faq " +
                           sh_quote((ex / "faq.jsonl").string()) + " --docs " +
                           sh_quote((ex / "docs.jsonl").string());
  const fs::path out = t.path() / "kb";
  // A question whose expected chunk is not in this KB.
  std::string q = slurp(ex / "questions.jsonl");
  const std::size_t at = q.find("\"expected_chunk_ids\": [\"");
  ASSERT_NE(at, std::string::npos);
  q.insert(at + 24, "no-such-chunk\", \"");
  const fs::path bad_q = t.path() / "questions.jsonl";
  std::ofstream(bad_q) << q;
  RunResult r = run(base + " --questions " + sh_quote(bad_q.string()) + " --output " +
                    sh_quote(out.string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no-such-chunk"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("questions.jsonl"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // A record whose source is no [[sources]] name of the rules file.
  std::string faq = slurp(ex / "faq.jsonl");
  const std::size_t src = faq.find("\"source\": \"legal\"");
  ASSERT_NE(src, std::string::npos);
  faq.replace(src, 17, "\"source\": \"cards\"");
  const fs::path bad_faq = t.path() / "faq.jsonl";
  std::ofstream(bad_faq) << faq;
  r = run(sh_quote(qaplan::test::qaplan_bin()) + " kb build --faq " + sh_quote(bad_faq.string()) +
          " --docs " + sh_quote((ex / "docs.jsonl").string()) + " --output " +
          sh_quote(out.string()));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("faq.jsonl: source: record"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("source \"cards\" is not a [[sources]] name"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // The output never replaces an input.
  r = run(base + " --output " + sh_quote(ex.string()));
  EXPECT_EQ(r.status, 2) << r.err;
  // --fail-on-regression on a set without its own baseline: exit 2, no report written.
  ASSERT_EQ(run(base + " --questions " + sh_quote((ex / "questions.jsonl").string()) +
                " --output " + sh_quote(out.string()))
                .status,
            0);
  r = run("cd " + sh_quote(qaplan::test::source_dir().string()) + " && " +
          sh_quote(qaplan::test::qaplan_bin()) + " eval-chain --kb " + sh_quote(out.string()) +
          " --output " + sh_quote((t.path() / "eval").string()) + " --fail-on-regression");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--fail-on-regression: the baseline"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t.path() / "eval"));
}

}  // namespace
