// The seed examples' thresholds as the plan sets them, the decision band eval names for each
// (threshold_band, qaplan/eval/chain_eval.hpp) and what the executor then applies. It runs with
// eval's tests because it calls threshold_band; the executor's own tests are in
// tests/unit/retrieval/executor_test.cpp.
#include <gtest/gtest.h>

#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/retrieval/executor.hpp"
#include "support/shipped_kb.hpp"
#include "test_support.hpp"

namespace {

// The shipped rules (model off) and knowledge base: tests/support/shipped_kb.hpp.
const qaplan::test::ShippedKb& shipped() { return qaplan::test::shipped_kb(); }

qaplan::Preparation prepare(const std::string& q, std::vector<std::string> history = {}) {
  auto p = shipped().planner.prepare({q, std::move(history), "", std::nullopt});
  if (!p.ok()) throw std::runtime_error(p.error().to_string());
  return std::move(p).value();
}

// Golden values: the plans of the worked examples, and which band sets their threshold.
TEST(Executor, SeedExamplesGetTheSeedThresholdsAndBands) {
  struct Case {
    const char* question;
    std::vector<std::string> history;
    double threshold;
    bool exact_only;
    const char* band;
  } cases[] = {
      {"异地入职材料办理时需要准备哪些资料和审批信息", {}, 0.64, false, "intent_faq"},
      {"报销费用超过5000需要谁审批", {}, 0.84, false, "category_pricing"},
      {"材料清单里的付款金额字段是什么", {}, 0.84, true, "exact_only"},
      {"那审批呢", {"报销流程是什么"}, 0.82, false, "intent_follow_up"},
      {"帮我分析一下这个问题", {}, 0.86, true, "exact_only"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.question);
    const auto p = prepare(c.question, c.history);
    ASSERT_TRUE(p.plan && p.plan_trace);
    EXPECT_DOUBLE_EQ(p.plan->knobs().faq_direct_threshold, c.threshold);
    EXPECT_EQ(p.plan->knobs().faq_direct_exact_only, c.exact_only);
    EXPECT_EQ(qaplan::threshold_band(*p.plan, *p.plan_trace).id, c.band);
    auto e = qaplan::execute_plan(p, shipped().kb);
    ASSERT_TRUE(e.ok());
    ASSERT_TRUE(e->faq_direct.has_value());
    EXPECT_DOUBLE_EQ(e->faq_direct->threshold, c.threshold);
    EXPECT_EQ(e->faq_direct->exact_only, c.exact_only);
  }
}

}  // namespace
