// `qaplan calibrate` end to end (docs/evaluation.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/xml_check.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class CalibrateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-calibrate-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  RunResult calibrate(const std::string& args) {
    return run(sh_quote(qaplan::test::qaplan_bin()) + " calibrate " + args);
  }
  fs::path dir_;
};

TEST_F(CalibrateCli, DevCandidatesWithChartsAndProvenance) {
  const RunResult r = calibrate("--split dev --output " + sh_quote((dir_ / "out").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  EXPECT_EQ(j["split"], "dev");
  EXPECT_EQ(j["scored_after_freezing"], "test");
  ASSERT_FALSE(j["faq_direct"]["bands"].empty());
  const std::string md = slurp(dir_ / "out" / "report.md");
  EXPECT_EQ(md.find("null"), std::string::npos);
  std::size_t charts = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "out")) {
    if (e.path().extension() != ".svg") continue;
    ++charts;
    EXPECT_EQ(qaplan::test::xml_error(slurp(e.path())), "") << e.path();
    EXPECT_NE(md.find(e.path().filename().string()), std::string::npos) << e.path();
  }
  // One chart per band, plus model-min-score.svg when the model is on.
  const std::size_t model_chart = fs::exists(dir_ / "out" / "model-min-score.svg") ? 1 : 0;
  EXPECT_EQ(model_chart, j["model_min_score"]["available"].get<bool>() ? 1u : 0u);
  EXPECT_EQ(charts, j["faq_direct"]["bands"].size() + model_chart);
  for (const auto& b : j["faq_direct"]["bands"]) {
    EXPECT_EQ(b["split"], "dev");
    EXPECT_EQ(b["dataset_sha256"].get<std::string>().size(), 64u);
    EXPECT_GT(b["samples"].get<int>(), 0);
    EXPECT_FALSE(b["curve"].empty());
  }
  // Model on: a candidate; model off: none, and the report says why.
  const json& m = j["model_min_score"];
  if (!m["available"].get<bool>()) EXPECT_FALSE(m["skipped"].get<std::string>().empty());
}

TEST_F(CalibrateCli, TestSplitAndBadSplitAreRefused) {
  RunResult r = calibrate("--split test --output " + sh_quote((dir_ / "out").string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("dev only"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  r = calibrate("--split train --output " + sh_quote((dir_ / "out").string()));
  EXPECT_EQ(r.status, 2);
  r = calibrate("--output " + sh_quote((dir_ / "out").string()));
  EXPECT_EQ(r.status, 2);  // --split is required
}

// The shipped rules with [model] enabled and pinned to the shipped model file, written into
// `dir` with the files it names (whatever the shipped file says about the model).
fs::path model_enabled_config(const fs::path& dir) {
  std::string text = slurp(qaplan::test::shipped_config());
  std::string sha = slurp(qaplan::test::source_dir() / "config" / "models" / "router-v1.qpm.sha256");
  sha = sha.substr(0, sha.find_first_of(" \t\n"));
  const std::size_t begin = text.find("\n[model]\n");
  EXPECT_NE(begin, std::string::npos);
  const std::size_t end = text.find("\n[", begin + 1);
  std::string section = text.substr(begin, end - begin);
  auto set_line = [&](const std::string& key, const std::string& value) {
    const std::size_t at = section.find("\n" + key + " = ");
    ASSERT_NE(at, std::string::npos) << key;
    const std::size_t eol = section.find('\n', at + 1);
    section.replace(at + 1, eol - at - 1, key + " = " + value);
  };
  set_line("enabled", "true");
  set_line("sha256", "\"" + sha + "\"");
  text.replace(begin, end - begin, section);
  qaplan::test::copy_config_companions(dir);
  const fs::path out = dir / "rules-model.toml";
  std::ofstream(out) << text;
  return out;
}

// With the model enabled, model_min_score gets a candidate from the router data's dev rows.
TEST_F(CalibrateCli, ModelMinScoreWithTheModelEnabled) {
  const fs::path model_config = model_enabled_config(dir_);
  const RunResult r = calibrate("--split dev --config " + sh_quote(model_config.string()) +
                                " --output " + sh_quote((dir_ / "out").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  const json& m = j["model_min_score"];
  ASSERT_TRUE(m["available"].get<bool>()) << m.dump();
  EXPECT_GT(m["samples"].get<int>(), 50);
  EXPECT_EQ(m["split"], "dev");
  EXPECT_TRUE(m["test"].contains("at_candidate"));
  EXPECT_EQ(qaplan::test::xml_error(slurp(dir_ / "out" / "model-min-score.svg")), "");
  const std::string md = slurp(dir_ / "out" / "report.md");
  EXPECT_NE(md.find("model-min-score.svg"), std::string::npos);
  EXPECT_EQ(md.find("null"), std::string::npos);
}

}  // namespace
