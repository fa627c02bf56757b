// Unit tests of the individual stages (route, intent, gateway, category, source, plan) called
// directly through their private headers.
#include <gtest/gtest.h>

#include "planning/bare_question.hpp"
#include "planning/domain_lexicon.hpp"
#include "planning/lexicon.hpp"
#include "planning/stages/category.hpp"
#include "planning/stages/evidence.hpp"
#include "planning/stages/gateway.hpp"
#include "planning/stages/intent.hpp"
#include "planning/stages/route.hpp"
#include "planning/stages/source.hpp"
#include "planning/text.hpp"
#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using namespace qaplan::internal;

const Lexicon& lex() {
  static const Lexicon l =
      Lexicon::create(load_config(test::shipped_config()).value()).value();
  return l;
}

ScannedQuery scan_only(std::string_view q) {
  return lex().scan(normalize_question(q, lex().config().input).value());
}

// The intent stage as prepare() calls it: with the keyword-suggested source.
IntentCandidate classify(std::string_view text, bool history) {
  const ScannedQuery q = scan_only(text);
  return classify_intent(q, history, suggest_source(q, lex()), lex());
}

RouteDecision route(std::string_view q, const std::string& scenario = "default",
                    std::optional<std::string> source = std::nullopt) {
  const ScannedQuery sq = scan_only(q);
  return decide_route(sq, lex().config().scenarios.at(scenario), source, suggest_source(sq, lex()),
                      ModelVerdict{}, lex());
}

// cue_hits() is scan()'s hits and only them: the same cues, in the same order, none inside an
// ignore_within phrase (这个 of 这个月), social words at the edges included.
TEST(Scan, CueHitsAreTheScansHits) {
  std::vector<CueHit> hits;
  for (std::string_view q : {"你好，这个月的差旅报销怎么走流程？谢谢", "这个怎么报销", "年假怎么申请",
                             "VPN连不上找谁", "", "谢谢"}) {
    const std::string text =
        normalize_question(q.empty() ? " x" : q, lex().config().input).value().text;
    const ScannedQuery full = lex().scan(NormalizedQuery{text, 0});
    lex().cue_hits(text, hits);
    ASSERT_EQ(hits.size(), full.hits.size()) << q;
    for (std::size_t i = 0; i < hits.size(); ++i) {
      EXPECT_EQ(hits[i].list, full.hits[i].list) << q;
      EXPECT_EQ(hits[i].begin, full.hits[i].begin) << q;
      EXPECT_EQ(hits[i].end, full.hits[i].end) << q;
    }
  }
  // 这个 alone is a cue; inside 这个月 (an ignore_within phrase) it is none.
  const auto pointer_at_start = [&](std::string_view text) {
    lex().cue_hits(text, hits);
    return std::any_of(hits.begin(), hits.end(),
                       [](const CueHit& h) { return h.begin == 0 && h.end == 6; });
  };
  EXPECT_TRUE(pointer_at_start("这个怎么报销"));
  EXPECT_FALSE(pointer_at_start("这个月怎么报销"));
  lex().cue_hits("你好", hits);
  EXPECT_FALSE(hits.empty()) << "the greeting is a cue here too";
}

// Evidence of small talk (docs/routing.md): the assistant asked for help (你能帮我选课吗) is a
// request, so it is no strong evidence — the speaker in it is weak evidence a request outweighs; a
// form of address counts at a clause's edge only (师傅在吗, 多谢老师啦), not as the person a request
// names (约个师傅明天来修).
TEST(RouteEvidenceStage, HelpAskedForAndPeopleNamedAreNoStrongSmallTalk) {
  auto chit = [](std::string_view q) {
    return act_evidence(RouteReason::kChitChat, scan_only(q), lex());
  };
  EXPECT_TRUE(chit("你会唱歌吗").strong);
  EXPECT_EQ(chit("你会唱歌吗").text, "assistant addressed");
  for (std::string_view q : {"你能帮我选课吗", "您可以帮我调一下课吗", "你能不能帮我改个时间"}) {
    const Evidence e = chit(q);
    EXPECT_FALSE(e.strong) << q << " → " << e.text;
    EXPECT_NE(e.text, "assistant addressed") << q;
  }
  EXPECT_FALSE(chit("约个师傅明天来修")) << chit("约个师傅明天来修").text;
  EXPECT_EQ(chit("师傅在吗").text, "师傅");
  EXPECT_EQ(chit("辛苦了老师").text, "老师");
  // The speaker about themselves stays weak evidence (我要睡觉, 我想静静); 我要退保 is retrieved
  // by its service verb, not by discounting 我要 (the review: 我要吃饭 is small talk).
  EXPECT_EQ(chit("我要睡觉").text, "我");
  EXPECT_EQ(chit("我想静静").text, "我");
}

// A social word a negation turns into its opposite (没明白, 收到，不明白) is no evidence of the
// social act: the message says it was not understood, never gets the acknowledgement reply.
TEST(RouteEvidenceStage, ANegatedAcknowledgementIsNoEvidence) {
  for (std::string_view q : {"没明白", "收到，不明白", "嗯，不明白"})
    EXPECT_FALSE(act_evidence(RouteReason::kAcknowledgement, scan_only(q), lex())) << q;
  EXPECT_TRUE(act_evidence(RouteReason::kAcknowledgement, scan_only("好的，明白了"), lex()));
}

// A small-talk topic the host's KB talks about (a school's 直播课: its lexicon holds 直播) is the
// host's business: no evidence of small talk. Without the KB term it still is.
TEST(RouteEvidenceStage, AnActCueTheHostsKbHoldsIsNoEvidence) {
  const ScannedQuery q = scan_only("直播课");
  EXPECT_TRUE(act_evidence(RouteReason::kChitChat, q, lex()).strong);
  EXPECT_FALSE(act_evidence(RouteReason::kChitChat, q, lex(), "直播"));
  EXPECT_TRUE(act_evidence(RouteReason::kChitChat, scan_only("今天天气怎么样"), lex(), "直播").strong);
}

TEST(Route, GreetingOnlyWhenNothingSubstantiveRemains) {
  EXPECT_EQ(route("您好！").reason, RouteReason::kGreeting);
  EXPECT_EQ(route("好的，谢谢您啦～").reason, RouteReason::kThanks);
  EXPECT_EQ(route("你好，我想查一下报销流程").reason, RouteReason::kNeedsRetrieval);
  EXPECT_EQ(route("谢谢，报销单怎么填").route, Route::kRetrieval);
  // An acknowledgement alone is answered directly too, with its own act.
  EXPECT_EQ(route("好的").reason, RouteReason::kAcknowledgement);
}

TEST(Route, HandoffWinsOverGreetingAndCarriesTheMatchedPhrase) {
  const auto d = route("你好，转人工");
  EXPECT_EQ(d.reason, RouteReason::kHandoff);
  EXPECT_EQ(d.detail, "转人工");
  EXPECT_EQ(d.route, Route::kDirectAnswer);
  EXPECT_FALSE(d.reply.empty());
  // 人工 alone is a handoff, 人工 inside a real question is not.
  EXPECT_EQ(route("人工!").reason, RouteReason::kHandoff);
  EXPECT_EQ(route("人工智能培训怎么报名").route, Route::kRetrieval);
}

TEST(Route, OutOfScopeUsesGlobalAndScenarioLists) {
  EXPECT_EQ(route("今天天气怎么样").reason, RouteReason::kOutOfScope);
  EXPECT_EQ(route("股票期权行权价怎么算", "hr_helpdesk").reason, RouteReason::kOutOfScope);
  EXPECT_EQ(route("股票期权行权价怎么算", "default").route, Route::kRetrieval);
}

TEST(Route, SourceBoundaryFromFilterOrSuggestion) {
  const auto by_filter = route("年假怎么申请", "hr_helpdesk", "finance");
  EXPECT_EQ(by_filter.reason, RouteReason::kSourceBoundary);
  EXPECT_EQ(by_filter.detail, "finance");
  const auto by_keywords = route("发票丢了如何补开", "hr_helpdesk");
  EXPECT_EQ(by_keywords.reason, RouteReason::kSourceBoundary);
  EXPECT_EQ(by_keywords.detail, "finance");
  // An explicit allowed filter wins over a suggestion outside the scenario.
  EXPECT_EQ(route("发票丢了如何补开", "hr_helpdesk", "hr").route, Route::kRetrieval);
  EXPECT_EQ(route("发票丢了如何补开", "default").route, Route::kRetrieval);
}

TEST(Source, MostHitsWinsTiesGoToTheFirstListed) {
  EXPECT_EQ(suggest_source(scan_only("报销费用超过5000需要谁审批"), lex()), "finance");
  // 员工 (hr) + 报销 + 发票 (finance): finance has more hits.
  EXPECT_EQ(suggest_source(scan_only("员工报销发票怎么贴"), lex()), "finance");
  // 年假 (hr) + 系统 (it): one each, hr is listed first.
  EXPECT_EQ(suggest_source(scan_only("年假系统在哪"), lex()), "hr");
  EXPECT_EQ(suggest_source(scan_only("帮我分析一下"), lex()), std::nullopt);
  EXPECT_EQ(effective_source(std::string("legal"), std::string("hr")), "legal");
  EXPECT_EQ(effective_source(std::nullopt, std::string("hr")), "hr");
  EXPECT_EQ(effective_source(std::nullopt, std::nullopt), std::nullopt);
}

TEST(Intent, FollowUpNeedsHistory) {
  const auto q = scan_only("那审批呢");
  EXPECT_EQ(classify_intent(q, true, std::nullopt, lex()).intent, Intent::kFollowUp);
  EXPECT_TRUE(classify_intent(q, true, std::nullopt, lex()).requires_rewrite);
  const auto alone = classify_intent(q, false, std::nullopt, lex());
  EXPECT_NE(alone.intent, Intent::kFollowUp);
  EXPECT_FALSE(alone.requires_rewrite);
}

TEST(Intent, MatchedRulesListsEveryRuleWinnerFirst) {
  // 它…吗 with history: anaphora and elliptic? 它需要审批吗 starts with 它, not 那/还有,
  // so only the anaphora rule and the FAQ rule (吗, blocked by 它) are candidates.
  const auto c = classify("那它需要审批吗", true);
  EXPECT_EQ(c.rule_id, "follow_up_anaphora");
  EXPECT_EQ(c.matched_rules, (std::vector<std::string>{"follow_up_anaphora", "follow_up_elliptic"}));
  const auto k = classify("公司会议室预约规则在哪里查看以及需要遵守哪些流程要求", false);
  EXPECT_EQ(k.rule_id, "knowledge_multi_part");
  EXPECT_EQ(k.matched_rules,
            (std::vector<std::string>{"knowledge_multi_part", "faq_standard_question"}));
}

// Two particles at the end (了呢, 了吗) close the question; they are not a filler to trim, so
// the elliptic rule still sees its 呢 / 吗. A message of nothing but such cues (好啊) is social.
TEST(Intent, ChainedParticlesStillEndTheQuestion) {
  EXPECT_EQ(classify("那工资算错了呢", true).rule_id, "follow_up_elliptic");
  EXPECT_EQ(classify("要是发票开错了呢", true).rule_id, "follow_up_elliptic");
  EXPECT_EQ(classify("那报销款到了吗", true).rule_id, "follow_up_elliptic");
  const ScannedQuery ok = lex().scan(NormalizedQuery{"好啊", 0});
  EXPECT_TRUE(ok.content().empty());
  const ScannedQuery asked = lex().scan(NormalizedQuery{"工资算错了呢", 0});
  EXPECT_EQ(asked.content(), "工资算错了呢");
}

// Questions that take their subject from the history without a pronoun of the old lists:
// a demonstrative with a classifier, a "then" opening, a short "which" with no pair of its own.
TEST(Intent, PointingAndChoosingTurnsAreFollowUps) {
  EXPECT_EQ(classify("这份规范适用于外包人员吗", true).rule_id, "follow_up_anaphora");
  EXPECT_EQ(classify("该条款能改吗", true).rule_id, "follow_up_anaphora");
  EXPECT_EQ(classify("后者要多久", true).rule_id, "follow_up_anaphora");
  EXPECT_EQ(classify("那么备案后多久生效", true).rule_id, "follow_up_then");
  EXPECT_EQ(classify("哪种到账快", true).rule_id, "follow_up_which_open");
  EXPECT_EQ(classify("两个有啥不一样", true).rule_id, "follow_up_which_open");
  // A "which" naming its own pair, or asking which office, stands alone; none without history.
  EXPECT_NE(classify("工资卡和对公转账哪种到账快", true).intent, Intent::kFollowUp);
  EXPECT_NE(classify("哪个部门负责报销", true).intent, Intent::kFollowUp);
  EXPECT_NE(classify("哪种到账快", false).intent, Intent::kFollowUp);
  EXPECT_NE(classify("这份规范适用于外包人员吗", false).intent, Intent::kFollowUp);
}

TEST(Intent, TrailingPunctuationDoesNotHideAnEnding) {
  EXPECT_EQ(classify("那病假呢？？", true).intent, Intent::kFollowUp);
  EXPECT_EQ(classify("那病假呢~😀", true).intent, Intent::kFollowUp);
}

TEST(Intent, IgnoreWithinMasksTimeExpressions) {
  const auto c = classify("这个月工资什么时候发", true);
  EXPECT_EQ(c.intent, Intent::kFaqQuery);
  EXPECT_EQ(classify("这个工资什么时候发", true).intent, Intent::kFollowUp);
}

TEST(Intent, FallbackIsDefaultKnowledge) {
  const auto c = classify("随便看看", false);
  EXPECT_EQ(c.rule_id, "default_knowledge");
  EXPECT_EQ(c.intent, Intent::kKnowledgeQuery);
  EXPECT_DOUBLE_EQ(c.score, 0.60);
  EXPECT_EQ(c.matched_rules, (std::vector<std::string>{"default_knowledge"}));
}

TEST(Gateway, RuleOnlyCopiesTheCandidate) {
  auto cand = classify("年假怎么申请", false);
  const IntentResult r = decide_intent(cand, std::nullopt, "", lex().config().intent_gateway);
  EXPECT_EQ(r.decision_policy, DecisionPolicy::kRuleOnly);
  EXPECT_DOUBLE_EQ(r.confidence, cand.score);
  EXPECT_DOUBLE_EQ(r.rule_score, cand.score);
  EXPECT_EQ(r.rule_candidate.rule_id, "faq_standard_question");
  EXPECT_FALSE(r.model_candidate.has_value());
  EXPECT_EQ(r.suggested_source, "hr");
}

TEST(Category, FirstMatchInConfigOrderAndCurrentQuestionOnly) {
  // compliance (合同) before pricing (付款).
  EXPECT_EQ(infer_question_category(scan_only("合同付款条款"), lex()), QuestionCategory::kCompliance);
  // 审批 alone is not pricing.
  EXPECT_EQ(infer_question_category(scan_only("审批信息"), lex()), QuestionCategory::kDefault);
  EXPECT_TRUE(is_table_query(scan_only("付款节点明细"), lex()));
  EXPECT_FALSE(is_table_query(scan_only("报销流程是什么"), lex()));
}

class PlanTest : public ::testing::Test {
 protected:
  static IntentResult intent(Intent i, double score) {
    IntentCandidate c;
    c.intent = i;
    c.score = score;
    c.rule_id = "test";
    return decide_intent(c, std::nullopt, "", lex().config().intent_gateway);
  }
  const RetrievalStrategyConfig& strategy() { return lex().config().retrieval_strategy; }
};

TEST_F(PlanTest, DirectAnswerIsAnError) {
  RouteDecision d;
  d.route = Route::kDirectAnswer;
  d.reason = RouteReason::kGreeting;
  auto r = build_retrieval_plan(d, intent(Intent::kFaqQuery, 0.9), {20, QuestionCategory::kDefault, false}, strategy());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().message.find("greeting"), std::string::npos);
}

TEST_F(PlanTest, DefaultsThenPatchesAndTrace) {
  auto r = build_retrieval_plan(RouteDecision{}, intent(Intent::kFaqQuery, 0.86),
                                {20, QuestionCategory::kDefault, false}, strategy());
  ASSERT_TRUE(r.ok());
  const RetrievalPlan& p = r->plan;
  EXPECT_EQ(p.reason(), "faq_first");
  EXPECT_EQ(p.knobs().doc_top_k, 10);
  EXPECT_EQ(p.knobs().faq_top_k, 20);
  EXPECT_DOUBLE_EQ(p.knobs().faq_direct_threshold, 0.64);
  EXPECT_EQ(p.knobs().max_context_chars, 6000);
  EXPECT_EQ(p.knobs().max_context_doc_chars, 1500);
  EXPECT_DOUBLE_EQ(p.knobs().min_context_score, 0.30);
  ASSERT_EQ(r->trace.fired.size(), 1u);
  EXPECT_EQ(r->trace.fired[0].id, "intent_faq");
  const auto& ch = r->trace.fired[0].changes;
  ASSERT_EQ(ch.size(), 3u);
  EXPECT_EQ(kPlanKnobs[ch[0].knob].name, "doc_top_k");
  EXPECT_DOUBLE_EQ(ch[0].before, 20);
  EXPECT_DOUBLE_EQ(ch[0].after, 10);
}

TEST_F(PlanTest, LowScoreGuardOverridesShortQueryShrinkBecauseItRunsLater) {
  auto r = build_retrieval_plan(RouteDecision{}, intent(Intent::kKnowledgeQuery, 0.6),
                                {10, QuestionCategory::kDefault, false}, strategy());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.knobs().doc_top_k, 24);  // short query lowered it to 10, the guard raised it again
  EXPECT_TRUE(r->plan.knobs().faq_direct_exact_only);
  // Reversing the two patches changes the outcome: order is part of the rules.
  RetrievalStrategyConfig swapped = strategy();
  auto& ps = swapped.patches;
  auto s = std::find_if(ps.begin(), ps.end(), [](auto& p) { return p.id == "short_query"; });
  auto l = std::find_if(ps.begin(), ps.end(), [](auto& p) { return p.id == "low_decision_score"; });
  std::iter_swap(s, l);
  auto r2 = build_retrieval_plan(RouteDecision{}, intent(Intent::kKnowledgeQuery, 0.6),
                                 {10, QuestionCategory::kDefault, false}, swapped);
  EXPECT_EQ(r2->plan.knobs().doc_top_k, 10);
  EXPECT_EQ(r2->plan.reason(), "knowledge_doc_enriched_low_rule_score_guard_short_query_guard");
}

TEST_F(PlanTest, ScoreBandsAreHalfOpen) {
  auto at = [&](double conf) {
    return build_retrieval_plan(RouteDecision{}, intent(Intent::kFaqQuery, conf),
                                {30, QuestionCategory::kDefault, false}, strategy())
        ->plan.reason();
  };
  EXPECT_EQ(at(0.69), "faq_first_low_rule_score_guard");
  EXPECT_EQ(at(0.70), "faq_first_rule_score_guard");
  EXPECT_EQ(at(0.8199), "faq_first_rule_score_guard");
  EXPECT_EQ(at(0.82), "faq_first");
}

TEST_F(PlanTest, NoPatchFiredGivesDefaultReason) {
  RetrievalStrategyConfig none = strategy();
  none.patches.clear();
  auto r = build_retrieval_plan(RouteDecision{}, intent(Intent::kFaqQuery, 0.9),
                                {30, QuestionCategory::kDefault, true}, none);
  EXPECT_EQ(r->plan.reason(), "default");
  EXPECT_FALSE(r->plan.knobs().prefer_table);  // only the table patch sets it
  EXPECT_TRUE(r->trace.fired.empty());
}

// The first word (ICU's) is what opens a question: a modal or an adverb opens its predicate; a noun
// that starts like one (会议室) is a subject. A KB term running past an opener ICU split off
// (一般|纳税人) is a subject too.
TEST(Intent, ASubjectlessQuestionOpensWithItsPredicate) {
  for (const char* q : {"需要主管签字吗", "一般几天能到账", "总共要交几份材料", "要排队吗", "能开发票吗"})
    EXPECT_TRUE(subjectless_question(scan_only(q), lex(), nullptr)) << q;
  for (const char* q : {"会议室怎么预订", "年假需要提前几天", "要不要一起吃饭", "发票"})
    EXPECT_FALSE(subjectless_question(scan_only(q), lex(), nullptr)) << q;
  EXPECT_FALSE(subjectless_question(scan_only("需要带什么材料去人事部门办理入职登记手续"), lex(), nullptr));

  ASSERT_TRUE(subjectless_question(scan_only("一般纳税人怎么认定"), lex(), nullptr));
  const std::string qdl =
      "qaplan-domain-lexicon\t1\nbuilt_from\tcorpus\tt\t" + std::string(64, 'a') +
      "\nbackground\t" + std::string(64, 'b') +
      "\ndocs\t10\nmin_df\t2\ncontrast\t8\nchat_common\t0.005\npair_share\t0.5\n"
      "source_share\t0.8\nsource_min_df\t2\nsources\tfinance\nterms\t1\nterm\tdf\tsource\tshare\n"
      "一般纳税人\t5\tfinance\t1.0000\n";
  auto kb = DomainLexicon::parse(qdl, "t.qdl");
  ASSERT_TRUE(kb.ok()) << kb.error().to_string();
  EXPECT_FALSE(subjectless_question(scan_only("一般纳税人怎么认定"), lex(), &*kb));
  EXPECT_TRUE(subjectless_question(scan_only("一般几天能到账"), lex(), &*kb));
}

}  // namespace

namespace {

// The intent stage tests each rule through its packed gate: every gate must say what its
// [[intent.rules]] entry says, and the lists it names must be the entry's.
TEST(Intent, EachRulesGateIsItsEntry) {
  const auto& rules = lex().config().intent.rules;
  const auto& gates = lex().ids().intent;
  ASSERT_EQ(gates.size(), rules.size());
  ASSERT_GT(rules.size(), 10u);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const IntentRuleConfig& r = rules[i];
    const IntentGate& g = gates[i];
    EXPECT_EQ(g.has(IntentGate::kHistory), r.requires_history) << r.id;
    EXPECT_EQ(g.has(IntentGate::kContains), !r.contains_any.empty()) << r.id;
    EXPECT_EQ(g.has(IntentGate::kUnless), !r.unless_contains_any.empty()) << r.id;
    EXPECT_EQ(g.has(IntentGate::kStarts), !r.starts_with_any.empty()) << r.id;
    EXPECT_EQ(g.has(IntentGate::kEnds), !r.ends_with_any.empty()) << r.id;
    EXPECT_EQ(g.has(IntentGate::kNoAnchor), r.without_anchor) << r.id;
    EXPECT_EQ(g.has(IntentGate::kNoQuestion), r.without_question) << r.id;
    EXPECT_EQ(g.has(IntentGate::kMaxUnits), r.max_units.has_value()) << r.id;
    if (r.max_units) EXPECT_EQ(g.max_units, *r.max_units) << r.id;
    EXPECT_EQ(g.has_min_units, r.min_units.has_value()) << r.id;
    if (r.min_units) EXPECT_EQ(g.min_units, *r.min_units) << r.id;
    // Each list holds its entry's words: a word of the entry alone is a hit of that list.
    for (const auto& entry : {std::pair{&r.contains_any, g.contains},
                              std::pair{&r.unless_contains_any, g.unless}})
      for (const std::string& w : *entry.first) {
        const std::uint32_t list = entry.second;
        std::vector<CueHit> hits;
        lex().cue_hits(w, hits);
        EXPECT_TRUE(std::any_of(hits.begin(), hits.end(), [&](const CueHit& h) {
          return h.list == list && h.begin == 0 && h.end == w.size();
        })) << r.id << " " << w;
      }
  }
}

}  // namespace
