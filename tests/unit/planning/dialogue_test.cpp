// Dialogue acts (docs/guide.md) with the model switched off: the rule half of every decision —
// whole-message dialogue acts, social words that do not count, English cues, follow-ups and topic
// switches, source carry-over, scenario narrowing — and the gateway's five policies with synthetic
// candidates and host IntentModels that fail in every way.
#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "planning/stages/gateway.hpp"
#include "qaplan/qaplan.hpp"
#include "support/planners.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

using qaplan::test::rules_only;
using qaplan::test::rules_planner;

Preparation rules_prep(const std::string& q, std::vector<std::string> history = {},
                 std::string scenario = "") {
  auto r = rules_planner().prepare(PrepareRequest{q, std::move(history), std::move(scenario), std::nullopt});
  EXPECT_TRUE(r.ok()) << q << ": " << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? std::move(r).value() : Preparation{};
}

// How many times the intent rule `id` matched the turn (0 without an intent).
long rule_matches(const Preparation& p, const char* id) {
  if (!p.intent) return 0;
  const auto& rules = p.intent->matched_rules;
  return std::count(rules.begin(), rules.end(), id);
}

std::string reason(const std::string& q, std::vector<std::string> history = {}) {
  return std::string(to_string(rules_prep(q, std::move(history)).route.reason));
}

TEST(DialogueActs, WholeSocialMessagesAnsweredWithTheirOwnAct) {
  for (const char* q : {"好的，谢谢你哈", "收到，非常感谢！", "OK，我知道了，谢谢你！", "thank u", "谢谢，再见"})
    EXPECT_EQ(reason(q), "thanks") << q;
  for (const char* q : {"好的", "嗯嗯", "收到", "明白了", "ok", "👍", "got it"})
    EXPECT_EQ(reason(q), "acknowledgement") << q;
  for (const char* q : {"再见", "拜拜啦", "先这样吧", "bye"}) EXPECT_EQ(reason(q), "goodbye") << q;
  for (const char* q : {"你好", "在吗？", "Hello!", "good morning"}) EXPECT_EQ(reason(q), "greeting") << q;
  for (const char* q : {"？？？", "😂😂", "。。。", "额"}) EXPECT_EQ(reason(q), "unclear") << q;
  for (const char* q : {"你是谁", "哈哈哈", "who are you"}) EXPECT_EQ(reason(q), "chit_chat") << q;
  for (const char* q : {"给我唱首歌", "今天股市行情怎么样", "tell me a joke"})
    EXPECT_EQ(reason(q), "out_of_scope") << q;
  for (const char* q : {"转人工", "我要人工客服", "帮我转接人工客服", "talk to a human agent"})
    EXPECT_EQ(reason(q), "handoff") << q;
  // Each act has its own reply: thanks is not answered with a greeting.
  EXPECT_NE(rules_prep("谢谢").route.reply, rules_prep("你好").route.reply);
  EXPECT_EQ(rules_prep("谢谢").route.decided_by, DecidedBy::kRule);
}

TEST(DialogueActs, ACueInsideAWorkQuestionDecidesNothing) {
  for (const char* q : {"公司年会唱歌比赛怎么报名", "食堂本周菜谱在哪里看", "今天天气不好可以申请居家办公吗",
                        "员工持股计划的股价怎么确定", "IT部门的客服电话是多少", "人工智能培训怎么报名",
                        "谢谢，报销单怎么填", "你好，我想查一下报销流程"})
    EXPECT_EQ(rules_prep(q).route.route, Route::kRetrieval) << q;
}

TEST(DialogueActs, AnExplicitHandoffClauseHandsTheWholeMessageOver) {
  // A clause that only asks for a person: the person takes the rest of the message.
  for (const char* q : {"我要转人工，报销单被退回了", "报销单被退回了，帮我转人工客服吧",
                        "转接人工客服！VPN一直连不上", "请帮我转人工, 我的工资少发了"})
    EXPECT_EQ(reason(q), "handoff") << q;
  // A short address or a handoff word inside a clause with substance is not a request.
  for (const char* q : {"客服，我的报销单被退回了怎么办", "人工客服的电话是多少",
                        "转人工之后还要等多久", "IT部门的客服电话是多少"})
    EXPECT_EQ(reason(q), "needs_retrieval") << q;
}

TEST(DialogueActs, RequestFramesTheListsCannotEnumerate) {
  // A request verb first, a request object last, nothing about work in between.
  for (const char* q : {"帮我写一首关于春天的诗", "给我讲个有趣的故事吧", "来一个冷笑话",
                        "推荐几部好看的电视剧吧", "请你编一个关于猫的谜语", "tell me a funny story"})
    EXPECT_EQ(reason(q), "out_of_scope") << q;
  // The same frame around a work word, or a question about it, stays retrieval.
  for (const char* q : {"帮我写一首关于报销流程的诗", "讲一下入职培训的故事", "写诗比赛怎么报名",
                        "推荐几部培训用的电影", "公司年会的诗歌朗诵在哪里报名", "给我讲讲年假的规定"})
    EXPECT_EQ(reason(q), "needs_retrieval") << q;
}

TEST(DialogueActs, SocialWordsDoNotCountTowardUnitsOrRules) {
  const Preparation plain = rules_prep("年假怎么申请");
  const Preparation wrapped = rules_prep("你好，请问年假怎么申请，谢谢！");
  EXPECT_EQ(wrapped.normalized.query_units, plain.normalized.query_units);
  ASSERT_TRUE(wrapped.plan && plain.plan);
  EXPECT_EQ(wrapped.plan->reason(), plain.plan->reason());
  // 好 joined to a word is not an acknowledgement: 好用吗 keeps its units.
  EXPECT_EQ(rules_prep("打印机好用吗").normalized.query_units, 6);
  // The elliptic follow-up rule reads the question, not the thanks after it.
  EXPECT_EQ(rules_prep("那审批呢，谢谢", {"报销流程是什么"}).intent->intent, Intent::kFollowUp);
}

TEST(English, QuestionsGetSourceIntentAndCategory) {
  const Preparation leave = rules_prep("How do I apply for annual leave?");
  EXPECT_EQ(leave.effective_source, "hr");
  EXPECT_EQ(leave.intent->intent, Intent::kFaqQuery);
  const Preparation vpn = rules_prep("My laptop won't connect to the VPN");
  EXPECT_EQ(vpn.effective_source, "it");
  EXPECT_EQ(vpn.plan->question_category(), QuestionCategory::kTroubleshooting);
  EXPECT_EQ(rules_prep("How much can I reimburse for a hotel night?").plan->question_category(),
            QuestionCategory::kPricing);
  // Whole words only: `hi` is no greeting inside `this`, `hr` no source inside `three`.
  EXPECT_EQ(rules_prep("what is this form for").route.route, Route::kRetrieval);
  EXPECT_EQ(rules_prep("three printers are broken").effective_source, "it");
}

TEST(FollowUps, EllipsisContinuationConditionComparison) {
  const std::vector<std::string> h = {"报销流程是什么"};
  for (const char* q : {"那审批呢", "为什么", "具体点", "然后呢", "还有呢", "如果超过了怎么办",
                        "和去年比呢", "what about sick leave"}) {
    const Preparation p = rules_prep(q, h);
    ASSERT_TRUE(p.intent) << q;
    EXPECT_EQ(p.intent->intent, Intent::kFollowUp) << q;
    EXPECT_TRUE(p.intent->requires_rewrite) << q;
  }
  // A topic switch or a complete question of its own is not a follow-up.
  for (const char* q : {"换个问题，年假怎么申请", "另外问一下，VPN账号在哪里开通"}) {
    const Preparation p = rules_prep(q, h);
    ASSERT_TRUE(p.intent) << q;
    EXPECT_NE(p.intent->intent, Intent::kFollowUp) << q;
  }
  // Without history nothing is a follow-up.
  EXPECT_NE(rules_prep("那审批呢").intent->intent, Intent::kFollowUp);
}

// 那 right before a question word (那怎么…, 那为啥…) goes on from the last turn, whatever the rest
// names (follow_up_then); 那 before a noun phrase of its own may open a new topic.
TEST(FollowUps, ThenBeforeAQuestionWordGoesOnFromTheLastTurn) {
  const std::vector<std::string> h = {"外网访问已经关闭了。"};
  for (const char* q : {"那怎么连客户系统", "那为啥内网也打不开", "那多久能恢复"}) {
    const Preparation p = rules_prep(q, h);
    ASSERT_TRUE(p.intent) << q;
    EXPECT_EQ(p.intent->intent, Intent::kFollowUp) << q;
    EXPECT_EQ(rule_matches(p, "follow_up_then"), 1) << q;
  }
  const Preparation own = rules_prep("那员工体检报告在哪下载", h);
  ASSERT_TRUE(own.intent);
  EXPECT_EQ(rule_matches(own, "follow_up_then"), 0);
}

// A short English fragment opening with "and" continues the question (follow_up_and); the rule's
// "and" is a whole word, not the start of "android".
TEST(FollowUps, AndOpensAnEnglishFragment) {
  const std::vector<std::string> h = {"Can I expense airport parking?"};
  const Preparation p = rules_prep("And hotel Wi-Fi?", h);
  ASSERT_TRUE(p.intent);
  EXPECT_EQ(p.intent->intent, Intent::kFollowUp);
  EXPECT_EQ(p.intent->rule_candidate.rule_id, "follow_up_and");
  const Preparation android = rules_prep("android tablets?", h);
  ASSERT_TRUE(android.intent);
  EXPECT_EQ(rule_matches(android, "follow_up_and"), 0);
}

// A modifier without its head (下半年的, 离职员工的？) asks about the head the history named, with a
// question mark or without; an acknowledgement ending in 的 (好的, 是的) is no follow-up.
TEST(FollowUps, AModifierWithoutItsHeadFollowsWithOrWithoutAQuestionMark) {
  const std::vector<std::string> h = {"上半年的预算什么时候批"};
  for (const char* q : {"下半年的", "下半年的？", "离职员工的?"}) {
    const Preparation p = rules_prep(q, h);
    ASSERT_TRUE(p.intent) << q;
    EXPECT_EQ(p.intent->intent, Intent::kFollowUp) << q;
  }
  for (const char* q : {"好的", "是的"}) {
    const Preparation p = rules_prep(q, h);
    EXPECT_FALSE(p.intent && p.intent->intent == Intent::kFollowUp) << q;
  }
}

// A demonstrative before a noun of the turn's own (这个报销单, 那个VPN) in a whole question that
// names another source than the previous turn is a topic switch, recorded as such; the same
// shape on the conversation's own source, a person pronoun, or no interrogative stays a
// follow-up.
TEST(FollowUps, DemonstrativeBeforeAnotherSourcesNounSwitchesTopic) {
  const Preparation sw = rules_prep("那个VPN客户端在哪下载", {"差旅报销流程"});
  ASSERT_TRUE(sw.intent);
  EXPECT_NE(sw.intent->intent, Intent::kFollowUp);
  const auto& m = sw.intent->matched_rules;
  EXPECT_NE(std::find(m.begin(), m.end(), "topic_switch_other_source"), m.end());
  for (const auto& [q, h] : std::vector<std::pair<std::string, std::string>>{
           {"这个报销单怎么填", "我刚在系统里下载了差旅报销单"},  // the same source
           {"他们的VPN怎么连", "差旅报销流程"},                  // a person pronoun points back
           {"那VPN呢", "差旅报销流程"}}) {                        // no interrogative
    const Preparation p = rules_prep(q, {h});
    ASSERT_TRUE(p.intent) << q;
    EXPECT_EQ(p.intent->intent, Intent::kFollowUp) << q;
  }
}

// The shipped config, model on: the decisions below weigh the model's dependent head.
Preparation model_prep(const std::string& q, std::vector<std::string> history) {
  static const Planner p = Planner::create(load_config(test::shipped_config()).value()).value();
  auto r = p.prepare(PrepareRequest{q, std::move(history), "", std::nullopt});
  EXPECT_TRUE(r.ok()) << q;
  return r.ok() ? std::move(r).value() : Preparation{};
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

bool tagged(const Preparation& p, const char* tag) {
  const auto& m = p.intent->matched_rules;
  return std::find(m.begin(), m.end(), tag) != m.end();
}

TEST(FollowUps, ATurnOnItsOwnOtherSourceIsNotMadeAFollowUpByTheModel) {
  // The rules are silent and the dependent head says follow-up (≥ 0.9 on these): a turn naming
  // another source than the previous one stays standalone, one on the same source follows.
  const Preparation sw =
      model_prep("Can I get a new laptop charger?", {"How many days of sick leave do I get?"});
  ASSERT_TRUE(sw.intent && sw.model);
  EXPECT_GE(sw.model->dependent_score, 0.9);
  EXPECT_NE(sw.intent->intent, Intent::kFollowUp);
  EXPECT_TRUE(tagged(sw, "topic_switch_other_source"));
  const Preparation same =
      model_prep("Can I get a new laptop charger?", {"My laptop screen is broken, who fixes it?"});
  ASSERT_TRUE(same.intent);
  EXPECT_EQ(same.intent->intent, Intent::kFollowUp);
  EXPECT_FALSE(tagged(same, "topic_switch_other_source"));
}

TEST(FollowUps, APronounWhoseAntecedentIsInTheTurnDoesNotPointBack) {
  for (const auto& [q, h] : std::vector<std::pair<std::string, std::string>>{
           {"差旅补贴、通讯补贴这些怎么发放", "VPN怎么连"},
           {"年假、病假这些怎么算工资", "打印机在哪"},
           // a person pronoun after the turn's own words: its antecedent is in the turn
           {"客户说他们没收到发票，怎么补开", "年假怎么申请"},
           {"供应商要求我们用他们的合同模板，可以吗", "VPN怎么连"}}) {
    const Preparation p = model_prep(q, {h});
    ASSERT_TRUE(p.intent) << q;
    EXPECT_NE(p.intent->intent, Intent::kFollowUp) << q;
    EXPECT_TRUE(tagged(p, "antecedent_in_turn")) << q;
  }
  // Without the list (or with the list in another clause) the pronoun points back.
  for (const auto& [q, h] : std::vector<std::pair<std::string, std::string>>{
           {"那些怎么发放", "差旅补贴和通讯补贴有哪些"},
           {"有差旅补贴、通讯补贴，那些怎么发放", "补贴有哪些"},
           {"请问他们什么时候上班", "行政部在几楼"},  // only a marker before the pronoun
           {"他们的合同模板能用吗", "供应商要求签合同"}}) {
    const Preparation p = model_prep(q, {h});
    ASSERT_TRUE(p.intent) << q;
    EXPECT_EQ(p.intent->intent, Intent::kFollowUp) << q;
    EXPECT_FALSE(tagged(p, "antecedent_in_turn")) << q;
  }
}

TEST(FollowUps, SourceCarriesOverFromHistory) {
  const Preparation p = rules_prep("审批呢", {"报销流程是什么"});
  EXPECT_EQ(p.effective_source, "finance");
  EXPECT_TRUE(p.source.detail.starts_with("carried from history")) << p.source.detail;
  // The current turn's own source wins.
  EXPECT_EQ(rules_prep("那年假呢", {"报销流程是什么"}).effective_source, "hr");
  // Not a follow-up: nothing is carried.
  EXPECT_FALSE(rules_prep("换个问题，这个怎么弄", {"报销流程是什么"}).effective_source.has_value());
}

// A keyword carried from an earlier turn is decided as that turn's own plan decided it: with the
// model, a keyword it does not confirm widens to candidates that keep the keyword's source.
TEST(FollowUps, ACarriedKeywordTheModelDoesNotConfirmWidensToCandidates) {
  const std::string asked = "IT设备台账里XH-IT-2024-0034是什么设备";
  const Preparation own = model_prep(asked, {});
  ASSERT_FALSE(own.effective_source.has_value()) << own.source.detail;
  ASSERT_GE(own.effective_sources.size(), 2u) << own.source.detail;
  const Preparation p = model_prep("它现在在哪", {asked});
  ASSERT_TRUE(p.intent);
  EXPECT_EQ(p.intent->intent, Intent::kFollowUp);
  EXPECT_FALSE(p.effective_source.has_value()) << p.source.detail;
  EXPECT_EQ(p.effective_sources, own.effective_sources);
  EXPECT_TRUE(p.source.detail.starts_with("carried from history")) << p.source.detail;
  EXPECT_TRUE(has(p.source.detail, "unconfirmed")) << p.source.detail;
  // Without a model the words are all there is: the keyword's source is the scope.
  const Preparation rules = rules_prep("它现在在哪", {asked});
  EXPECT_TRUE(rules.effective_source.has_value()) << rules.source.detail;
  EXPECT_NE(std::find(own.effective_sources.begin(), own.effective_sources.end(),
                      rules.effective_source.value_or("")),
            own.effective_sources.end());
  // A keyword the model confirms is carried as the hard scope it was.
  EXPECT_EQ(model_prep("审批呢", {"报销流程是什么"}).effective_source, "finance");
}

// A one-word reply the follow-up rules read as continuing the conversation is no unclear message.
TEST(FollowUps, AOneWordReplyToAStatementIsRetrievedNotUnclear) {
  const Preparation p = model_prep("真的吗", {"听说GTA6明年发售"});
  EXPECT_EQ(p.route.route, Route::kRetrieval) << p.route.detail;
  const Preparation alone = model_prep("真的吗", {});
  EXPECT_EQ(alone.route.route, Route::kDirectAnswer);
}

TEST(Scenarios, ARestrictedScenarioNeverRetrievesEverything) {
  const Preparation vague = rules_prep("这个怎么弄", {}, "hr_helpdesk");
  ASSERT_EQ(vague.route.route, Route::kRetrieval);
  EXPECT_FALSE(vague.effective_source.has_value());
  EXPECT_EQ(vague.effective_sources, (std::vector<std::string>{"hr"}));
  EXPECT_EQ(rules_prep("年假怎么申请", {}, "hr_helpdesk").effective_sources,
            (std::vector<std::string>{"hr"}));
  // The default scenario allows every source: no list means no filter.
  EXPECT_TRUE(rules_prep("这个怎么弄").effective_sources.empty());
  // A follow-up carrying a source the scenario does not allow is a source boundary.
  const Preparation carried = rules_prep("那审批呢", {"报销流程是什么"}, "hr_helpdesk");
  EXPECT_EQ(carried.route.reason, RouteReason::kSourceBoundary);
}

// --- gateway ---

IntentCandidate cand(Intent i, double score, const char* id = "r") {
  IntentCandidate c;
  c.intent = i;
  c.score = score;
  c.rule_id = id;
  return c;
}

TEST(Gateway, FivePolicies) {
  const GatewayConfig g = rules_only().intent_gateway;
  using internal::decide_intent;
  const auto faq = cand(Intent::kFaqQuery, 0.86);
  const auto fallback = cand(Intent::kKnowledgeQuery, 0.60, "default_knowledge");

  auto r = decide_intent(faq, std::nullopt, "", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kRuleOnly);
  EXPECT_DOUBLE_EQ(r.confidence, 0.86);

  r = decide_intent(faq, cand(Intent::kFaqQuery, 0.9, "m"), "", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kRuleModelAgree);
  EXPECT_DOUBLE_EQ(r.confidence, g.agree_score);

  r = decide_intent(faq, cand(Intent::kKnowledgeQuery, 0.9, "m"), "", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kConflict);
  EXPECT_EQ(r.intent, Intent::kFaqQuery);
  EXPECT_DOUBLE_EQ(r.confidence, g.conflict_final_score);

  r = decide_intent(fallback, cand(Intent::kFaqQuery, 0.9, "m"), "", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kModelOverride);
  EXPECT_EQ(r.intent, Intent::kFaqQuery);
  EXPECT_DOUBLE_EQ(r.confidence, 0.9);

  // A fallback the model merely agrees with keeps its low score (and the conservative plan).
  r = decide_intent(fallback, cand(Intent::kKnowledgeQuery, 0.95, "m"), "", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kRuleOnly);
  EXPECT_DOUBLE_EQ(r.confidence, 0.60);

  // A model below model_min_score changes nothing but is recorded.
  r = decide_intent(faq, cand(Intent::kKnowledgeQuery, g.model_min_score - 0.01, "m"), "", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kRuleOnly);
  ASSERT_TRUE(r.model_candidate.has_value());

  r = decide_intent(faq, std::nullopt, "timeout", g);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kModelFailed);
  EXPECT_EQ(r.intent, Intent::kFaqQuery);
  EXPECT_EQ(r.model_error, "timeout");

  // FOLLOW_UP from the model requires a rewrite.
  r = decide_intent(fallback, cand(Intent::kFollowUp, 0.9, "m"), "", g);
  EXPECT_TRUE(r.requires_rewrite);
}

// A host model that behaves as configured.
class FakeModel : public IntentModel {
 public:
  enum class Mode { kFaq, kError, kThrow, kSlow, kBadScore };
  explicit FakeModel(Mode m) : mode_(m) {}
  std::string_view name() const override { return "fake"; }
  Result<IntentCandidate> classify(const IntentModelInput& in) const override {
    switch (mode_) {
      case Mode::kFaq: return cand(Intent::kFaqQuery, 0.95, "");
      case Mode::kError: return make_error(ErrorCode::kInternal, "backend down");
      case Mode::kThrow: throw std::runtime_error("boom");
      case Mode::kSlow:
        std::this_thread::sleep_for(in.budget + std::chrono::milliseconds(2));
        return cand(Intent::kFaqQuery, 0.95, "");
      case Mode::kBadScore: return cand(Intent::kFaqQuery, 1.5, "");
    }
    return cand(Intent::kFaqQuery, 0.95, "");
  }

 private:
  Mode mode_;
};

TEST(Gateway, HostModelFailuresLeaveTheRuleStanding) {
  const std::string q = "年假怎么申请";
  for (auto mode : {FakeModel::Mode::kError, FakeModel::Mode::kThrow, FakeModel::Mode::kSlow,
                    FakeModel::Mode::kBadScore}) {
    PlannerOptions opts;
    opts.intent_model = std::make_shared<FakeModel>(mode);
    auto p = Planner::create(rules_only(), opts).value();
    auto r = p.prepare({q, {}, "", std::nullopt});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->intent->decision_policy, DecisionPolicy::kModelFailed);
    EXPECT_FALSE(r->intent->model_error.empty());
    EXPECT_EQ(r->intent->intent, Intent::kFaqQuery);  // the rule's
    EXPECT_EQ(r->plan->reason(), rules_prep(q).plan->reason());
  }
  PlannerOptions ok;
  ok.intent_model = std::make_shared<FakeModel>(FakeModel::Mode::kFaq);
  // A 1 s budget: an instant model must not count as timed out because a loaded 2-core CI
  // machine (or TSan) preempted the call for longer than the shipped 2 ms.
  Config roomy = rules_only();
  roomy.intent_gateway.model_budget_us = 1'000'000;
  auto p = Planner::create(roomy, ok).value();
  auto r = p.prepare({q, {}, "", std::nullopt});
  EXPECT_EQ(r->intent->decision_policy, DecisionPolicy::kRuleModelAgree);
  EXPECT_EQ(r->intent->model_candidate->rule_id, "fake");
}

}  // namespace
