// FAQ direct-threshold calibration per band and the `calibrate` run (docs/evaluation.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "qaplan/eval/calibrate_band.hpp"
#include "support/xml_check.hpp"
#include "test_support.hpp"

namespace {

using qaplan::DirectSample;

TEST(DirectThreshold, CountsCorrectFalseAndMissed) {
  const std::vector<DirectSample> s = {{1.0, true}, {0.9, true}, {0.7, false}, {0.6, true},
                                       {0.4, false}};
  auto p = qaplan::evaluate_direct_threshold(s, 0.65, 0.2);
  EXPECT_EQ(p.correct, 2u);
  EXPECT_EQ(p.false_direct, 1u);
  EXPECT_EQ(p.missed, 1u);
  EXPECT_DOUBLE_EQ(*p.false_direct_rate(), 1.0 / 3);
  EXPECT_FALSE(p.feasible);  // 1/3 > 0.2
  // At exactly a sample's score it is answered (>=).
  p = qaplan::evaluate_direct_threshold(s, 0.6, 1.0);
  EXPECT_EQ(p.correct, 3u);
  p = qaplan::evaluate_direct_threshold(s, 1.01, 0.0);
  EXPECT_EQ(p.correct + p.false_direct, 0u);
  EXPECT_FALSE(p.false_direct_rate().has_value());
  EXPECT_TRUE(p.feasible);  // answering nothing never breaks the ceiling
}

TEST(DirectThreshold, MaximisesCorrectUnderTheCeiling) {
  // good: 0.95 0.85 0.75 0.62; bad: 0.70 0.50
  const std::vector<DirectSample> s = {{0.95, true}, {0.85, true}, {0.75, true},
                                       {0.62, true}, {0.70, false}, {0.50, false}};
  // Ceiling 0: no false answer allowed → answer 0.75 and above: 3 correct; the flat region
  // (0.71 … 0.75) is tied, and the value nearest the current 0.72 wins.
  auto c = qaplan::calibrate_direct_threshold(s, 0.72, 0.0, 0.01, 0.3);
  ASSERT_TRUE(c.ok());
  EXPECT_DOUBLE_EQ(c->threshold, 0.72);
  EXPECT_EQ(c->curve[c->chosen_index].correct, 3u);
  EXPECT_EQ(c->samples, 6u);
  EXPECT_EQ(c->positives, 4u);
  // From a current value outside the tied region, the nearest end of it.
  c = qaplan::calibrate_direct_threshold(s, 0.86, 0.0, 0.01, 0.3);
  EXPECT_DOUBLE_EQ(c->threshold, 0.75);
  // Ceiling 0.2: one false answer in five is allowed: (0.50, 0.62] answers 4 good + 1 bad
  // (20 %); (0.62, 0.70] would be 3 + 1 (25 %), infeasible. Nearest 0.86 in the region: 0.62.
  c = qaplan::calibrate_direct_threshold(s, 0.86, 0.2, 0.01, 0.3);
  EXPECT_DOUBLE_EQ(c->threshold, 0.62);
  EXPECT_EQ(c->curve[c->chosen_index].correct, 4u);
  EXPECT_EQ(c->curve[c->chosen_index].false_direct, 1u);
  // The current value is always on the curve.
  EXPECT_DOUBLE_EQ(c->curve[c->current_index].threshold, 0.86);
  // Grid values are rounded, not accumulated: 0.3 + 7 × 0.01 is exactly 0.37.
  bool found = false;
  for (const auto& p : c->curve) found |= p.threshold == 0.37;
  EXPECT_TRUE(found);
}

TEST(DirectThreshold, UninformativeBandKeepsItsValueAndBadInputIsRefused) {
  // Everything is bad and even exact matches are wrong: nothing is feasible but answering
  // nothing; the whole grid answers the exact match → keep the current value.
  const std::vector<DirectSample> bad = {{1.0, false}};
  auto c = qaplan::calibrate_direct_threshold(bad, 0.8, 0.0, 0.05, 0.5);
  ASSERT_TRUE(c.ok());
  EXPECT_DOUBLE_EQ(c->threshold, 0.8);
  // No samples at all: every threshold ties at 0 → the current value.
  const std::vector<DirectSample> none;
  c = qaplan::calibrate_direct_threshold(none, 0.64, 0.1, 0.01, 0.3);
  ASSERT_TRUE(c.ok());
  EXPECT_DOUBLE_EQ(c->threshold, 0.64);
  const std::vector<DirectSample> above_one = {{1.5, true}};
  const std::vector<DirectSample> nan = {{NAN, true}};
  EXPECT_FALSE(qaplan::calibrate_direct_threshold(above_one, 0.6, 0.1, 0.01, 0.3).ok());
  EXPECT_FALSE(qaplan::calibrate_direct_threshold(nan, 0.6, 0.1, 0.01, 0.3).ok());
  EXPECT_FALSE(qaplan::calibrate_direct_threshold(none, 0.6, 0.1, 0.0, 0.3).ok());
  EXPECT_FALSE(qaplan::calibrate_direct_threshold(none, 1.6, 0.1, 0.01, 0.3).ok());
}

struct Shipped {
  qaplan::KbIndex kb;
  qaplan::ChainSet set;
  qaplan::RulesFile rules;
  qaplan::ChainEvalConfig ec;
};

const Shipped& shipped() {
  static const Shipped s = [] {
    const auto root = qaplan::test::source_dir() / "eval_sets";
    auto kb = qaplan::read_knowledge_base(root / "kb");
    return Shipped{*qaplan::KbIndex::create(std::move(kb).value()),
                   *qaplan::read_chain_set(root / "chain" / "chain-v1.jsonl"),
                   *qaplan::read_rules_file(qaplan::test::shipped_config()),
                   *qaplan::read_chain_eval_config(root / "chain" / "eval-config.json")};
  }();
  return s;
}

TEST(Calibration, DevOnlyFrozenThenTestAndEveryCandidateCarriesItsProvenance) {
  const Shipped& s = shipped();
  auto test_split = qaplan::run_calibration(s.rules.config, s.rules.sha256, s.kb, s.set,
                                            qaplan::Split::kTest, s.ec, std::nullopt);
  ASSERT_FALSE(test_split.ok());
  EXPECT_EQ(test_split.error().code, qaplan::ErrorCode::kInvalidInput);

  auto r = qaplan::run_calibration(s.rules.config, s.rules.sha256, s.kb, s.set,
                                   qaplan::Split::kDev, s.ec, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  std::size_t dev = 0, test = 0;
  for (const auto& q : s.set.questions) (q.split == qaplan::Split::kDev ? dev : test) += 1;
  ASSERT_GT(dev, 0u);
  ASSERT_GT(test, 0u);
  EXPECT_EQ(r->split_questions, dev);
  EXPECT_EQ(r->test_questions, test);
  ASSERT_FALSE(r->bands.empty());
  for (const auto& b : r->bands) {
    SCOPED_TRACE(b.band.id);
    EXPECT_FALSE(b.config_key.empty());
    EXPECT_NE(b.band.id, "exact_only");
    EXPECT_GT(b.dev.samples, 0u);
    // The candidate is feasible on dev (or the current value when nothing is).
    EXPECT_TRUE(b.dev.curve[b.dev.chosen_index].feasible || b.dev.threshold == b.dev.current);
    EXPECT_EQ(b.test_current.threshold, b.dev.current);
    EXPECT_EQ(b.test_candidate.threshold, b.dev.threshold);
    EXPECT_EQ(b.test_current.correct + b.test_current.missed, b.test_positives);
  }
  // The shipped values are the current values of their keys.
  std::map<std::string, double> current;
  for (const auto& b : r->bands) current[b.band.id] = b.dev.current;
  if (current.count("category_pricing")) EXPECT_DOUBLE_EQ(current["category_pricing"], 0.84);
  if (current.count("intent_faq")) EXPECT_DOUBLE_EQ(current["intent_faq"], 0.64);
  if (current.count("defaults")) EXPECT_DOUBLE_EQ(current["defaults"], 0.72);
  // Without router data there is no model_min_score candidate, whatever [model] says, and the
  // report says why.
  EXPECT_FALSE(r->model_min_score.available);
  EXPECT_FALSE(r->model_min_score.skipped.empty());

  const auto j = nlohmann::json::parse(qaplan::calibration_report_json(*r));
  EXPECT_EQ(j["split"], "dev");
  for (const auto& b : j["faq_direct"]["bands"]) {
    EXPECT_EQ(b["dataset_sha256"], s.set.sha256);
    EXPECT_EQ(b["split"], "dev");
    EXPECT_TRUE(b.contains("samples"));
    EXPECT_FALSE(b["curve"].empty());
    EXPECT_TRUE(b["test"].contains("at_candidate"));
  }
  // Deterministic: no timing at all.
  auto again = qaplan::run_calibration(s.rules.config, s.rules.sha256, s.kb, s.set,
                                       qaplan::Split::kDev, s.ec, std::nullopt);
  EXPECT_EQ(qaplan::calibration_report_json(*r), qaplan::calibration_report_json(*again));
  const std::string md = qaplan::calibration_report_markdown(*r);
  EXPECT_EQ(md.find("null"), std::string::npos);
  const auto charts = qaplan::calibration_report_charts(*r);
  EXPECT_EQ(charts.size(), r->bands.size());
  for (const auto& [name, svg] : charts) {
    EXPECT_NE(md.find(name), std::string::npos) << name;
    EXPECT_EQ(qaplan::test::xml_error(svg), "") << name;
  }
}

}  // namespace
