// The rewrite evaluation library (issue 8 item 9): strict follow-up loading, the per-row
// metrics, and what each arm searches.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/eval/rewrite_eval.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using qaplan::NamedText;

json row(const std::string& id) {
  return {{"id", id},
          {"history", {"北斗厅在几楼"}},
          {"question", "它能坐多少人"},
          {"full_question", "10楼北斗厅会议室能容纳多少人？"},
          {"expected_chunk_ids", {"doc-adm-meeting-rooms-11", "doc-adm-office-02"}},
          {"expected_faq_id", "faq-adm-003"},
          {"family", "pronoun"}};
}

std::string lines(const std::vector<json>& rows) {
  std::string t;
  for (const json& r : rows) t += r.dump() + "\n";
  return t;
}

NamedText named_registry(const std::string& name, const std::string& text) {
  // A file that cannot be hashed (a number in it) gets a registry entry that matches nothing:
  // the parse must refuse it first anyway.
  auto sha = qaplan::canonical_jsonl_sha256(text, name);
  const std::string hash = sha.ok() ? *sha : std::string(64, '0');
  json reg = {{"format", "qaplan-chain-fingerprints-1"},
              {"files", {{name, {{"version", "t-1"}, {"kb", "kb-1"}, {"sha256", hash}}}}}};
  return {"fingerprints.json", reg.dump()};
}

TEST(RewriteEvalLoad, RegisteredFileLoads) {
  const std::string text = lines({row("a"), row("b")});
  auto s = qaplan::load_followup_set({"s.jsonl", text}, named_registry("s.jsonl", text));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->version, "t-1");
  EXPECT_EQ(s->kb_version, "kb-1");
  ASSERT_EQ(s->questions.size(), 2u);
  EXPECT_EQ(s->questions[1].id, "b");
  EXPECT_EQ(s->questions[0].expected_faq_id.value_or(""), "faq-adm-003");
  EXPECT_EQ(s->questions[0].family, "pronoun");
}

TEST(RewriteEvalLoad, ChangedContentIsAFingerprintMismatch) {
  const std::string text = lines({row("a"), row("b")});
  const NamedText reg = named_registry("s.jsonl", text);
  json changed = row("b");
  changed["question"] = "它能坐几个人";
  auto s = qaplan::load_followup_set({"s.jsonl", lines({row("a"), changed})}, reg);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, qaplan::ErrorCode::kFingerprintMismatch);
}

TEST(RewriteEvalLoad, BadRowsNameLineAndField) {
  struct Case {
    const char* field;
    json value;  // null → the field is removed
  };
  const std::vector<Case> cases = {
      {"family", "sarcasm"},      {"full_question", nullptr}, {"history", json::array()},
      {"question", "  "},         {"expected_faq_id", 3},     {"extra", "x"},
      {"history", {"a", "b", "c", "d"}},
  };
  for (const Case& c : cases) {
    json bad = row("b");
    if (c.value.is_null())
      bad.erase(c.field);
    else
      bad[c.field] = c.value;
    const std::string text = lines({row("a"), bad});
    auto s = qaplan::load_followup_set({"s.jsonl", text}, named_registry("s.jsonl", text));
    ASSERT_FALSE(s.ok()) << c.field;
    EXPECT_EQ(s.error().code, qaplan::ErrorCode::kInvalidInput);
    const std::string msg = s.error().to_string();
    EXPECT_NE(msg.find("s.jsonl:2"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.field), std::string::npos) << msg;
  }
  const std::string dup = lines({row("a"), row("a")});
  auto s = qaplan::load_followup_set({"s.jsonl", dup}, named_registry("s.jsonl", dup));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().to_string().find("duplicate id"), std::string::npos);
}

qaplan::RewriteRow synthetic(std::vector<std::optional<std::size_t>> ranks) {
  qaplan::RewriteRow r;
  r.items.resize(ranks.size(), "chunk:x");
  r.arms[1].ran = true;
  r.arms[1].ranks = std::move(ranks);
  return r;
}

TEST(RewriteEvalMetrics, RecallAndReciprocalRankFollowTheRanks) {
  const auto r = synthetic({3, std::nullopt, 7, 1});
  EXPECT_DOUBLE_EQ(qaplan::row_recall(r, qaplan::RewriteArm::kRewrite, 1), 0.25);
  EXPECT_DOUBLE_EQ(qaplan::row_recall(r, qaplan::RewriteArm::kRewrite, 5), 0.5);
  EXPECT_DOUBLE_EQ(qaplan::row_recall(r, qaplan::RewriteArm::kRewrite, 10), 0.75);
  EXPECT_DOUBLE_EQ(qaplan::row_reciprocal_rank(r, qaplan::RewriteArm::kRewrite), 1.0);
  EXPECT_DOUBLE_EQ(qaplan::row_reciprocal_rank(synthetic({12, 4}), qaplan::RewriteArm::kRewrite),
                   0.25);
  EXPECT_DOUBLE_EQ(qaplan::row_reciprocal_rank(synthetic({11}), qaplan::RewriteArm::kRewrite), 0.0);
  EXPECT_DOUBLE_EQ(qaplan::row_recall(synthetic({std::nullopt}), qaplan::RewriteArm::kRewrite, 10),
                   0.0);
}

class RewriteEvalRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto kb = qaplan::read_knowledge_base(qaplan::test::source_dir() / "eval_sets" / "kb");
    ASSERT_TRUE(kb.ok()) << kb.error().to_string();
    auto index = qaplan::KbIndex::create(std::move(kb).value());
    ASSERT_TRUE(index.ok()) << index.error().to_string();
    index_ = new qaplan::KbIndex(std::move(index).value());
    auto rules = qaplan::read_rules_file(qaplan::test::shipped_config());
    ASSERT_TRUE(rules.ok()) << rules.error().to_string();
    rules_ = new qaplan::RulesFile(std::move(rules).value());
  }
  static void TearDownTestSuite() {
    delete index_;
    delete rules_;
  }
  static qaplan::KbIndex* index_;
  static qaplan::RulesFile* rules_;
};
qaplan::KbIndex* RewriteEvalRun::index_ = nullptr;
qaplan::RulesFile* RewriteEvalRun::rules_ = nullptr;

TEST_F(RewriteEvalRun, ArmsSearchWhatTheyClaim) {
  const std::string text = lines({row("a")});
  auto set = qaplan::load_followup_set({"s.jsonl", text}, named_registry("s.jsonl", text));
  ASSERT_TRUE(set.ok());
  auto rep = qaplan::run_eval_rewrite(rules_->config, rules_->sha256, *index_, *set, nullptr, nullptr);
  ASSERT_TRUE(rep.ok()) << rep.error().to_string();
  ASSERT_EQ(rep->rows.size(), 1u);
  const qaplan::RewriteRow& r = rep->rows[0];
  EXPECT_EQ(r.items, (std::vector<std::string>{"faq:faq-adm-003", "chunk:doc-adm-meeting-rooms-11",
                                                "chunk:doc-adm-office-02"}));
  // The rewrite arm searches the analysis stage's rewrite of the same Preparation.
  auto planner = qaplan::Planner::create(rules_->config);
  ASSERT_TRUE(planner.ok());
  auto prep = planner->prepare({"它能坐多少人", {"北斗厅在几楼"}, "", std::nullopt});
  ASSERT_TRUE(prep.ok());
  auto an = planner->analyze(*prep);
  ASSERT_TRUE(an.ok());
  EXPECT_EQ(r.arms[0].query, prep->normalized.text);
  EXPECT_TRUE(r.arms[0].variants.empty());
  EXPECT_EQ(r.arms[1].query, an->rewrite.query);
  EXPECT_TRUE(r.arms[1].variants.empty());
  EXPECT_EQ(r.arms[2].query, an->rewrite.query);
  // The variants arm searches what the executor would: the analysis' variants but the fragment
  // as typed, which the rewrite replaces.
  EXPECT_EQ(r.arms[2].variants, qaplan::execution_inputs(*an).variants);
  ASSERT_TRUE(an->rewrite.rewritten);
  EXPECT_EQ(std::find(r.arms[2].variants.begin(), r.arms[2].variants.end(),
                      prep->normalized.text),
            r.arms[2].variants.end());
  EXPECT_EQ(r.arms[2].cost.variant_paths, static_cast<long>(r.arms[2].variants.size()) + 1);
  // The ceiling is the full question searched on its own.
  auto full = planner->prepare({"10楼北斗厅会议室能容纳多少人？", {}, "", std::nullopt});
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(r.arms[3].query, full->normalized.text);
  for (const auto& a : r.arms) {
    EXPECT_TRUE(a.ran);
    EXPECT_EQ(a.ranks.size(), 3u);
    EXPECT_TRUE(a.error.empty()) << a.error;
  }
  // Metrics of one question are that question's figures.
  for (std::size_t k = 0; k < qaplan::kRewriteKs.size(); ++k)
    EXPECT_DOUBLE_EQ(*rep->followups.all[1].recall(k),
                     qaplan::row_recall(r, qaplan::RewriteArm::kRewrite, qaplan::kRewriteKs[k]));
  const double rw = qaplan::row_recall(r, qaplan::RewriteArm::kRewrite, 5);
  const double ceil = qaplan::row_recall(r, qaplan::RewriteArm::kFull, 5);
  ASSERT_GT(ceil, 0.0);
  EXPECT_DOUBLE_EQ(*rep->ratio, rw / ceil);
  EXPECT_EQ(rep->gate_passed, rw / ceil >= 0.9);
}

TEST_F(RewriteEvalRun, LabelsOfAnotherKnowledgeBaseAreRefused) {
  json bad = row("a");
  bad["expected_chunk_ids"] = {"doc-does-not-exist"};
  const std::string text = lines({bad});
  auto set = qaplan::load_followup_set({"s.jsonl", text}, named_registry("s.jsonl", text));
  ASSERT_TRUE(set.ok());
  auto rep = qaplan::run_eval_rewrite(rules_->config, rules_->sha256, *index_, *set, nullptr, nullptr);
  ASSERT_FALSE(rep.ok());
  EXPECT_NE(rep.error().to_string().find("doc-does-not-exist"), std::string::npos);
}

}  // namespace
