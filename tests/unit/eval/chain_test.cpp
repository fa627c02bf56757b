// The chain set, the metric arithmetic, the regression gate and the whole run (docs/evaluation.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "json_support.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::slurp;

fs::path chain_dir() { return qaplan::test::source_dir() / "eval_sets" / "chain"; }

qaplan::NamedText file(const fs::path& p) { return {p.filename().string(), slurp(p)}; }

TEST(ChainSet, ShippedSetCoversWhatTheIssueAsks) {
  auto set = qaplan::read_chain_set(chain_dir() / "chain-v1.jsonl");
  ASSERT_TRUE(set.ok()) << set.error().to_string();
  EXPECT_EQ(set->version, "chain-1");
  EXPECT_EQ(set->kb_version, "kb-1");
  ASSERT_GE(set->questions.size(), 300u);
  std::size_t history = 0, direct = 0, no_ev = 0, pricing = 0, compliance = 0, table = 0, dev = 0;
  for (const auto& q : set->questions) {
    history += !q.history.empty();
    direct += q.expected_hit_type == qaplan::HitType::kDirectAnswer;
    no_ev += q.expected_hit_type == qaplan::HitType::kNoEvidence;
    pricing += q.category == qaplan::QuestionCategory::kPricing;
    compliance += q.category == qaplan::QuestionCategory::kCompliance;
    table += q.prefer_table;
    dev += q.split == qaplan::Split::kDev;
  }
  EXPECT_EQ(set->questions.size(), 457u);
  EXPECT_EQ(history, 52u);
  EXPECT_EQ(direct, 51u);
  EXPECT_EQ(no_ev, 50u);
  EXPECT_EQ(pricing, 118u);
  EXPECT_EQ(compliance, 65u);
  EXPECT_EQ(table, 60u);
  EXPECT_EQ(dev, 184u);
}

TEST(ChainSet, StrictRowsNameLineAndField) {
  // A registry built for the test text itself, so only the row checks can fail.
  auto make = [](const std::string& text) -> qaplan::Result<qaplan::ChainSet> {
    auto sha = qaplan::canonical_jsonl_sha256(text, "t.jsonl");
    if (!sha.ok()) return sha.error();
    const std::string reg = R"({"format": "qaplan-chain-fingerprints-1", "files": {"t.jsonl": {"version": "t-1", "kb": "kb-1", "sha256": ")" +
                            *sha + R"("}}})";
    return qaplan::load_chain_set({"t.jsonl", text}, {"fingerprints.json", reg});
  };
  nlohmann::json row = {{"id", "c-1"},           {"question", "年假有几天"}, {"history", nlohmann::json::array()},
                        {"scenario", nullptr},   {"source_filter", nullptr},
                        {"expected_hit_type", "faq_direct"}, {"expected_faq_id", "faq-hr-001"},
                        {"expected_chunk_ids", nlohmann::json::array()}, {"keywords", {"5天"}},
                        {"category", "default"}, {"prefer_table", false}, {"split", "dev"}};
  ASSERT_TRUE(make(row.dump() + "\n").ok());
  auto expect_field = [&](nlohmann::json r, const char* field) {
    auto s = make(nlohmann::json(row).dump() + "\n" + r.dump() + "\n");
    ASSERT_FALSE(s.ok()) << field;
    EXPECT_EQ(s.error().code, qaplan::ErrorCode::kInvalidInput);
    EXPECT_EQ(s.error().line, 2);
    EXPECT_EQ(s.error().field, field) << s.error().to_string();
  };
  auto r = row;
  r["id"] = "c-2";
  r["expected_faq_id"] = nullptr;
  expect_field(r, "expected_faq_id");
  r = row;  // duplicate id
  expect_field(r, "id");
  r = row;
  r["id"] = "c-2";
  r["expected_hit_type"] = "maybe";
  expect_field(r, "expected_hit_type");
  r = row;
  r["id"] = "c-2";
  r["split"] = "train";
  expect_field(r, "split");
  r = row;
  r["id"] = "c-2";
  r["category"] = "legal";
  expect_field(r, "category");
  r = row;
  r["id"] = "c-2";
  r["note"] = "x";
  expect_field(r, "note");
  // Numbers have no canonical form here.
  r = row;
  r["id"] = "c-2";
  r["prefer_table"] = 1;
  EXPECT_FALSE(make(row.dump() + "\n" + r.dump() + "\n").ok());
}

TEST(ChainMetrics, ArithmeticMatchesTheDefinitions) {
  using qaplan::HitType;
  qaplan::ChainMetrics m;
  // faq_direct, expected FAQ at rank 2, answered directly with the right FAQ? no: rag.
  qaplan::ChainQuestion faq;
  faq.expected_hit_type = HitType::kFaqDirect;
  faq.expected_faq_id = "f1";
  faq.keywords = {"a", "b"};
  qaplan::ChainResult r1;
  r1.predicted = HitType::kRag;
  r1.faq_rank = 2;
  r1.keywords_found = 1;
  r1.missed_direct = true;
  qaplan::accumulate(m, faq, r1);
  // rag with 2 expected chunks at ranks 1 and 6, one in the context.
  qaplan::ChainQuestion rag;
  rag.expected_hit_type = HitType::kRag;
  rag.expected_chunk_ids = {"c1", "c2"};
  qaplan::ChainResult r2;
  r2.predicted = HitType::kRag;
  r2.hit_type_correct = true;
  r2.chunk_ranks = {1, 6};
  r2.chunks_in_context = 1;
  qaplan::accumulate(m, rag, r2);
  // no_evidence answered with a wrong FAQ directly.
  qaplan::ChainQuestion neg;
  neg.expected_hit_type = HitType::kNoEvidence;
  qaplan::ChainResult r3;
  r3.predicted = HitType::kFaqDirect;
  r3.false_direct = true;
  qaplan::accumulate(m, neg, r3);
  // A positive refused.
  qaplan::ChainResult r4;
  r4.predicted = HitType::kNoEvidence;
  r4.chunk_ranks = {std::nullopt, std::nullopt};
  qaplan::accumulate(m, rag, r4);

  EXPECT_EQ(m.questions, 4u);
  EXPECT_EQ(m.positives, 3u);
  EXPECT_DOUBLE_EQ(*m.hit_type_accuracy(), 1.0 / 4);
  EXPECT_DOUBLE_EQ(*m.get("evidence_recall_at_1"), (0 + 0.5 + 0) / 3);
  EXPECT_DOUBLE_EQ(*m.get("evidence_recall_at_3"), (1 + 0.5 + 0) / 3);
  EXPECT_DOUBLE_EQ(*m.get("evidence_recall_at_10"), (1 + 1 + 0) / 3.0);
  EXPECT_DOUBLE_EQ(*m.get("faq_hit_at_1"), 0.0);
  EXPECT_DOUBLE_EQ(*m.get("faq_hit_at_3"), 1.0);
  EXPECT_DOUBLE_EQ(*m.get("doc_recall_at_5"), (0.5 + 0) / 2);
  EXPECT_DOUBLE_EQ(*m.get("faq_mrr_at_10"), 0.5);
  EXPECT_DOUBLE_EQ(*m.get("doc_mrr_at_10"), (1.0 + 0) / 2);
  EXPECT_DOUBLE_EQ(*m.get("evidence_mrr_at_10"), (0.5 + 1.0) / 3);
  EXPECT_DOUBLE_EQ(*m.get("context_recall"), 1.0 / 4);
  EXPECT_DOUBLE_EQ(*m.get("keyword_coverage"), 0.5);
  EXPECT_DOUBLE_EQ(*m.get("false_direct_rate"), 1.0);
  EXPECT_DOUBLE_EQ(*m.get("missed_direct_rate"), 1.0);
  EXPECT_DOUBLE_EQ(*m.get("no_evidence_rate"), 0.25);
  EXPECT_DOUBLE_EQ(*m.get("correct_refusal_rate"), 0.0);
  EXPECT_DOUBLE_EQ(*m.get("false_refusal_rate"), 1.0 / 3);
  EXPECT_EQ(m.confusion[3][1], 1u);
  EXPECT_FALSE(m.get("no_such_metric").has_value());
  qaplan::ChainMetrics empty;
  EXPECT_FALSE(empty.get("false_direct_rate").has_value());  // 0/0 is n/a, not 0
  EXPECT_EQ(qaplan::metric_higher_is_better("false_direct_rate"), false);
  EXPECT_EQ(qaplan::metric_higher_is_better("doc_recall_at_5"), true);
}

TEST(ChainBands, DecisionBandsAndThresholdSource) {
  EXPECT_EQ(qaplan::decision_band(0.6999), "low");
  EXPECT_EQ(qaplan::decision_band(0.70), "medium");
  EXPECT_EQ(qaplan::decision_band(0.8199), "medium");
  EXPECT_EQ(qaplan::decision_band(0.82), "high");
}

TEST(ChainEvalConfig, ShippedConfigParsesAndBadOnesAreRefused) {
  auto ec = qaplan::read_chain_eval_config(chain_dir() / "eval-config.json");
  ASSERT_TRUE(ec.ok()) << ec.error().to_string();
  ASSERT_TRUE(ec->baselines.count("off"));  // the model-off baseline is always committed
  for (const auto& [key, metrics] : ec->baselines) EXPECT_FALSE(metrics.empty()) << key;
  EXPECT_GT(ec->false_direct_ceiling, 0.0);
  nlohmann::json j = nlohmann::json::parse(slurp(chain_dir() / "eval-config.json"));
  j["regression"]["baselines"]["off"]["recall_at_7"] = {{"baseline", 0.5}, {"tolerance", 0.1}};
  auto bad = qaplan::parse_chain_eval_config({"e.json", j.dump()});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "regression.baselines.off.recall_at_7");
  j = nlohmann::json::parse(slurp(chain_dir() / "eval-config.json"));
  j["regression"]["baselines"]["router-v1"] = j["regression"]["baselines"]["off"];
  bad = qaplan::parse_chain_eval_config({"e.json", j.dump()});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "regression.baselines.router-v1");
  j = nlohmann::json::parse(slurp(chain_dir() / "eval-config.json"));
  j["calibration"]["false_direct_ceiling"] = 1.5;
  EXPECT_FALSE(qaplan::parse_chain_eval_config({"e.json", j.dump()}).ok());
}

struct ShippedRun {
  qaplan::KbIndex kb;
  qaplan::ChainSet set;
  qaplan::RulesFile rules;
  qaplan::ChainEvalConfig ec;
};

ShippedRun load_shipped() {
  auto kb = qaplan::read_knowledge_base(qaplan::test::source_dir() / "eval_sets" / "kb");
  auto index = qaplan::KbIndex::create(std::move(kb).value());
  return ShippedRun{std::move(index).value(), *qaplan::read_chain_set(chain_dir() / "chain-v1.jsonl"),
             *qaplan::read_rules_file(qaplan::test::shipped_config()),
             *qaplan::read_chain_eval_config(chain_dir() / "eval-config.json")};
}

TEST(ChainRun, DeterministicAndTheShippedBaselineHolds) {
  const ShippedRun s = load_shipped();
  auto a = qaplan::run_eval_chain(s.rules.config, s.rules.sha256, s.kb, s.set, s.ec);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  auto b = qaplan::run_eval_chain(s.rules.config, s.rules.sha256, s.kb, s.set, s.ec);
  ASSERT_TRUE(b.ok());
  nlohmann::json ja = nlohmann::json::parse(qaplan::chain_report_json(*a));
  nlohmann::json jb = nlohmann::json::parse(qaplan::chain_report_json(*b));
  qaplan::test::strip_timing(ja);
  qaplan::test::strip_timing(jb);
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja["questions"].size(), 457u);
  EXPECT_EQ(a->test.questions + a->dev.questions, 457u);
  // The committed baseline is what the shipped config achieves (CI's gate).
  EXPECT_FALSE(a->regression_failed);
  for (const auto& c : a->regression) EXPECT_FALSE(c.regressed) << c.name;
  const std::string md = qaplan::chain_report_markdown(*a);
  EXPECT_EQ(md.find("null"), std::string::npos);
  EXPECT_NE(md.find("## Definitions"), std::string::npos);
  EXPECT_NE(md.find("recall-by-category.svg"), std::string::npos);
}

TEST(ChainRun, GateFailsWhenAMetricIsWorseThanTheBaseline) {
  ShippedRun s = load_shipped();
  const std::string key = qaplan::regression_baseline_key(s.rules.config);
  s.ec.baselines[key] = {{"hit_type_accuracy", 0.99, 0.01}, {"false_direct_rate", 0.0, 0.0}};
  auto r = qaplan::run_eval_chain(s.rules.config, s.rules.sha256, s.kb, s.set, s.ec);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->regression_failed);
  EXPECT_TRUE(r->regression[0].regressed);
  EXPECT_EQ(r->baseline_key, key);
  EXPECT_TRUE(r->regression_note.empty());
  // A baseline measured with another router model is never compared: the run says why.
  s.ec.baselines.erase(key);
  s.ec.baselines[key == "off" ? "sha256:" + std::string(64, 'a') : "off"] = {{"hit_type_accuracy", 0.99, 0.01}};
  auto other_model = qaplan::run_eval_chain(s.rules.config, s.rules.sha256, s.kb, s.set, s.ec);
  ASSERT_TRUE(other_model.ok()) << other_model.error().to_string();
  EXPECT_TRUE(other_model->regression.empty());
  EXPECT_FALSE(other_model->regression_failed);
  EXPECT_NE(other_model->regression_note.find("under the key \"" + key + "\""), std::string::npos)
      << other_model->regression_note;
  // Nor one measured on other data (a host's own KB and questions).
  s.ec.baselines[key] = {{"hit_type_accuracy", 0.99, 0.01}};
  s.ec.regression_dataset = "chain-2";
  auto other = qaplan::run_eval_chain(s.rules.config, s.rules.sha256, s.kb, s.set, s.ec);
  ASSERT_TRUE(other.ok()) << other.error().to_string();
  EXPECT_TRUE(other->regression.empty());
  EXPECT_FALSE(other->regression_failed);
  EXPECT_NE(other->regression_note.find("measured on chain-2 / kb-1"), std::string::npos)
      << other->regression_note;
  EXPECT_NE(qaplan::chain_report_markdown(*other).find("Not gated: "), std::string::npos);
}

}  // namespace
