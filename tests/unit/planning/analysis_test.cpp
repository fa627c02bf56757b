// Planner::analyze (docs/guide.md, query analysis) — rewrite, variants (glossary, hooks validated
// fail-closed), routing, execution path, fallback ladder, prompt profile and the cost ledger. The
// model is off so every expectation follows from the rules in config/rules.toml.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <random>
#include <thread>

#include "planning/analysis/constraints.hpp"
#include "qaplan/qaplan.hpp"
#include "support/planners.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using internal::id_shapes;

using qaplan::test::rules_only;
using qaplan::test::rules_planner;

struct Both {
  Preparation prep;
  QueryAnalysis a;
};

Both analyze(const Planner& p, const std::string& q, std::vector<std::string> history = {},
             AnalysisContext ctx = {}) {
  auto prep = p.prepare(PrepareRequest{q, std::move(history), "", std::nullopt});
  EXPECT_TRUE(prep.ok()) << q;
  if (!prep.ok()) return {};
  auto a = p.analyze(*prep, ctx);
  EXPECT_TRUE(a.ok()) << q << ": " << (a.ok() ? "" : a.error().to_string());
  if (!a.ok()) return {};
  return {std::move(prep).value(), std::move(a).value()};
}

Both analyze(const std::string& q, std::vector<std::string> history = {}, AnalysisContext ctx = {}) {
  return analyze(rules_planner(), q, std::move(history), std::move(ctx));
}

int count_kind(const QueryAnalysis& a, std::string_view kind) {
  return static_cast<int>(std::count_if(a.variants.begin(), a.variants.end(),
                                        [&](const QueryVariant& v) { return v.kind == kind; }));
}

bool has(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

std::vector<std::string> kinds(const QueryAnalysis& a) {
  std::vector<std::string> out;
  for (const auto& v : a.variants) out.push_back(v.kind);
  return out;
}

// ---- constraints and shapes ----------------------------------------------------------------

TEST(Constraints, IdShapesAreIdsAndGradesQuartersDatesAmountsAreNot) {
  for (const char* id : {"e1001", "po-2024-001", "0x80070005", "v8.16", "2.3.1", "20240301123",
                         "sku-889x", "win11"}) {
    const auto ids = id_shapes(std::string("查一下 ") + id + " 的情况");
    ASSERT_EQ(ids.size(), 1u) << id;
    EXPECT_EQ(ids[0], id);
  }
  for (const char* text : {"p4出差住宿标准", "q3的预算", "2024-03-05的会议", "报销100000元要谁批",
                           "16gb内存", "3rd floor", "10:30开会", "2024年3月"})
    EXPECT_TRUE(id_shapes(text).empty()) << text;
}

TEST(Constraints, NumbersIdsAndEntitiesMustSurvive) {
  const internal::WordSet fw(rules_only().rewrite.function_words);
  const auto c = internal::extract_constraints("vpn连不上报错0x80070005，超过5000元怎么办", fw);
  EXPECT_EQ(c.numbers, (std::vector<std::string>{"5000"}));  // 80070005 is inside the ID
  EXPECT_EQ(c.ids, (std::vector<std::string>{"0x80070005"}));
  EXPECT_NE(std::find(c.entities.begin(), c.entities.end(), "vpn"), c.entities.end());
  EXPECT_EQ(internal::check_variant(c, "vpn报错0x80070005且金额超过5000元的处理", false), "");
  EXPECT_EQ(internal::check_variant(c, "vpn报错0x80070005的处理", false), "drops the number 5000");
  EXPECT_EQ(internal::check_variant(c, "报错0x80070005超过5000元", false), "drops the entity vpn");
  EXPECT_EQ(internal::check_variant(c, "vpn报错0x80070005超过5000元 2024年", false),
            "adds the number 2024");
  // A hypothetical passage may add numbers but still keeps the question's.
  EXPECT_EQ(internal::check_variant(c, "vpn报错0x80070005时，5000元以上需在2024年前处理", true), "");
  // Quoted titles and names ICU does not know are entities.
  const auto q = internal::extract_constraints("《员工手册》里姚笛的职位", fw);
  EXPECT_NE(std::find(q.entities.begin(), q.entities.end(), "员工手册"), q.entities.end());
  EXPECT_NE(std::find(q.entities.begin(), q.entities.end(), "姚笛"), q.entities.end());
}

TEST(Constraints, HookOutputMustBeANonEmptyJsonArrayOfStrings) {
  EXPECT_TRUE(internal::parse_hook_output(R"(["a","b"])").ok());
  for (const char* bad : {"", "not json", "{\"a\":1}", "[]", "[\"a\", 3]", "[\"a\"] trailing", "\"a\""})
    EXPECT_FALSE(internal::parse_hook_output(bad).ok()) << bad;
  EXPECT_FALSE(internal::parse_hook_output("[\"" + std::string(70000, 'a') + "\"]").ok());
}

// WordSet answers exactly what a search of its list answers, for words of every length its hash
// reads differently (empty, under four bytes, four to eight, longer) and for near misses.
TEST(Constraints, WordSetAnswersAsItsList) {
  std::vector<std::string> list = rules_only().rewrite.function_words;
  for (const std::string w : {"a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghijklmnopq",
                              "what about", "几", "几个", "接下来", "一二三四五六七八"})
    list.push_back(w);
  const internal::WordSet set(list);
  std::vector<std::string> probes = list;
  for (const std::string& w : list) {
    probes.push_back(w + "x");
    probes.push_back("x" + w);
    if (!w.empty()) probes.push_back(w.substr(0, w.size() - 1));
    if (w.size() > 1) probes.push_back(w.substr(1));
  }
  probes.push_back("");
  for (const std::string& p : probes)
    EXPECT_EQ(set.contains(p), std::find(list.begin(), list.end(), p) != list.end()) << p;
}

// ascii_tokens and the number runs skip non-ASCII bytes eight at a time: on random texts of Han,
// letters, digits and separators, the tokens and numbers are those a byte-at-a-time reading finds.
TEST(Constraints, AsciiTokensAndNumbersAsReadByteByByte) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto alnum = [&](char c) { return letter(c) || digit(c); };
  auto inner = [](char c) {
    return c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || c == '#';
  };
  const std::vector<std::string> pieces = {"年假", "的", "，", "a", "Zx", "7", "0012", "-", ".", "/",
                                           " ", "v8.16", "po-77", "元", "\xE4", "😀"};
  std::mt19937 rng(17);
  for (int i = 0; i < 20000; ++i) {
    std::string t;
    for (std::size_t n = rng() % 14; n > 0; --n) t += pieces[rng() % pieces.size()];
    std::vector<std::pair<std::uint32_t, std::uint32_t>> want;
    for (std::size_t b = 0; b < t.size();) {
      if (!alnum(t[b])) { ++b; continue; }
      std::size_t e = b;
      while (e < t.size() && (alnum(t[e]) || (inner(t[e]) && e + 1 < t.size() && alnum(t[e + 1]))))
        ++e;
      want.emplace_back(b, e);
      b = e;
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
    for (const internal::AsciiToken& k : internal::ascii_tokens(t))
      got.emplace_back(k.begin, k.end);
    ASSERT_EQ(got, want) << t;
    std::vector<std::string> numbers;
    for (std::size_t b = 0; b < t.size();) {
      if (!digit(t[b])) { ++b; continue; }
      std::size_t e = b;
      while (e < t.size() && digit(t[e])) ++e;
      if (!((b > 0 && letter(t[b - 1])) || (e < t.size() && letter(t[e])))) {
        std::size_t z = b;
        while (z + 1 < e && t[z] == '0') ++z;
        const std::string n = t.substr(z, e - z);
        if (std::find(numbers.begin(), numbers.end(), n) == numbers.end()) numbers.push_back(n);
      }
      b = e;
    }
    ASSERT_EQ(internal::extract_constraints(t, internal::WordSet()).numbers, numbers) << t;
  }
}

// ---- rewrite ---------------------------------------------------------------------------------

TEST(AnalysisRewrite, FollowUpIsRewrittenWithHistoryAndRetrievedWithout) {
  const auto r = analyze("那审批呢", {"报销流程是什么"});
  ASSERT_EQ(r.prep.intent->intent, Intent::kFollowUp);
  EXPECT_TRUE(r.a.rewrite.rewritten);
  EXPECT_TRUE(has(r.a.rewrite.query, "报销")) << r.a.rewrite.query;
  EXPECT_TRUE(has(r.a.rewrite.query, "审批")) << r.a.rewrite.query;
  // The original first, always; the rewrite second.
  ASSERT_GE(r.a.variants.size(), 2u);
  EXPECT_EQ(r.a.variants[0].kind, "original");
  EXPECT_EQ(r.a.variants[0].text, "那审批呢");
  EXPECT_EQ(r.a.variants[1].kind, "rewrite");
  EXPECT_EQ(r.a.variants[1].text, r.a.rewrite.query);
  // The hook's summary keeps the entity explicit.
  EXPECT_TRUE(has(r.a.rewrite.history_summary, "[上下文]"));
  EXPECT_TRUE(has(r.a.rewrite.history_summary, "[当前] 那审批呢"));
}

TEST(AnalysisRewrite, PersonPronounTakesTheNameFromHistory) {
  const auto r = analyze("她多大了", {"你喜欢姚笛吗"});
  if (r.prep.route.route == Route::kDirectAnswer) GTEST_SKIP() << "routed as chit-chat";
  EXPECT_EQ(r.a.rewrite.query, "姚笛多大了");
}

TEST(AnalysisRewrite, StandaloneQuestionIsNotRewritten) {
  for (const auto& [q, h] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"年假怎么申请", {}}, {"差旅住宿标准是多少", {"年假怎么申请"}}}) {
    const auto r = analyze(q, h);
    EXPECT_FALSE(r.a.rewrite.rewritten) << q;
    EXPECT_EQ(r.a.rewrite.query, r.prep.normalized.text) << q;
    EXPECT_EQ(r.a.variants.front().kind, "original");
    EXPECT_EQ(count_kind(r.a, "rewrite"), 0) << q;
  }
}

TEST(AnalysisRewrite, TopicSwitchDoesNotDragTheOldTopic) {
  const auto r = analyze("换个问题，会议室怎么预定", {"年假怎么申请"});
  EXPECT_NE(r.prep.intent->intent, Intent::kFollowUp);
  EXPECT_FALSE(has(r.a.rewrite.query, "年假")) << r.a.rewrite.query;
}

// A subjectless continuation carries the topic with the word the previous question asked about
// (docs/rewrite.md, subject carry) — not a lone character, not across a negation, not when the turn
// has its own subject. The shipped model is on: without it the rules leave these turns standalone.
TEST(AnalysisRewrite, SubjectlessContinuationCarriesTheTopicAndItsPredicate) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  const std::vector<std::array<std::string, 4>> cases = {
      {"年假怎么申请", "需要提前几天", "年假申请需要提前几天", "topic_prefix:predicate"},
      {"公积金可以提取吗", "要什么条件", "公积金提取要什么条件", "topic_prefix:predicate"},
      {"报销单在哪里领", "需要带什么", "报销单需要带什么", "topic_prefix"},     // 领: one character
      {"合同为什么不能续签", "需要什么材料", "合同需要什么材料", "topic_prefix"},  // negation between
      {"年假怎么申请", "审批要多久", "年假审批要多久", "topic_prefix"},          // its own subject
  };
  for (const auto& [history, turn, want, reason] : cases) {
    const auto r = analyze(shipped, turn, {history});
    EXPECT_EQ(r.a.rewrite.query, want) << history << " / " << turn;
    EXPECT_EQ(r.a.rewrite.reasons, std::vector<std::string>{reason}) << history << " / " << turn;
  }
}

// A previous question that was bare itself (需要提前几天, 人多吗) is read through the turns before
// it: its verb is no topic (提前最多能休几天, 香山人多爬了多久 before), the topic it continued is. A
// previous question with its own source keyword (年假有几天) stays as it is.
TEST(AnalysisRewrite, ABarePreviousQuestionLendsTheTopicItContinued) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  const std::vector<std::pair<std::vector<std::string>, std::array<std::string, 2>>> cases = {
      {{"年假怎么申请", "需要提前几天"}, {"最多能休几天", "年假申请最多能休几天"}},
      {{"我周末去爬了香山", "人多吗", "多，山顶全是人"}, {"爬了多久", "香山爬了多久"}},
      {{"PS5我已经买了", "多少钱买的", "三千五"}, {"好抢吗", "ps5好抢吗"}},
      {{"病假怎么请", "年假有几天"}, {"要提前多久", "年假要提前多久"}},
  };
  for (const auto& [history, turn] : cases) {
    const auto r = analyze(shipped, turn[0], history);
    EXPECT_EQ(r.a.rewrite.query, turn[1]) << history.back() << " / " << turn[0];
  }
}

// 这个 with a lone character of the antecedent's head (这个证 for PMP证书) stands for the thing
// whole, the character not repeated; a count opening the speaker's object (一只橘猫) is no part
// of the thing 它 / 这个 stands for.
TEST(AnalysisRewrite, APronounTakesTheThingNotItsCountOrAHeadCharacterTwice) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  const std::vector<std::pair<std::vector<std::string>, std::array<std::string, 2>>> cases = {
      {{"我在考PMP证书"}, {"这个证有用吗", "pmp证书有用吗"}},
      {{"工资卡在哪办"}, {"这个卡丢了怎么办", "工资卡丢了怎么办"}},
      {{"我养了一只橘猫"}, {"这个叫什么", "橘猫叫什么"}},
      {{"我买了一台空气炸锅", "好用吗", "挺好用的"}, {"多少钱", "空气炸锅多少钱"}},
  };
  for (const auto& [history, turn] : cases) {
    const auto r = analyze(shipped, turn[0], history);
    EXPECT_EQ(r.a.rewrite.query, turn[1]) << history.back() << " / " << turn[0];
  }
}

// "What about X, <question>" is a follow-up (rule follow_up_ellipsis_clause): X takes its
// parallel item's place in the topic, else stands beside it; a "which" question compares X with
// the topic in the previous question's frame.
TEST(AnalysisRewrite, WhatAboutXThenAQuestionAsksItOfX) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  const std::vector<std::array<std::string, 4>> cases = {
      {"年假怎么请", "病假呢，要什么材料", "病假要什么材料", "about_clause:parallel"},
      {"差旅报销现在要多少天内提交", "老版本呢，宽松多少", "差旅报销老版本宽松多少", "about_clause"},
      {"报销超过多少要CFO审批", "对外付款呢，哪个门槛更高", "报销和对外付款超过多少要cfo审批哪个门槛更高",
       "about_clause:which"},
  };
  for (const auto& [history, turn, want, reason] : cases) {
    const auto r = analyze(shipped, turn, {history});
    ASSERT_TRUE(r.prep.intent) << turn;
    EXPECT_EQ(r.prep.intent->intent, Intent::kFollowUp) << turn;
    EXPECT_EQ(r.a.rewrite.query, want) << turn;
    EXPECT_EQ(r.a.rewrite.reasons, std::vector<std::string>{reason}) << turn;
  }
}

// A modifier fragment (B类的呢) takes its parallel item's place as that item stood: no 的 comes in
// inside a phrase that had none; an item opening the topic keeps its 的 (销售中心的年会).
TEST(AnalysisRewrite, AParallelModifierStandsAsItsParallelStood) {
  EXPECT_EQ(analyze("B类的呢", {"普通员工境外A类住宿上限多少"}).a.rewrite.query, "普通员工境外b类住宿上限多少");
  EXPECT_EQ(analyze("销售中心的", {"研发中心年会在哪办"}).a.rewrite.query, "销售中心的年会在哪办");
  EXPECT_EQ(analyze("去年的呢", {"今年的体检什么时候"}).a.rewrite.query, "去年的体检什么时候");
}

// A bare why after a yes-or-no question asks why of what it proposed, its negation or modal kept
// (试用期不能年假为什么 before); after a question word's question the topic still goes in front.
TEST(AnalysisRewrite, WhyAfterAYesNoQuestionAsksWhyOfIt) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  const std::vector<std::pair<std::vector<std::string>, std::array<std::string, 2>>> cases = {
      {{"试用期不能请年假吗", "按公司规定，试用期员工不能申请带薪年假。"}, {"为什么", "为什么试用期不能请年假"}},
      {{"年假可以跨年吗"}, {"为啥呢", "为啥年假可以跨年"}},
  };
  for (const auto& [history, turn] : cases) {
    const auto r = analyze(shipped, turn[0], history);
    EXPECT_EQ(r.a.rewrite.query, turn[1]) << history.front();
    EXPECT_EQ(r.a.rewrite.reasons, std::vector<std::string>{"why_of_question"}) << history.front();
  }
  const auto wh = analyze(shipped, "为什么", {"年假怎么申请"});
  EXPECT_NE(wh.a.rewrite.reasons, std::vector<std::string>{"why_of_question"});
}

// "What else" after a question word's question asks it again for more: 还 after its topic.
// 他 / 它 inside 其他 / 其它 are no pronouns ([matching] ignore_within).
TEST(AnalysisRewrite, WhatElseAsksThePreviousQuestionForMore) {
  EXPECT_EQ(analyze("还有呢", {"离职需要办哪些手续", "需要提交离职申请、完成工作交接并归还公司资产。"})
                .a.rewrite.query,
            "离职还需要办哪些手续");
  EXPECT_EQ(analyze("还有吗", {"报销需要什么材料"}).a.rewrite.query, "报销还需要什么材料");
  for (const char* q : {"其他呢", "其它部门呢"}) {
    const auto r = analyze(q, {"报销需要什么材料"});
    for (const std::string& why : r.a.rewrite.reasons) EXPECT_FALSE(why.starts_with("pronoun")) << q;
  }
}

// A condition's lone verb with 了 gets back the object the previous question gave that verb
// (请了 + 试用期能请病假吗 → 请了病假); an object the topic already holds is not repeated.
TEST(AnalysisRewrite, AConditionsVerbGetsItsObjectBack) {
  EXPECT_EQ(analyze("如果请了会影响转正吗", {"试用期能请病假吗"}).a.rewrite.query,
            "如果试用期请了病假会影响转正吗");
  EXPECT_EQ(analyze("要是丢了呢", {"工牌在哪领"}).a.rewrite.query, "工牌要是丢了怎么办");
}

// Runs of one-character words ICU cut alike (按|月|付 beside 年|付) are parallel when they end in
// the same character: the fragment takes the run's place (was 按月付的年付怎么退款).
TEST(AnalysisRewrite, RunsOfLoneCharactersEndingAlikeAreParallel) {
  EXPECT_EQ(analyze("那按月付的呢", {"Pro版年付怎么退款"}).a.rewrite.query, "pro版按月付怎么退款");
  EXPECT_EQ(analyze("那月付的呢", {"Pro版年付怎么退款"}).a.rewrite.query, "pro版月付怎么退款");
  // A run ends at a function word (店|的|大|床|房): the item is 大床房, not 店的大床房.
  EXPECT_EQ(analyze("双床房呢", {"云栖酒店西湖店的大床房今晚还有吗"}).a.rewrite.query,
            "云栖酒店西湖店的双床房今晚还有吗");
}

// With no question in the window, a bare question continues the user's own statement (我…), not
// the answer after it (was 需提交身份证正反面照片…提交审核要几天).
TEST(AnalysisRewrite, ABareQuestionContinuesTheUsersStatementNotTheAnswer) {
  EXPECT_EQ(analyze("审核要几天", {"我想申请修改实名认证",
                                   "需提交身份证正反面照片和手持身份证照片，在客服中心提交。"})
                .a.rewrite.query,
            "申请修改实名认证审核要几天");
  // A wish or plan without 我 is the speaker's too (想给孩子办儿童票).
  EXPECT_EQ(analyze("要量身高吗", {"想给孩子办儿童票", "1.3米以下儿童可购儿童票，半价优惠。"})
                .a.rewrite.query,
            "给孩子办儿童票要量身高吗");
  // The user's own later turn is no answer: it stays what the question continues.
  EXPECT_EQ(analyze("下一步干嘛", {"我在跟一家供应商签采购合同", "合同审批完了"}).a.rewrite.query,
            "合同审批完了下一步干嘛");
}

// A fragment asked of a topic of several words takes the place of its leading words, a run of
// lone characters counting as one word on either side (狗|狗, 华|为): the head stays (was 狗狗多少钱,
// 小米怎么开高帧率). A word and a name ICU did not know (厦门|鼓|浪|屿) is replaced whole; a fragment
// ending in a character of the next word abbreviates both (网银 of 手机|银行).
TEST(AnalysisRewrite, AFragmentTakesTheModifiersPlaceAndTheHeadStays) {
  EXPECT_EQ(analyze("狗狗呢", {"猫咪绝育手术多少钱"}).a.rewrite.query, "狗狗绝育手术多少钱");
  EXPECT_EQ(analyze("小米呢", {"华为手机怎么开高帧率"}).a.rewrite.query, "小米手机怎么开高帧率");
  EXPECT_EQ(analyze("巴萨呢", {"皇马今年欧冠出线了吗"}).a.rewrite.query, "巴萨今年欧冠出线了吗");
  EXPECT_EQ(analyze("那曾厝垵呢", {"厦门鼓浪屿要门票吗"}).a.rewrite.query, "曾厝垵要门票吗");
  EXPECT_EQ(analyze("网银呢", {"手机银行单日转账限额是多少"}).a.rewrite.query,
            "网银单日转账限额是多少");
}

// A one-character verb opening the fragment aligns with the same verb in the question: only its
// object is replaced (was 你们测血糖血压免费吗). A quantity in the same unit replaces the number
// (was 狗狗体重5公斤吃 20公斤呢, the fallback after 公斤 doubled).
TEST(AnalysisRewrite, AFragmentsVerbOrUnitAlignsWithTheQuestions) {
  EXPECT_EQ(analyze("测血糖呢", {"你们店测血压免费吗"}).a.rewrite.query, "你们店测血糖免费吗");
  EXPECT_EQ(analyze("20公斤呢", {"狗狗体重5公斤吃多少驱虫药"}).a.rewrite.query,
            "狗狗体重20公斤吃多少驱虫药");
  // A place after 去 / 到 / 从 takes the place after the question's own (was the topic's place).
  EXPECT_EQ(analyze("去上海呢", {"从北京去广州的高铁要多久"}).a.rewrite.query, "从北京去上海的高铁要多久");
  EXPECT_EQ(analyze("到深圳呢", {"寄一箱水果到杭州要几天"}).a.rewrite.query, "寄一箱水果到深圳要几天");
  // An ASCII name goes on over its number (Model 3): the fragment takes the whole name's place.
  EXPECT_EQ(analyze("小鹏G6呢", {"Model 3能用国标快充桩吗"}).a.rewrite.query, "小鹏g6能用国标快充桩吗");
}

// English "what about": chat shorthand (what abt) is the marker too, and the fragment replaces
// as many words as it has, ending at its head — not a quantity before them (how much …).
TEST(AnalysisRewrite, WhatAbtReplacesTheParallelWordsOnly) {
  EXPECT_EQ(analyze("what abt adoption leave", {"How much paternity leave do we get?"}).a.rewrite.query,
            "how much adoption leave do we get");
  EXPECT_EQ(analyze("How about Shanghai?", {"What's the hotel limit in Beijing?"}).a.rewrite.query,
            "what's the hotel limit in shanghai");
}

// A word that only says when is no topic (周末|去吃了鮨然 → 鮨然), and a fragment that only says when
// asks the previous question at that time: in its time word's place, else in front.
TEST(AnalysisRewrite, TimeWordsFrameAQuestionTheyAreNotItsTopic) {
  EXPECT_EQ(analyze("平时呢", {"你周末一般干嘛"}).a.rewrite.query, "你平时一般干嘛");
  EXPECT_EQ(analyze("那平时呢", {"周末加班费怎么算"}).a.rewrite.query, "平时加班费怎么算");
  EXPECT_EQ(analyze("人均多少", {"周末去吃了鮨然", "好吃吗", "好吃，就是太贵了"}).a.rewrite.query,
            "鮨然人均多少");
}

// 这 / 这个 as the subject of a modal or of 算 stand for the act the previous question asked about:
// its thing and the verb after its question word, or the event it reported. As the subject of
// 是 it stays a thing.
TEST(AnalysisRewrite, ThisBeforeAModalStandsForTheAct) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  EXPECT_EQ(analyze(shipped, "这个要排队吗", {"公司的车位怎么申请"}).a.rewrite.query, "车位申请要排队吗");
  EXPECT_EQ(analyze(shipped, "这算违规吗", {"电脑装了盗版软件会怎样"}).a.rewrite.query,
            "电脑装盗版软件算违规吗");
  const auto thing = analyze(shipped, "这个是什么", {"XH-Connect在哪下载"});
  EXPECT_EQ(thing.a.rewrite.reasons, std::vector<std::string>{"pronoun"});
}

// A short answer to a choice states the question's frame with the alternative chosen; a modal ICU
// glued to the first alternative's verb (想|去) stays in the frame.
TEST(AnalysisRewrite, AnAnswerToAChoiceKeepsTheQuestionsModal) {
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  EXPECT_EQ(analyze(shipped, "面条", {"晚上我做饭", "好呀", "你想吃米饭还是面条"}).a.rewrite.query, "我想吃面条");
  EXPECT_EQ(analyze(shipped, "出去吃", {"中午一起吃饭吗", "好啊，你想去食堂还是出去吃"}).a.rewrite.query,
            "我想出去吃");
}

// A letter code and the character naming what it designates (A类, B区) are one word: the topic
// is the whole phrase, not the words before the code (境外跟b类的差多少 before).
TEST(AnalysisRewrite, ALetterCodeWithItsClassIsOneWord) {
  const auto r = analyze("跟B类的差多少", {"境外A类经理级住宿上限"});
  EXPECT_EQ(r.a.rewrite.query, "境外a类经理级住宿上限跟b类的差多少");
  EXPECT_EQ(r.a.rewrite.topic_anchor, "境外a类经理级住宿上限");
}

// The glossary's terms are whole words in the rewriter's word break ([rewrite] domain_word_break):
// ICU cuts 供应商 as 供应|商, so without them the topic was 供应 (供应需要谁审批). ICU's 差|旅费 and
// 门禁|卡 need no glossary any more: the fragment's compound 招待|费 parallels as many words of
// the history (差|旅费), and a fragment of two words (工|卡) is no aspect to insert beside 门禁
// (门禁工卡卡, the doubled 卡 that fell back) but the topic's parallel.
TEST(AnalysisRewrite, GlossaryTermsAreWholeWordsInTheRewrite) {
  struct Case {
    std::string history, turn, want;
    bool needs_glossary;
  };
  const std::vector<Case> cases = {
      {"差旅费怎么报销", "那招待费呢", "招待费怎么报销", false},
      {"门禁卡丢了怎么办", "那工卡呢", "工卡丢了怎么办", false},
      {"供应商合同模板在哪下载", "需要谁审批", "供应商合同模板下载需要谁审批", true},
  };
  Config off = rules_only();
  off.rewrite.domain_word_break = false;
  const Planner icu_only = Planner::create(std::move(off)).value();
  for (const auto& c : cases) {
    EXPECT_EQ(analyze(c.turn, {c.history}).a.rewrite.query, c.want) << c.history << " / " << c.turn;
    EXPECT_EQ(analyze(icu_only, c.turn, {c.history}).a.rewrite.query == c.want, !c.needs_glossary)
        << c.history << " / " << c.turn;
  }
}

// A fragment's item replaces the whole parallel item of the history, never part of a word: a
// run of one-character words ICU cut from a word it does not know (二|线 of 二线城市), a code's
// letter (A类), a compound whose head holds the history's word (竞业协议 over 保密|协议) or
// whose lone head character follows a word (财务|章 over 合同|专用章); an elaboration request
// after a named topic asks about the topic, never stands in its place.
TEST(AnalysisRewrite, ParallelItemsReplaceWholeWords) {
  const std::vector<std::array<std::string, 3>> cases = {
      {"二线城市出差住宿标准是多少", "那一线城市呢", "一线城市出差住宿标准是多少"},
      {"境外A类城市住宿标准是多少", "B类呢", "境外b类城市住宿标准是多少"},
      {"试用期员工能签保密协议吗", "那竞业协议呢", "试用期员工能签竞业协议吗"},
      {"合同专用章谁保管", "财务章呢", "财务章谁保管"},
      {"员工餐厅早餐几点", "午餐呢", "员工餐厅午餐几点"},
      {"合同里的违约金条款", "说清楚一点", "说清楚一点合同里的违约金条款"},
      {"直属主管审批即可。", "说清楚一点", "直属主管审批即可说清楚一点"},
  };
  for (const auto& [history, turn, want] : cases)
    EXPECT_EQ(analyze(turn, {history}).a.rewrite.query, want) << history << " / " << turn;
}

// An English "it" stands for the whole noun phrase, its definite determiner or possessive
// included (the expense form, our vpn); an indefinite "a" is not carried.
TEST(AnalysisRewrite, EnglishPronounKeepsTheDeterminer) {
  EXPECT_EQ(analyze("who signs it", {"Where do I find the expense form?"}).a.rewrite.query,
            "who signs the expense form");
  EXPECT_EQ(analyze("does it work on mac", {"Where is our VPN client?"}).a.rewrite.query,
            "does our vpn client work on mac");
  EXPECT_EQ(analyze("can it be changed", {"Who approves the travel budget?"}).a.rewrite.query,
            "can the travel budget be changed");
}

// ---- glossary --------------------------------------------------------------------------------

TEST(AnalysisGlossary, OnlyTheEffectiveSourcesGlossaryExpands) {
  // A knowledge question (variants on) whose source is hr: 年休假 → 年假 is an hr term.
  const auto r = analyze("年休假和病假在制度里分别是怎么规定的，有什么区别");
  ASSERT_TRUE(r.prep.plan->knobs().use_query_variants) << r.prep.plan->reason();
  ASSERT_EQ(r.prep.effective_source.value_or(""), "hr");
  const auto it = std::find_if(r.a.variants.begin(), r.a.variants.end(),
                               [](const QueryVariant& v) { return v.kind == "glossary"; });
  ASSERT_NE(it, r.a.variants.end());
  EXPECT_EQ(it->origin, "hr");
  EXPECT_EQ(it->text, "年假和病假在制度里分别是怎么规定的,有什么区别");
  // The standard term already there (年假 inside 带薪年假): nothing to add, and it says so.
  const auto same = analyze("带薪年假和病假在制度里分别是怎么规定的，有什么区别");
  EXPECT_EQ(count_kind(same.a, "glossary"), 0);
  EXPECT_TRUE(std::any_of(same.a.variant_reasons.begin(), same.a.variant_reasons.end(),
                          [](const std::string& s) { return s == "glossary:hr no alias"; }));
  // An IT alias in an hr question is not expanded (the IT glossary is not loaded for hr).
  const auto r2 = analyze("人事制度里忘记密码的员工和年假没休完的员工分别怎么处理");
  if (r2.prep.effective_source == std::optional<std::string>("hr"))
    for (const auto& v : r2.a.variants) EXPECT_FALSE(has(v.text, "密码重置")) << v.text;
}

// Without an effective source the candidates' glossaries expand (every glossary when the scope is
// every source): an alias still reaches its standard term as one more variant.
TEST(AnalysisGlossary, WithoutOneSourceTheCandidatesGlossariesExpand) {
  // The shipped model leaves the carried keyword unconfirmed (rules alone would scope finance).
  static const Planner shipped = Planner::create(load_config(test::shipped_config()).value()).value();
  const auto r = analyze(shipped, "B类的呢", {"下个月要去国外出差", "普通员工境外A类住宿上限多少"});
  ASSERT_TRUE(r.prep.plan->knobs().use_query_variants) << r.prep.plan->reason();
  ASSERT_FALSE(r.prep.effective_source.has_value()) << r.prep.source.detail;
  ASSERT_TRUE(has(r.a.rewrite.query, "住宿上限")) << r.a.rewrite.query;
  const auto it = std::find_if(r.a.variants.begin(), r.a.variants.end(),
                               [](const QueryVariant& v) { return v.kind == "glossary"; });
  ASSERT_NE(it, r.a.variants.end());
  EXPECT_EQ(it->origin, "finance");
  EXPECT_TRUE(has(it->text, "住宿标准")) << it->text;
  EXPECT_FALSE(has(it->text, "住宿上限")) << it->text;
  // No alias in any glossary: no variant, and the reason says so.
  const auto none = analyze(shipped, "B类的呢", {"下个月要去国外出差", "普通员工境外A类能订几星酒店"});
  if (!none.prep.effective_source && none.prep.plan && none.prep.plan->knobs().use_query_variants)
    EXPECT_EQ(count_kind(none.a, "glossary"), 0);
}

TEST(AnalysisGlossary, NoVariantsWhenThePlanSaysNo) {
  const auto r = analyze("年假怎么申请");  // FAQ: use_query_variants = false
  ASSERT_FALSE(r.prep.plan->knobs().use_query_variants);
  EXPECT_EQ(kinds(r.a), std::vector<std::string>{"original"});
  EXPECT_TRUE(has(r.a.variant_reasons.front(), "variants:off"));
}

// ---- hooks -----------------------------------------------------------------------------------

// A hook that answers from a script keyed by kind, or fails the way it is told to.
class ScriptedHook : public QueryRewriter {
 public:
  std::map<std::string, std::string> replies;
  std::string mode;  // "", "throw", "error", "slow"
  mutable std::atomic<int> calls{0};
  mutable std::string last_prompt;
  std::string_view name() const override { return "scripted"; }
  Result<std::string> generate(const RewriteRequest& r) const override {
    ++calls;
    last_prompt = std::string(r.prompt);
    if (mode == "throw") throw std::runtime_error("model server down");
    if (mode == "error") return make_error(ErrorCode::kIo, "HTTP 503");
    if (mode == "slow") std::this_thread::sleep_for(r.budget + std::chrono::milliseconds(30));
    const auto it = replies.find(std::string(r.kind));
    return it == replies.end() ? std::string("[]") : it->second;
  }
};

Planner with_hook(std::shared_ptr<ScriptedHook> hook, std::vector<std::string> kinds_,
                  int budget_ms = 200, int max_variants = 3) {
  Config c = rules_only();
  c.rewrite.hook = "scripted";
  c.rewrite.hook_kinds = std::move(kinds_);
  c.rewrite.hook_budget_ms = budget_ms;
  c.rewrite.max_variants = max_variants;
  PlannerOptions o;
  o.rewriters["scripted"] = hook;
  return Planner::create(std::move(c), std::move(o)).value();
}

// A knowledge question with a number and an ID-free entity: variants on.
const std::string kQ = "出差北京住宿超过550元的部分，制度里是怎么规定报销和审批的";

TEST(AnalysisHooks, ValidVariantsAreKeptViolatorsDroppedWithAReason) {
  auto hook = std::make_shared<ScriptedHook>();
  hook->replies["multi_query"] =
      R"(["北京出差住宿超过550元如何报销审批", "出差住宿超标怎么报销", "北京出差住宿超过550元如何报销审批", "2024年北京出差住宿超过550元的规定", "北京住宿550元以上报销规定", "北京出差住宿超过550元的报销审批规定"])";
  const Planner p = with_hook(hook, {"multi_query"}, 200, 2);
  const auto r = analyze(p, kQ);
  ASSERT_TRUE(r.prep.plan->knobs().use_query_variants);
  ASSERT_EQ(r.a.hook_calls.size(), 1u);
  EXPECT_TRUE(r.a.hook_calls[0].ok);
  EXPECT_EQ(r.a.hook_calls[0].kept, 2);
  std::vector<std::string> reasons;
  for (const auto& x : r.a.rejected) reasons.push_back(x.reason);
  EXPECT_EQ(reasons, (std::vector<std::string>{"drops the number 550", "duplicate",
                                               "adds the number 2024", "over max_variants"}));
  EXPECT_EQ(r.a.variants.front().kind, "original");
  EXPECT_EQ(r.a.cost.model_calls, 1);
  EXPECT_EQ(r.a.cost.variants_rejected, 4);
  EXPECT_EQ(count_kind(r.a, "multi_query"), 2);
  // The prompt is the [rewrite] prompt template with the question in place.
  EXPECT_TRUE(has(hook->last_prompt, "保留所有实体与数值约束"));
  EXPECT_TRUE(has(hook->last_prompt, r.a.rewrite.query));
}

// The host replaces a follow-up's rewrite (docs/rewrite.md) (kind "condense"), validated; the
// built-in rewrite stands when the reply is refused or the call fails.
TEST(AnalysisHooks, CondenseReplacesTheFollowUpRewriteWhenItPassesTheChecks) {
  auto hook = std::make_shared<ScriptedHook>();
  hook->replies["condense"] = R"(["病假需要怎么申请"])";
  const Planner p = with_hook(hook, {"condense"});
  const auto r = analyze(p, "那病假呢", {"年假怎么申请"});
  ASSERT_TRUE(r.prep.intent);
  ASSERT_EQ(r.prep.intent->intent, Intent::kFollowUp);
  EXPECT_EQ(r.a.rewrite.query, "病假需要怎么申请");
  EXPECT_EQ(r.a.rewrite.by, "scripted");
  EXPECT_TRUE(r.a.rewrite.rewritten);
  EXPECT_EQ(r.a.rewrite.reasons.back(), "hook:condense");
  ASSERT_EQ(r.a.hook_calls.size(), 1u);
  EXPECT_EQ(r.a.hook_calls[0].kind, "condense");
  EXPECT_EQ(r.a.hook_calls[0].kept, 1);
  // The prompt carries the turn and the history.
  EXPECT_TRUE(has(hook->last_prompt, "那病假呢"));
  EXPECT_TRUE(has(hook->last_prompt, "年假怎么申请"));
  // The retrieval paths use the hook's rewrite.
  EXPECT_TRUE(std::any_of(r.a.variants.begin(), r.a.variants.end(),
                          [](const QueryVariant& v) { return v.text == "病假需要怎么申请"; }));
}

TEST(AnalysisHooks, ARefusedOrFailedCondenseLeavesTheBuiltInRewrite) {
  const Planner builtin = with_hook(std::make_shared<ScriptedHook>(), {});
  const std::string expected = analyze(builtin, "那病假呢", {"年假怎么申请"}).a.rewrite.query;
  ASSERT_FALSE(expected.empty());
  for (const auto& [reply, reason] : std::vector<std::pair<std::string, std::string>>{
           {R"(["年假怎么申请"])", "hook:condense:rejected:drops:病假"},  // loses the turn's topic
           {R"(["病假病假怎么申请"])", "hook:condense:rejected:doubled:病假"},
           {"not json", "hook:condense:failed"}}) {
    auto hook = std::make_shared<ScriptedHook>();
    hook->replies["condense"] = reply;
    const auto r = analyze(with_hook(hook, {"condense"}), "那病假呢", {"年假怎么申请"});
    EXPECT_EQ(r.a.rewrite.query, expected) << reply;
    EXPECT_EQ(r.a.rewrite.by, "builtin") << reply;
    EXPECT_EQ(r.a.rewrite.reasons.back(), reason) << reply;
  }
  // A standalone question is not condensed.
  auto hook = std::make_shared<ScriptedHook>();
  hook->replies["condense"] = R"(["别的问题"])";
  const auto r = analyze(with_hook(hook, {"condense"}), kQ);
  EXPECT_EQ(hook->calls.load(), 0);
  EXPECT_EQ(r.a.rewrite.query, r.prep.normalized.text);
}

TEST(AnalysisHooks, EveryFailureLeavesTheBuiltInRewriteAndIsReported) {
  struct Case {
    std::string mode, reply, error_prefix;
  };
  for (const Case& k : std::vector<Case>{{"", "not json at all", "invalid JSON"},
                                        {"", R"({"q": "x"})", "not a JSON array"},
                                        {"", "[]", "empty array"},
                                        {"", R"(["ok", 1])", "element 1 is not a string"},
                                        {"throw", "", "exception: model server down"},
                                        {"error", "", "error: HTTP 503"},
                                        {"slow", R"(["x"])", "timeout:"}}) {
    auto hook = std::make_shared<ScriptedHook>();
    hook->mode = k.mode;
    hook->replies["multi_query"] = k.reply;
    const Planner p = with_hook(hook, {"multi_query"}, 40);
    const auto r = analyze(p, "那审批呢", {"报销流程是什么"});
    SCOPED_TRACE(k.error_prefix);
    ASSERT_EQ(r.a.hook_calls.size(), 1u);
    EXPECT_FALSE(r.a.hook_calls[0].ok);
    EXPECT_TRUE(r.a.hook_calls[0].error.starts_with(k.error_prefix)) << r.a.hook_calls[0].error;
    EXPECT_EQ(r.a.cost.hook_failures, 1);
    EXPECT_FALSE(r.a.rewrite.hook_error.empty());
    // The built-in rewrite stands; no hook variant.
    EXPECT_EQ(kinds(r.a), (std::vector<std::string>{"original", "rewrite"}));
  }
}

TEST(AnalysisHooks, HydeIsHypotheticalAndSkippedForExactIds) {
  auto hook = std::make_shared<ScriptedHook>();
  hook->replies["hyde"] =
      R"(["出差北京住宿超过550元的部分由个人承担，确需超标的须事先报部门负责人审批，报销时附说明。"])";
  const auto r = analyze(with_hook(hook, {"hyde"}), kQ);
  ASSERT_EQ(r.a.hook_calls.size(), 1u);
  const auto& v = r.a.variants.back();
  EXPECT_EQ(v.kind, "hyde");
  EXPECT_TRUE(v.hypothetical);
  // A question with an error code: BM25, and HyDE would dilute it.
  hook->calls = 0;
  const auto r2 = analyze(with_hook(hook, {"hyde"}), "详细说明vpn报错0x80070005的原因和所有处理办法以及相关规定");
  EXPECT_EQ(r2.a.routing.mode, "bm25");
  if (r2.prep.plan->knobs().use_query_variants) {
    EXPECT_EQ(hook->calls.load(), 0);
    EXPECT_TRUE(std::any_of(r2.a.variant_reasons.begin(), r2.a.variant_reasons.end(),
                            [](const std::string& s) { return has(s, "hyde:skipped"); }));
  }
}

TEST(AnalysisHooks, DecompositionMayPartitionButMustCoverEverything) {
  auto hook = std::make_shared<ScriptedHook>();
  hook->replies["decomposition"] = R"(["北京出差住宿超过550元怎么报销", "出差住宿超标怎么审批"])";
  const auto ok = analyze(with_hook(hook, {"decomposition"}), kQ);
  EXPECT_EQ(count_kind(ok.a, "decomposition"), 2);
  hook->replies["decomposition"] = R"(["出差住宿怎么报销", "出差住宿超标怎么审批"])";
  const auto bad = analyze(with_hook(hook, {"decomposition"}), kQ);
  EXPECT_EQ(count_kind(bad.a, "decomposition"), 0);
  ASSERT_EQ(bad.a.rejected.size(), 2u);
  EXPECT_EQ(bad.a.rejected[0].reason, "decomposition drops the number 550");
}

TEST(AnalysisHooks, AnUnregisteredHookNameIsAConfigError) {
  Config c = rules_only();
  c.rewrite.hook = "gpt";
  auto p = Planner::create(std::move(c));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(p.error().field, "[rewrite] hook");
}

// ---- routing, execution, fallback, prompt, cost -----------------------------------------------

TEST(AnalysisRouting, IndexModeAndTierEachWithAReason) {
  const auto order = analyze("订单号20240301123的退款进度怎么查");
  EXPECT_EQ(order.a.routing.index, "orders");
  EXPECT_EQ(order.a.routing.mode, "bm25");
  const auto code = analyze("电脑报0x80070005怎么处理");
  EXPECT_EQ(code.a.routing.index, "code");
  EXPECT_EQ(code.a.routing.mode, "bm25");
  const auto plain = analyze("年假怎么申请");
  EXPECT_EQ(plain.a.routing.index, "knowledge");
  EXPECT_EQ(plain.a.routing.mode, "hybrid");
  EXPECT_EQ(plain.a.routing.model_tier, "small");
  const auto multi = analyze("年假怎么申请？病假需要什么材料？");
  EXPECT_EQ(multi.a.routing.parts, 2);
  EXPECT_EQ(multi.a.routing.model_tier, "large");
  for (const auto* r : {&order, &code, &plain, &multi}) EXPECT_EQ(r->a.routing.reasons.size(), 3u);
}

TEST(AnalysisExecution, ExplicitCuesMixedAndDirect) {
  const auto explicit_ = analyze("帮我深度研究一下差旅和报销制度的变化");
  EXPECT_EQ(explicit_.a.execution.path, "research");
  EXPECT_TRUE(explicit_.a.execution.explicit_request);
  EXPECT_DOUBLE_EQ(explicit_.a.execution.confidence, 0.95);
  const auto graph = analyze("星河科技旗下有哪些子公司");
  EXPECT_EQ(graph.a.execution.path, "graph");
  EXPECT_DOUBLE_EQ(graph.a.execution.confidence, 0.80);
  const auto mixed = analyze("各子公司的报销制度之间的区别");
  EXPECT_EQ(mixed.a.execution.path, "semantic");
  EXPECT_TRUE(has(mixed.a.execution.reasons.back(), "below_min_confidence"));
  const auto plain = analyze("年假怎么申请");
  EXPECT_EQ(plain.a.execution.path, "semantic");
  EXPECT_DOUBLE_EQ(plain.a.execution.confidence, 0.90);
  const auto hello = analyze("你好");
  EXPECT_EQ(hello.a.execution.path, "direct");
  EXPECT_TRUE(hello.a.variants.empty());
  EXPECT_EQ(hello.a.cost.retrieval_calls, 0);
}

TEST(AnalysisFallback, LadderIsOrderedConcreteAndNeverRepeats) {
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  const auto timed = analyze("上个月的差旅报销制度有什么变化", {}, ctx);
  ASSERT_TRUE(timed.a.filters.time.has_value());
  ASSERT_FALSE(timed.a.fallback.empty());
  EXPECT_EQ(timed.a.fallback.front().action, "relax_filters");
  EXPECT_TRUE(has(timed.a.fallback.front().params.at("drop"), "date_range"));
  const auto plain = analyze("年假怎么申请");
  for (const auto& s : plain.a.fallback) EXPECT_NE(s.action, "relax_filters");
  EXPECT_EQ(plain.a.fallback.back().action, "escalate");
  for (const auto* r : {&timed, &plain})
    for (std::size_t i = 0; i < r->a.fallback.size(); ++i) {
      EXPECT_EQ(r->a.fallback[i].step, static_cast<int>(i) + 1);
      if (i > 0)
        EXPECT_FALSE(r->a.fallback[i].action == r->a.fallback[i - 1].action &&
                     r->a.fallback[i].params == r->a.fallback[i - 1].params);
    }
  // The budget policy comes from [execution].
  EXPECT_EQ(plain.a.budget.normal_below_tokens, 8000);
  EXPECT_EQ(plain.a.budget.stop_retrieval_at_tokens, 10000);
  EXPECT_EQ(plain.a.budget.max_tool_calls, 8);
}

// Each rung's parameters, key by key: a host executes them as they stand.
TEST(AnalysisFallback, EveryRungCarriesItsParameters) {
  using Params = std::map<std::string, std::string>;
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  const auto timed = analyze("上个月的差旅报销制度有什么变化", {}, ctx);
  ASSERT_GE(timed.a.fallback.size(), 2u);
  EXPECT_EQ(timed.a.fallback[0].params, (Params{{"drop", "date_range,tags"}, {"tool", "hybrid_search"}}));
  EXPECT_EQ(timed.a.fallback[1].params,
            (Params{{"from", "hybrid_search"}, {"to", "keyword_search"},
                    {"query", timed.a.rewrite.query}}));
  const auto plain = analyze("年假怎么申请");
  const FallbackStep& last = plain.a.fallback.back();
  EXPECT_EQ(last.params, (Params{{"to", "research"}, {"max_rounds", "2"}, {"then", "user"}}));
  for (const FallbackStep& s : plain.a.fallback)
    if (s.action == "search_files") {
      EXPECT_EQ(s.params.at("top_k"), "5");
      EXPECT_FALSE(s.params.at("sources").empty());
      EXPECT_FALSE(s.params.at("query").empty());
    }
  const auto research = analyze("帮我深度研究一下差旅和报销制度的变化");
  ASSERT_EQ(research.a.execution.path, "research");
  EXPECT_EQ(research.a.fallback.back().params,
            (Params{{"to", "user"}, {"say", "what was searched and what is missing"}}));
}

TEST(AnalysisPrompt, ProfileFollowsCategoryIntentAndTable) {
  EXPECT_EQ(analyze("出差住宿标准每晚多少钱").a.prompt.id, "pricing");
  EXPECT_EQ(analyze("那审批呢", {"报销流程是什么"}).a.prompt.id, "follow_up");
  const auto d = analyze("年假怎么申请");
  EXPECT_EQ(d.a.prompt.id, "default");
  EXPECT_EQ(d.a.prompt.final_context_top_n, d.prep.plan->knobs().final_context_top_n);
  EXPECT_EQ(d.a.prompt.max_context_chars, d.prep.plan->knobs().max_context_chars);
}

// The ledger counts the paths retrieval runs: a follow-up's rewrite replaces the fragment as typed
// (listed as the "original" variant, never searched), other variants add a path each.
TEST(AnalysisCost, LedgerCountsPathsTimesCollections) {
  const auto r = analyze("那审批呢", {"报销流程是什么"});
  const auto& k = r.prep.plan->knobs();
  ASSERT_TRUE(r.a.rewrite.rewritten);
  std::size_t others = 0;
  for (const auto& v : r.a.variants) others += v.kind != "original" && v.kind != "rewrite";
  EXPECT_EQ(r.a.cost.variant_paths, static_cast<int>(1 + others));
  EXPECT_EQ(r.a.cost.retrieval_calls, r.a.cost.variant_paths * (int{k.run_faq} + int{k.run_doc}));
  EXPECT_EQ(r.a.cost.model_calls, 0);
}

TEST(AnalysisContextInput, BadNowIsInvalidInputNamingNow) {
  auto prep = rules_planner().prepare(PrepareRequest{"上个月的报销", {}, "", std::nullopt});
  ASSERT_TRUE(prep.ok());
  AnalysisContext ctx;
  ctx.now = "yesterday";
  auto a = rules_planner().analyze(*prep, ctx);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(a.error().field, "now");
}

TEST(AnalysisDeterminism, SameInputSameJson) {
  AnalysisContext ctx;
  ctx.now = "2026-02-28T23:30:00+08:00";
  for (const auto& [q, h] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"上周的会议室预定记录", {}}, {"那病假呢", {"年假怎么申请"}}, {"订单号20240301123", {}}}) {
    const auto a = analyze(q, h, ctx);
    const auto b = analyze(q, h, ctx);
    EXPECT_EQ(to_json(a.prep, a.a), to_json(b.prep, b.a)) << q;
  }
}

}  // namespace
