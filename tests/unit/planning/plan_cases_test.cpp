// Table-driven tests: the golden rows, the labelled questions and our own, each
// a line of tests/data/*_plans.jsonl with the question and what must hold. These are the rule
// half (the model switched off: the worked examples hold exactly); what the shipped model
// changes on the same rows is asserted row by row in model_on_plans_test.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "qaplan/planning/planner.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using qaplan::Planner;

const Planner& shipped_planner() {
  static const Planner p = [] {
    auto cfg = qaplan::load_config(qaplan::test::shipped_config());
    EXPECT_TRUE(cfg.ok()) << cfg.error().to_string();
    cfg->model.enabled = false;
    return Planner::create(std::move(cfg).value()).value();
  }();
  return p;
}

double plan_number(const qaplan::RetrievalPlan& p, const std::string& field) {
  if (field == "faq_top_k") return p.knobs().faq_top_k;
  if (field == "doc_top_k") return p.knobs().doc_top_k;
  if (field == "faq_direct_threshold") return p.knobs().faq_direct_threshold;
  if (field == "final_context_top_n") return p.knobs().final_context_top_n;
  if (field == "min_context_score") return p.knobs().min_context_score;
  if (field == "max_context_chars") return p.knobs().max_context_chars;
  if (field == "max_context_doc_chars") return p.knobs().max_context_doc_chars;
  if (field == "intent_rule_score") return p.intent_rule_score();
  if (field == "intent_decision_score") return p.intent_decision_score();
  ADD_FAILURE() << "unknown numeric field in test data: " << field;
  return -1;
}

std::optional<bool> plan_flag(const qaplan::RetrievalPlan& p, const std::string& field) {
  if (field == "run_faq") return p.knobs().run_faq;
  if (field == "run_doc") return p.knobs().run_doc;
  if (field == "rerank") return p.knobs().rerank;
  if (field == "use_query_variants") return p.knobs().use_query_variants;
  if (field == "prefer_table") return p.knobs().prefer_table;
  if (field == "faq_direct_exact_only") return p.knobs().faq_direct_exact_only;
  return std::nullopt;
}

void check_case(const json& c, const std::string& where) {
  SCOPED_TRACE(where + ": " + c.dump());
  qaplan::PrepareRequest req;
  req.question = c.at("question").get<std::string>();
  if (c.contains("history")) req.history = c["history"].get<std::vector<std::string>>();
  if (c.contains("scenario")) req.scenario = c["scenario"].get<std::string>();
  if (c.contains("source")) req.source = c["source"].get<std::string>();
  auto prep = shipped_planner().prepare(req);
  ASSERT_TRUE(prep.ok()) << prep.error().to_string();
  const json& e = c.at("expect");
  EXPECT_EQ(to_string(prep->route.route), e.at("route").get<std::string>());
  if (e.contains("route_reason")) EXPECT_EQ(to_string(prep->route.reason), e["route_reason"].get<std::string>());
  if (e.contains("query_units")) EXPECT_EQ(prep->normalized.query_units, e["query_units"].get<int>());
  if (e.contains("normalized_query")) EXPECT_EQ(prep->normalized.text, e["normalized_query"].get<std::string>());
  if (prep->route.route == qaplan::Route::kDirectAnswer) {
    EXPECT_FALSE(prep->plan.has_value());
    EXPECT_FALSE(prep->intent.has_value());
    EXPECT_FALSE(prep->route.reply.empty());
    return;
  }
  ASSERT_TRUE(prep->intent && prep->plan);
  const auto& in = *prep->intent;
  if (e.contains("intent")) EXPECT_EQ(to_string(in.intent), e["intent"].get<std::string>());
  if (e.contains("intent_not")) EXPECT_NE(to_string(in.intent), e["intent_not"].get<std::string>());
  if (e.contains("requires_rewrite")) EXPECT_EQ(in.requires_rewrite, e["requires_rewrite"].get<bool>());
  if (e.contains("rule_id")) EXPECT_EQ(in.rule_candidate.rule_id, e["rule_id"].get<std::string>());
  if (e.contains("rule_score")) EXPECT_DOUBLE_EQ(in.rule_score, e["rule_score"].get<double>());
  if (e.contains("confidence_max")) EXPECT_LE(in.confidence, e["confidence_max"].get<double>());
  if (e.contains("effective_source")) {
    ASSERT_TRUE(prep->effective_source.has_value());
    EXPECT_EQ(*prep->effective_source, e["effective_source"].get<std::string>());
  }
  if (e.contains("effective_sources"))
    EXPECT_EQ(prep->effective_sources, e["effective_sources"].get<std::vector<std::string>>());
  if (e.contains("suggested_source")) {
    ASSERT_TRUE(in.suggested_source.has_value());
    EXPECT_EQ(*in.suggested_source, e["suggested_source"].get<std::string>());
  }
  // rule_only gateway: the decision score is the rule score.
  EXPECT_EQ(to_string(in.decision_policy), "rule_only");
  EXPECT_DOUBLE_EQ(in.confidence, in.rule_score);
  const auto& plan = *prep->plan;
  if (e.contains("plan")) {
    for (const auto& [field, want] : e["plan"].items()) {
      SCOPED_TRACE(field);
      if (field == "reason") EXPECT_EQ(plan.reason(), want.get<std::string>());
      else if (field == "question_category") EXPECT_EQ(to_string(plan.question_category()), want.get<std::string>());
      else if (auto flag = plan_flag(plan, field)) EXPECT_EQ(*flag, want.get<bool>());
      else EXPECT_DOUBLE_EQ(plan_number(plan, field), want.get<double>());
    }
  }
  if (e.contains("plan_min"))
    for (const auto& [field, want] : e["plan_min"].items())
      EXPECT_GE(plan_number(plan, field), want.get<double>()) << field;
}

void run_file(const std::string& name, std::size_t min_cases) {
  std::ifstream in(qaplan::test::source_dir() / "tests" / "data" / name);
  ASSERT_TRUE(in) << name;
  std::string line;
  std::size_t n = 0, lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    check_case(json::parse(line), name + ":" + std::to_string(lineno));
    ++n;
  }
  EXPECT_GE(n, min_cases) << name;
}

TEST(PlanCases, SeedGoldenRows) { run_file("golden_plans.jsonl", 6); }
TEST(PlanCases, IssueLabelledQuestions) { run_file("labelled_plans.jsonl", 27); }
TEST(PlanCases, OwnQuestions) { run_file("own_plans.jsonl", 60); }

}  // namespace
