// apply_candidate_after_review / keep_current decisions and the config diff (docs/evaluation.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/sha256.hpp"
#include "qaplan/eval/recommend.hpp"
#include "qaplan/planning/config.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;

struct Inputs {
  json cal, ev, pol;
  std::string config;
  qaplan::ChainEvalConfig settings;
};

json point(int correct, int false_direct, int missed, bool feasible = true) {
  return {{"correct_direct", correct}, {"false_direct", false_direct}, {"missed_direct", missed},
          {"feasible", feasible}};
}

json band(const std::string& parameter, double current, double candidate, int samples,
          int positives, json at_current, json at_candidate, int test_samples = 40) {
  return {{"parameter", parameter},
          {"current", current},
          {"candidate", candidate},
          {"samples", samples},
          {"positives", positives},
          {"test", {{"samples", test_samples}, {"at_current", at_current}, {"at_candidate", at_candidate}}}};
}

Inputs base() {
  Inputs in;
  in.config = qaplan::test::slurp(qaplan::test::shipped_config());
  const std::string sha = qaplan::internal::sha256_hex(in.config);
  in.cal = {{"report", "qaplan threshold calibration"},
            {"dataset", {{"version", "chain-1"}, {"sha256", "d0"}}},
            {"config", {{"sha256", sha}}},
            {"faq_direct", {{"false_direct_ceiling", 0.1}, {"bands", json::array()}}},
            {"model_min_score",
             {{"available", false}, {"current", 0.75}, {"skipped", "[model] enabled = false"}}}};
  in.ev = {{"report", "qaplan core-chain evaluation"},
           {"dataset", {{"sha256", "d0"}}},
           {"config", {{"sha256", sha}}},
           {"regression", {{"failed", false}, {"checks", json::array()}}},
           {"metrics",
            {{"test",
              {{"questions", 200},
               {"counts", {{"expected_chunks_in_context", 50}, {"expected_chunks", 100},
                           {"hit_type_correct", 120}}}}}}},
           {"what_if", json::array()},
           {"timing", {{"stages", {{"chain", {{"p95_us", 80.0}}}}}}}};
  in.pol = {{"report", "intent-policy"},
            {"summary", {{"critical", {{"samples", 10}, {"failed", 0}}}}},
            {"accuracy", {{"route", {{"checked", 10}, {"passed", 10}, {"accuracy", 1.0}}}}}};
  in.settings.min_band_samples = 10;
  in.settings.min_band_positives = 3;
  in.settings.min_gain = 2;
  in.settings.noise_rate = 0.02;
  return in;
}

qaplan::Result<qaplan::RecommendReport> run(const Inputs& in) {
  return qaplan::recommend({"cal.json", in.cal.dump()}, {"ev.json", in.ev.dump()},
                           {"pol.json", in.pol.dump()}, {"config/rules.toml", in.config},
                           in.settings);
}

const qaplan::Recommendation& item(const qaplan::RecommendReport& r, const std::string& p) {
  for (const auto& x : r.items)
    if (x.parameter == p) return x;
  throw std::runtime_error("no item " + p);
}

const char* kPricing = "[[retrieval_strategy.patches]] category_pricing at_least.faq_direct_threshold";
const char* kDefaults = "[retrieval_strategy.defaults] faq_direct_threshold";

// Applies a unified diff of one-line hunks to `text` (test helper).
std::string apply_diff(std::string text, const std::string& diff) {
  std::string minus;
  for (std::size_t p = 0; p < diff.size();) {
    const std::size_t nl = diff.find('\n', p);
    const std::string line = diff.substr(p, nl - p);
    p = nl + 1;
    if (line.rfind("---", 0) == 0 || line.rfind("+++", 0) == 0) continue;
    if (line[0] == '-') minus = line.substr(1);
    if (line[0] == '+') {
      const auto at = text.find(minus + "\n");
      if (at == std::string::npos) throw std::runtime_error("hunk does not apply: " + minus);
      text.replace(at, minus.size(), line.substr(1));
    }
  }
  return text;
}

TEST(Recommend, EachReasonCode) {
  Inputs in = base();
  auto& bands = in.cal["faq_direct"]["bands"];
  // improved: test 20 → 30 correct, false 2 → 1
  bands.push_back(band(kPricing, 0.84, 0.6, 30, 12, point(20, 2, 15), point(30, 1, 5)));
  // within noise: gain 1
  bands.push_back(band(kDefaults, 0.72, 0.7, 30, 12, point(20, 2, 15), point(21, 2, 14)));
  // too few samples
  bands.push_back(band("[[retrieval_strategy.patches]] intent_faq set.faq_direct_threshold", 0.64,
                       0.5, 5, 2, point(1, 0, 1), point(2, 0, 0)));
  // no change
  bands.push_back(band("[[retrieval_strategy.patches]] short_query at_least.faq_direct_threshold",
                       0.78, 0.78, 40, 20, point(10, 0, 5), point(10, 0, 5)));
  // breaks the ceiling on test
  bands.push_back(band("[[retrieval_strategy.patches]] category_compliance at_least.faq_direct_threshold",
                       0.86, 0.5, 40, 20, point(10, 0, 5), point(15, 5, 0, false)));
  auto r = run(in);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(item(*r, kPricing).action, "apply_candidate_after_review");
  EXPECT_EQ(item(*r, kPricing).reason_code, "improved");
  EXPECT_EQ(item(*r, kDefaults).reason_code, "within_noise");
  EXPECT_EQ(item(*r, "[[retrieval_strategy.patches]] intent_faq set.faq_direct_threshold").reason_code,
            "too_few_samples");
  EXPECT_EQ(item(*r, "[[retrieval_strategy.patches]] short_query at_least.faq_direct_threshold").reason_code,
            "no_improvement");
  EXPECT_EQ(item(*r, "[[retrieval_strategy.patches]] category_compliance at_least.faq_direct_threshold")
                .reason_code,
            "no_improvement");
  EXPECT_EQ(item(*r, "[intent_gateway] model_min_score").reason_code, "too_few_samples");
  for (const auto& x : r->items)
    if (x.parameter != kPricing) EXPECT_EQ(x.action, "keep_current") << x.parameter;

  // The diff touches exactly the pricing patch, and applying it gives a valid config with 0.6.
  // One hunk: the pricing patch's line, 0.84 → 0.6.
  std::size_t minus = 0, plus = 0;
  for (std::size_t p = 0; p < r->config_diff.size();) {
    const std::size_t nl = r->config_diff.find('\n', p);
    const std::string line = r->config_diff.substr(p, nl - p);
    p = nl == std::string::npos ? r->config_diff.size() : nl + 1;
    if (line.rfind("---", 0) == 0 || line.rfind("+++", 0) == 0) continue;
    if (line.rfind("-", 0) == 0) {
      ++minus;
      EXPECT_NE(line.find("faq_direct_threshold = 0.84"), std::string::npos) << line;
    }
    if (line.rfind("+", 0) == 0) {
      ++plus;
      EXPECT_NE(line.find("faq_direct_threshold = 0.6"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(minus, 1u) << r->config_diff;
  EXPECT_EQ(plus, 1u) << r->config_diff;
  const std::string patched = apply_diff(in.config, r->config_diff);
  auto cfg = qaplan::parse_config(patched, "patched.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error().to_string();
  bool found = false;
  for (const auto& p : cfg->retrieval_strategy.patches)
    if (p.id == "category_pricing")
      for (const auto& c : p.changes)
        if (c.knob == *qaplan::find_knob("faq_direct_threshold")) {
          EXPECT_DOUBLE_EQ(c.value, 0.6);
          found = true;
        }
  EXPECT_TRUE(found);
  const std::string md = qaplan::recommend_report_markdown(*r);
  EXPECT_NE(md.find("```diff"), std::string::npos);
  EXPECT_EQ(md.find("null"), std::string::npos);
}

TEST(Recommend, GatesKeepEveryValue) {
  Inputs in = base();
  in.cal["faq_direct"]["bands"].push_back(
      band(kPricing, 0.84, 0.6, 30, 12, point(20, 2, 15), point(30, 1, 5)));
  in.pol["summary"]["critical"]["failed"] = 2;
  auto r = run(in);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->policy_gate_failed);
  for (const auto& x : r->items) {
    EXPECT_EQ(x.action, "keep_current");
    EXPECT_EQ(x.reason_code, "gate_failed");
  }
  EXPECT_TRUE(r->config_diff.empty());
  in = base();
  in.cal["faq_direct"]["bands"].push_back(
      band(kPricing, 0.84, 0.6, 30, 12, point(20, 2, 15), point(30, 1, 5)));
  in.ev["regression"]["failed"] = true;
  r = run(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(item(*r, kPricing).reason_code, "gate_failed");
}

TEST(Recommend, WhatIfAndModelRows) {
  Inputs in = base();
  in.ev["what_if"].push_back({{"parameter", "[retrieval_strategy.defaults] doc_top_k"},
                              {"from", 20},
                              {"to", 24},
                              {"test", {{"counts", {{"expected_chunks_in_context", 60}, {"hit_type_correct", 121}}}}}});
  in.ev["what_if"].push_back({{"parameter", "[retrieval_strategy.defaults] final_context_top_n"},
                              {"from", 4},
                              {"to", 5},
                              {"test", {{"counts", {{"expected_chunks_in_context", 50}, {"hit_type_correct", 120}}}}}});
  in.cal["model_min_score"] = {{"available", true},
                               {"current", 0.75},
                               {"candidate", 0.9},
                               {"samples", 200},
                               {"dev_at_current", {{"conflicts", 7}, {"rows", 200}}},
                               {"test", {{"at_current", {{"correct", 150}, {"rows", 300}}},
                                         {"at_candidate", {{"correct", 160}, {"rows", 300}}}}}};
  auto r = run(in);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(item(*r, "[retrieval_strategy.defaults] doc_top_k").action,
            "apply_candidate_after_review");
  EXPECT_EQ(item(*r, "[retrieval_strategy.defaults] final_context_top_n").reason_code,
            "no_improvement");
  EXPECT_EQ(item(*r, "[intent_gateway] model_min_score").reason_code, "improved");
  EXPECT_EQ(item(*r, "[intent_gateway] conflict_final_score").action, "keep_current");
  const std::string patched = apply_diff(in.config, r->config_diff);
  auto cfg = qaplan::parse_config(patched, "patched.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error().to_string();
  EXPECT_EQ(cfg->retrieval_strategy.defaults.doc_top_k, 24);
  EXPECT_DOUBLE_EQ(cfg->intent_gateway.model_min_score, 0.9);
}

TEST(Recommend, MismatchedInputsAreRefused) {
  Inputs in = base();
  in.ev["dataset"]["sha256"] = "other";
  auto r = run(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
  in = base();
  in.config += "\n# edited\n";
  r = run(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("not the one the calibration ran with"), std::string::npos);
  in = base();
  in.pol["report"] = "something else";
  EXPECT_FALSE(run(in).ok());
  in = base();
  in.cal["faq_direct"].erase("bands");
  r = run(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("faq_direct.bands"), std::string::npos);
}

}  // namespace
