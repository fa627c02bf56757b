// `qaplan eval-chain` end to end on the shipped knowledge base and chain set (docs/evaluation.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "json_support.hpp"
#include "support/xml_check.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class EvalChainCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-eval-chain-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  RunResult eval(const std::string& args) {
    return run(sh_quote(qaplan::test::qaplan_bin()) + " eval-chain " + args);
  }
  fs::path dir_;
};

TEST_F(EvalChainCli, ShippedSetWritesReportsAndValidCharts) {
  // From another working directory: the shipped data is found beside the binary's tree.
  const RunResult r = run("cd " + sh_quote(dir_.string()) + " && " +
                          sh_quote(qaplan::test::qaplan_bin()) + " eval-chain --output out");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(qaplan::test::published_names(dir_ / "out"),
            (std::set<std::string>{"report.json", "report.md", "recall-by-category.svg",
                                   "latency.svg"}));
  for (const char* svg : {"recall-by-category.svg", "latency.svg"})
    EXPECT_EQ(qaplan::test::xml_error(slurp(dir_ / "out" / svg)), "") << svg;
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  EXPECT_EQ(j["dataset"]["version"], "chain-1");
  EXPECT_EQ(j["knowledge_base"]["version"], "kb-1");
  EXPECT_EQ(j["vectors"]["model"], "local-tfidf");
  EXPECT_EQ(j["questions"].size(), 457u);
  EXPECT_FALSE(j["regression"]["failed"].get<bool>());
  for (const char* m : {"hit_type_accuracy", "evidence_recall_at_5", "faq_mrr_at_10",
                        "doc_mrr_at_10", "keyword_coverage", "false_direct_rate",
                        "no_evidence_rate"})
    EXPECT_TRUE(j["metrics"]["test"].contains(m)) << m;
  // Follow-ups are searched as the analysis stage's rewrite; nothing without history is rewritten.
  std::size_t rewritten = 0;
  for (const auto& q : j["questions"]) {
    if (q["rewrite"].is_null()) continue;
    ++rewritten;
    EXPECT_FALSE(q["history"].empty()) << q["id"];
    EXPECT_EQ(q["query"], q["rewrite"]) << q["id"];
  }
  EXPECT_GT(rewritten, 10u);
  // The chain's metrics split by turn: every question with history is a follow-up, and the
  // split adds up to the whole.
  std::size_t with_history = 0;
  for (const auto& q : j["questions"]) with_history += !q["history"].empty();
  const auto& turns = j["by_turn"]["all"];
  EXPECT_EQ(turns["follow-up"]["questions"].get<std::size_t>(), with_history);
  EXPECT_EQ(turns["follow-up"]["questions"].get<std::size_t>() +
                turns["single turn"]["questions"].get<std::size_t>(),
            457u);
  EXPECT_TRUE(j["by_turn"]["test"]["follow-up"].contains("evidence_recall_at_5"));
  for (const char* stage : {"prepare", "analyze", "faq", "doc", "context", "execute", "chain"})
    EXPECT_TRUE(j["timing"]["stages"].contains(stage)) << stage;
  const std::string md = slurp(dir_ / "out" / "report.md");
  EXPECT_EQ(md.find("null"), std::string::npos);
  EXPECT_NE(md.find("![evidence recall@k by category](recall-by-category.svg)"), std::string::npos);
  EXPECT_NE(md.find("![latency distribution](latency.svg)"), std::string::npos);
  EXPECT_NE(md.find("## Follow-ups and single turns (test)"), std::string::npos);
}

TEST_F(EvalChainCli, TwoRunsAreIdenticalApartFromTiming) {
  ASSERT_EQ(eval("--output " + sh_quote((dir_ / "a").string())).status, 0);
  ASSERT_EQ(eval("--output " + sh_quote((dir_ / "b").string())).status, 0);
  json a = json::parse(slurp(dir_ / "a" / "report.json"));
  json b = json::parse(slurp(dir_ / "b" / "report.json"));
  qaplan::test::strip_timing(a);
  qaplan::test::strip_timing(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(slurp(dir_ / "a" / "recall-by-category.svg"), slurp(dir_ / "b" / "recall-by-category.svg"));
}

TEST_F(EvalChainCli, RegressionBeyondToleranceExitsThree) {
  const fs::path shipped = qaplan::test::source_dir() / "eval_sets" / "chain" / "eval-config.json";
  json ec = json::parse(slurp(shipped));
  for (auto& [key, metrics] : ec["regression"]["baselines"].items())  // model on or off
    metrics["hit_type_accuracy"] = {{"baseline", 0.99}, {"tolerance", 0.01}};
  std::ofstream(dir_ / "ec.json") << ec.dump();
  const std::string args = "--eval-config " + sh_quote((dir_ / "ec.json").string()) + " --output " +
                           sh_quote((dir_ / "out").string());
  RunResult r = eval(args);
  EXPECT_EQ(r.status, 0) << r.err;  // reported, not enforced
  r = eval(args + " --fail-on-regression");
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("regressed: hit_type_accuracy"), std::string::npos) << r.err;
  // The shipped baseline passes the gate (what CI runs).
  EXPECT_EQ(eval("--fail-on-regression --output " + sh_quote((dir_ / "ok").string())).status, 0);
}

TEST_F(EvalChainCli, BadInputsExitTwoWithOneLine) {
  std::ofstream(dir_ / "chain-v1.jsonl") << "{\"id\": 1}\n";
  std::ofstream(dir_ / "fingerprints.json")
      << slurp(qaplan::test::source_dir() / "eval_sets" / "chain" / "fingerprints.json");
  RunResult r = eval("--dataset " + sh_quote((dir_ / "chain-v1.jsonl").string()) + " --output " +
                     sh_quote((dir_ / "out").string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  r = eval("--output " + sh_quote((dir_ / "out").string()) + " --config /nonexistent/rules.toml");
  EXPECT_EQ(r.status, 2) << r.err;
  // An output that is an input file is refused and left untouched.
  std::ofstream(dir_ / "ec.json")
      << slurp(qaplan::test::source_dir() / "eval_sets" / "chain" / "eval-config.json");
  const std::string before = slurp(dir_ / "ec.json");
  r = eval("--eval-config " + sh_quote((dir_ / "ec.json").string()) + " --output " +
           sh_quote((dir_ / "ec.json").string()));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(slurp(dir_ / "ec.json"), before);
  EXPECT_EQ(eval("").status, 2);  // --output is required
}

}  // namespace
