#include "qaplan/planning/planner.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "qaplan/planning/json.hpp"
#include "support/planners.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

using qaplan::test::planner;
using qaplan::test::prep;

TEST(Planner, InvarianceUnderSurfaceForm) {
  const std::vector<std::vector<std::string>> groups = {
      {"报销费用超过5000需要谁审批", "报销费用超过５０００需要谁审批", "  报销费用超过5000 需要谁审批？ ",
       "报销费用超过5000需要谁审批?", "报销 费用 超过 5000 需要 谁 审批"},
      {"VPN怎么连接", "vpn怎么连接", "ＶＰＮ怎么连接", "Vpn 怎么连接?"},
      {"材料清单里的付款金额字段是什么", "材料清单里的付款金额字段是什么？？", "材料清单 里的付款金额字段 是什么"},
      {"那审批呢", "那审批呢？", " 那 审批 呢 "},
  };
  for (const auto& g : groups) {
    const std::vector<std::string> history = g[0] == "那审批呢" ? std::vector<std::string>{"报销流程是什么"}
                                                                : std::vector<std::string>{};
    const Preparation base = prep(g[0], history);
    ASSERT_TRUE(base.plan.has_value());
    for (const auto& variant : g) {
      const Preparation p = prep(variant, history);
      ASSERT_TRUE(p.plan.has_value()) << variant;
      EXPECT_EQ(*p.plan, *base.plan) << variant;
      EXPECT_EQ(p.intent->intent, base.intent->intent) << variant;
      EXPECT_EQ(p.effective_source, base.effective_source) << variant;
    }
  }
}

TEST(Planner, RequestErrorsAreInvalidInputNamingTheField) {
  struct Bad {
    PrepareRequest req;
    std::string context;
  };
  std::vector<Bad> bad = {
      {{"", {}, "", std::nullopt}, "question"},
      {{"   ", {}, "", std::nullopt}, "question"},
      {{"\xff\xfe", {}, "", std::nullopt}, "question"},
      {{std::string(513, 'x'), {}, "", std::nullopt}, "question"},
      {{"年假怎么申请", {"\xc3"}, "", std::nullopt}, "history[0]"},
      {{"年假怎么申请", {"ok", ""}, "", std::nullopt}, "history[1]"},
      {{"年假怎么申请", std::vector<std::string>(21, "年假"), "", std::nullopt}, "history"},
      {{"年假怎么申请", {}, "nope", std::nullopt}, "scenario"},
      {{"年假怎么申请", {}, "", std::string("hrr")}, "source"},
  };
  for (const auto& b : bad) {
    auto r = planner().prepare(b.req);
    ASSERT_FALSE(r.ok()) << b.context;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().field, b.context) << r.error().to_string();
  }
}

TEST(Planner, DirectAnswerHasNoIntentOrPlan) {
  const Preparation p = prep("您好");
  EXPECT_EQ(p.route.route, Route::kDirectAnswer);
  EXPECT_FALSE(p.intent || p.plan || p.plan_trace || p.effective_source);
  const auto j = nlohmann::json::parse(to_json(p));
  EXPECT_TRUE(j["intent"].is_null());
  EXPECT_TRUE(j["retrieval_plan"].is_null());
  EXPECT_TRUE(j["plan_trace"].is_null());
}

TEST(Planner, JsonPlanHasExactlyTheSeventeenSeedFields) {
  const auto j = nlohmann::ordered_json::parse(to_json(prep("年假怎么申请")));
  std::vector<std::string> keys;
  for (const auto& [k, v] : j["retrieval_plan"].items()) keys.push_back(k);
  // The 13 knobs in table order (kPlanKnobs), then the four fields derived from the question.
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "run_faq", "run_doc", "faq_top_k", "doc_top_k", "rerank",
                      "faq_direct_threshold", "final_context_top_n", "min_context_score",
                      "max_context_chars", "max_context_doc_chars", "use_query_variants",
                      "prefer_table", "faq_direct_exact_only", "question_category",
                      "intent_rule_score", "intent_decision_score", "reason"}));
  EXPECT_FALSE(j.contains("timings_us"));
  EXPECT_TRUE(nlohmann::json::parse(to_json(prep("年假怎么申请"), {false, true})).contains("timings_us"));
}

// Planner is immutable: 8 threads × 2 500 prepares must reproduce the single-threaded output.
TEST(Planner, ThreadSafeAndDeterministic) {
  std::vector<PrepareRequest> reqs;
  for (const char* f : {"golden_plans.jsonl", "labelled_plans.jsonl", "own_plans.jsonl"}) {
    std::ifstream in(test::source_dir() / "tests" / "data" / f);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line);
      PrepareRequest r;
      r.question = j["question"];
      if (j.contains("history")) r.history = j["history"].get<std::vector<std::string>>();
      if (j.contains("scenario")) r.scenario = j["scenario"];
      if (j.contains("source")) r.source = j["source"].get<std::string>();
      reqs.push_back(std::move(r));
    }
  }
  ASSERT_GE(reqs.size(), 90u);
  std::vector<std::string> expected;
  for (const auto& r : reqs) expected.push_back(to_json(planner().prepare(r).value()));
  // 20 000 prepares over 8 threads, every table row many times in each: the determinism check.
  // (Data races are the TSan test's job; 80 000 here cost 38 s of CI's ASan run for nothing more.)
  constexpr int kThreads = 8, kPerThread = 2500;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::size_t k = static_cast<std::size_t>(i * 7 + t) % reqs.size();
        auto r = planner().prepare(reqs[k]);
        if (!r.ok() || to_json(*r) != expected[k]) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << t;
}

TEST(Planner, CreateRejectsInvalidConfig) {
  Config c = load_config(test::shipped_config()).value();
  c.default_scenario = "missing";
  auto p = Planner::create(c);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, ErrorCode::kInvalidConfig);
}

// "1 turns" (issue 24, item 9): the history limit's message counts turns in words. A limit of 0
// — the only one a single turn could exceed — is refused when the Planner is created, so one
// turn always fits; over the limit the message names the count, the limit and the key.
TEST(Planner, TheHistoryLimitIsAtLeastOneTurnAndItsMessageCountsTurns) {
  Config c = load_config(test::shipped_config()).value();
  c.input.max_history_turns = 0;
  auto refused = Planner::create(c);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().to_string().find("max_history_turns"), std::string::npos);
  c.input.max_history_turns = 1;
  auto p = Planner::create(c);
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_TRUE(p->prepare(PrepareRequest{"那病假呢", {"年假怎么申请"}, "", std::nullopt}).ok());
  auto over = p->prepare(PrepareRequest{"那病假呢", {"你好", "年假怎么申请"}, "", std::nullopt});
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().field, "history");
  EXPECT_EQ(over.error().message, "2 turns, limit 1 ([input] max_history_turns)");
}

TEST(Planner, ResultValueOnErrorThrows) {
  auto r = planner().prepare(PrepareRequest{"", {}, "", std::nullopt});
  EXPECT_THROW((void)r.value(), BadResultAccess);
}

// The fallback widens only a scope qaplan chose, and never past the scenario.
TEST(Planner, FallbackSourcesWidenOnlyAScopeQaplanChose) {
  const Preparation chosen = prep("年假怎么申请");
  ASSERT_EQ(chosen.effective_sources, std::vector<std::string>{"hr"});
  ASSERT_TRUE(chosen.fallback_sources.has_value());
  EXPECT_TRUE(chosen.fallback_sources->empty());  // every source
  auto host = planner().prepare(PrepareRequest{"年假怎么申请", {}, "", std::string("hr")});
  ASSERT_TRUE(host.ok());
  EXPECT_FALSE(host->fallback_sources.has_value());  // the host's scope is the host's
  auto hr_only = planner().prepare(PrepareRequest{"年假怎么申请", {}, "hr_helpdesk", std::nullopt});
  ASSERT_TRUE(hr_only.ok());
  EXPECT_EQ(hr_only->effective_sources, std::vector<std::string>{"hr"});
  EXPECT_FALSE(hr_only->fallback_sources.has_value());  // nothing wider within the scenario
  EXPECT_FALSE(prep("公司有哪些规定").fallback_sources.has_value());  // already every source

  Config c = load_config(test::shipped_config()).value();
  c.scenarios.at("hr_helpdesk").allowed_sources = {"hr", "finance"};
  const Planner two = Planner::create(std::move(c)).value();
  auto p = two.prepare(PrepareRequest{"年假怎么申请", {}, "hr_helpdesk", std::nullopt});
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->effective_sources, std::vector<std::string>{"hr"});
  ASSERT_TRUE(p->fallback_sources.has_value());
  EXPECT_EQ(*p->fallback_sources, (std::vector<std::string>{"hr", "finance"}));
}

}  // namespace
