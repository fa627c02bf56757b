// The tuning workflow end to end: eval-policy → eval-chain → calibrate → recommend
// (docs/evaluation.md). Recommend prints the diff and never edits the config.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/sha256.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class RecommendCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-recommend-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // A private copy of the shipped config folder (rules.toml finds its glossaries beside it), so
    // the test can prove the config is never edited.
    fs::copy(qaplan::test::source_dir() / "config", dir_ / "config", fs::copy_options::recursive);
    config_ = dir_ / "config" / "rules.toml";
  }
  void TearDown() override { fs::remove_all(dir_); }
  RunResult q(const std::string& args) {
    return run(sh_quote(qaplan::test::qaplan_bin()) + " " + args);
  }
  std::string p(const char* name) { return sh_quote((dir_ / name).string()); }
  fs::path dir_, config_;
};

TEST_F(RecommendCli, WorkflowGivesOneDecisionPerParameterAndLeavesTheConfigAlone) {
  const std::string cfg = " --config " + sh_quote(config_.string());
  ASSERT_EQ(q("eval-policy --output " + p("policy") + cfg).status, 0);
  ASSERT_EQ(q("eval-chain --output " + p("eval") + cfg).status, 0);
  ASSERT_EQ(q("calibrate --split dev --output " + p("cal") + cfg).status, 0);
  const std::string before = qaplan::internal::sha256_hex(slurp(config_));
  const RunResult r = q("recommend --calibration " + p("cal/report.json") + " --evaluation " +
                        p("eval/report.json") + " --policy " + p("policy/report.json") +
                        " --output " + p("rec") + cfg);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(qaplan::internal::sha256_hex(slurp(config_)), before);
  // stdout is exactly the diff, also written beside the reports.
  EXPECT_EQ(r.out, slurp(dir_ / "rec" / "config.diff"));
  const json j = json::parse(slurp(dir_ / "rec" / "report.json"));
  EXPECT_FALSE(j["edits_config"].get<bool>());
  const json cal = json::parse(slurp(dir_ / "cal" / "report.json"));
  std::size_t thresholds = 0;
  for (const auto& x : j["recommendations"]) {
    const std::string action = x["action"];
    EXPECT_TRUE(action == "apply_candidate_after_review" || action == "keep_current") << action;
    EXPECT_FALSE(x["reason"].get<std::string>().empty());
    if (action == "apply_candidate_after_review")
      EXPECT_NE(r.out.find(x["diff"].get<std::string>()), std::string::npos);
    else
      EXPECT_TRUE(x["diff"].get<std::string>().empty());
    thresholds += x["parameter"].get<std::string>().find("faq_direct_threshold") != std::string::npos;
  }
  EXPECT_EQ(thresholds, cal["faq_direct"]["bands"].size());
  const std::string md = slurp(dir_ / "rec" / "report.md");
  EXPECT_EQ(md.find("null"), std::string::npos);
  // A config that differs from the one calibrated is refused.
  std::ofstream(config_, std::ios::app) << "\n# edited after calibration\n";
  const RunResult bad = q("recommend --calibration " + p("cal/report.json") + " --evaluation " +
                          p("eval/report.json") + " --policy " + p("policy/report.json") +
                          " --output " + p("rec2") + cfg);
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "rec2"));
}

TEST_F(RecommendCli, MissingOrWrongReportsExitTwo) {
  RunResult r = q("recommend --calibration /nonexistent.json --evaluation x --policy y --output " +
                  p("rec"));
  EXPECT_EQ(r.status, 2);
  std::ofstream(dir_ / "x.json") << "{\"report\": \"something\"}";
  r = q("recommend --calibration " + p("x.json") + " --evaluation " + p("x.json") + " --policy " +
        p("x.json") + " --output " + p("rec") + " --config " + sh_quote(config_.string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not a calibration report"), std::string::npos) << r.err;
}

}  // namespace
