// Issue 8 item 2: the built-in rewriter on our own multi-turn set (tests/data/followups.jsonl,
// 521 samples: pronouns, ellipsis, continuations, conditions, comparisons, bare nouns, what-about,
// open-domain, topic switches, complete questions after history, social turns). Prints follow-up
// detection precision / recall / F1 and rewrite exact match per kind and split — the figures in
// the README come from this test — and holds the frozen test split to floors a few points under
// what was measured, so a regression fails.
//
// Exact match: the gold rewrite (or the question itself for a sample that needs none) and the
// rewriter's query, both normalized by normalize_question (NFKC casefold, Traditional →
// Simplified) and compared without punctuation and spaces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/analysis/rewrite_check.hpp"
#include "planning/segment.hpp"
#include "planning/text.hpp"
#include "qaplan/qaplan.hpp"
#include "test_support.hpp"
#include "unit/planning/rewrite_support.hpp"

namespace {

using namespace qaplan;

struct Tally {
  int tp = 0, fp = 0, fn = 0, tn = 0;
  int em = 0, n = 0;
  int kept = 0, follow_ups = 0;  // follow-ups whose rewrite keeps every term of the gold
  std::map<std::string, std::pair<int, int>> by_kind;  // kind → (exact, total)
  double precision() const { return tp + fp ? double(tp) / (tp + fp) : 0; }
  double recall() const { return tp + fn ? double(tp) / (tp + fn) : 0; }
  double f1() const {
    const double p = precision(), r = recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0;
  }
  double exact() const { return n ? double(em) / n : 0; }
  double terms_kept() const { return follow_ups ? double(kept) / follow_ups : 0; }
};

std::string key(std::string_view text, const InputConfig& input) {
  auto n = internal::normalize_question(text, input);
  if (!n.ok()) return std::string(text);
  std::string out;
  const std::string& t = n->text;
  for (std::size_t i = 0; i < t.size();) {
    const std::size_t b = i;
    const std::int32_t cp = internal::next_code_point(t, i);
    if (cp >= 0 && internal::is_word_char(cp)) out.append(t, b, i - b);
  }
  return out;
}

// Whether `query` keeps every term of `gold` a retriever needs: each content word of the gold
// (a word that is none of the rewriter's own lists — function words, pronouns, markers, question
// words), compared on the normalized texts. Word order and the words around them are free: this
// is what a retriever matches on, whatever convention the annotator wrote the case in.
bool keeps_terms(const std::string& query, const std::string& gold, const InputConfig& input,
                 const internal::WordSet& skip) {
  const std::string q = key(query, input), g = key(gold, input);
  for (const internal::Token& w : internal::segment_words(g)) {
    const std::string_view term = w.text(g);
    if (w.word && !skip.contains(term) && q.find(term) == std::string::npos) return false;
  }
  return true;
}

std::map<std::string, Tally> measure(bool model_on, const char* file = "followups.jsonl") {
  Config cfg = load_config(test::shipped_config()).value();
  cfg.model.enabled = cfg.model.enabled && model_on;
  const Planner planner = Planner::create(cfg).value();
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  std::map<std::string, Tally> out;
  std::ifstream in(test::source_dir() / "tests" / "data" / file);
  EXPECT_TRUE(in) << file;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    PrepareRequest r;
    r.question = j.at("question").get<std::string>();
    r.history = j.at("history").get<std::vector<std::string>>();
    const bool gold = j.at("follow_up").get<bool>();
    const std::string expected = gold ? j.at("rewrite").get<std::string>() : r.question;
    auto prep = planner.prepare(r);
    EXPECT_TRUE(prep.ok()) << r.question;
    if (!prep.ok()) continue;
    const bool got = prep->intent && prep->intent->intent == Intent::kFollowUp;
    std::string query = r.question;
    std::string reasons;
    if (prep->route.route == Route::kRetrieval) {
      auto a = planner.analyze(*prep, ctx);
      EXPECT_TRUE(a.ok()) << r.question;
      if (a.ok()) query = a->rewrite.query;
      if (a.ok())
        for (const std::string& why : a->rewrite.reasons) reasons += " " + why;
    }
    const bool exact = key(query, cfg.input) == key(expected, cfg.input);
    static const internal::WordSet skip = internal::rewrite_words(cfg.rewrite);
    const bool kept = gold && keeps_terms(query, expected, cfg.input, skip);
    // QAPLAN_REWRITE_DUMP=dev (or test) lists the misses of that split, for working on the rules;
    // dev+ (test+) lists the exact matches too.
    if (const char* d = std::getenv("QAPLAN_REWRITE_DUMP");
        d && (!exact || std::string_view(d).ends_with("+")) &&
        std::string_view(d).substr(0, std::string_view(d).find('+')) == j.at("split"))
      std::printf("%s %s [%s] %s%s | %s => %s | got %s |%s\n", exact ? "HIT " : "MISS",
                  j.at("id").get<std::string>().c_str(), j.at("kind").get<std::string>().c_str(),
                  gold && !kept ? "(lost) " : "",
                  r.history.empty() ? "" : r.history.back().c_str(), r.question.c_str(),
                  expected.c_str(), query.c_str(), reasons.c_str());
    for (const std::string& split : {j.at("split").get<std::string>(), std::string("all")}) {
      Tally& t = out[split];
      (got && gold ? t.tp : got ? t.fp : gold ? t.fn : t.tn) += 1;
      t.n += 1;
      t.em += exact;
      t.follow_ups += gold;
      t.kept += kept;
      auto& k = t.by_kind[j.at("kind").get<std::string>()];
      k.first += exact;
      k.second += 1;
    }
  }
  return out;
}

void print(const char* label, const std::map<std::string, Tally>& m) {
  for (const auto& [split, t] : m) {
    std::printf("[%s] %-4s n=%d  detection P=%.3f R=%.3f F1=%.3f  exact match %d/%d = %.3f  "
                "terms kept %d/%d = %.3f\n",
                label, split.c_str(), t.n, t.precision(), t.recall(), t.f1(), t.em, t.n,
                t.exact(), t.kept, t.follow_ups, t.terms_kept());
    if (split != "test") continue;
    for (const auto& [kind, v] : t.by_kind)
      std::printf("       %-20s %3d/%3d\n", kind.c_str(), v.first, v.second);
  }
}

TEST(RewriteQuality, OwnMultiTurnSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true);
  print("shipped config", m);
  ASSERT_EQ(m.at("all").n, 521);
  const Tally& test = m.at("test");
  // Floors on the frozen test split (measured values are printed above and in the README);
  // detection at issue 22's bars: precision 0.95, recall 0.90.
  EXPECT_GE(test.precision(), 0.95);
  EXPECT_GE(test.recall(), 0.90);
  // Issue 23's bar: 70 % exact (219/312 in the twenty-seventh session, the first to reach it).
  EXPECT_GE(test.exact(), 0.70);
  EXPECT_GE(test.terms_kept(), 0.66);  // 135/196 in the sixteenth session
  // A question that needs no rewrite comes back unchanged; a topic switch at issue 22's bar.
  for (const auto& [kind, floor] : {std::pair{"topic_switch", 0.98}, {"complete_same_topic", 0.9}}) {
    const auto& k = test.by_kind.at(kind);
    EXPECT_GE(double(k.first) / k.second, floor) << kind;
  }
}

// Open-domain dialogue (tests/data/followups_open.jsonl, 420 samples written for this set: twelve
// everyday topics — films, food, sport, games, work on the dev split; travel, shopping, weather,
// pets, music, study, health on the test split, so no topic is tuned on and tested): pronouns,
// a missing subject or predicate, why, an answer the question builds on, also, comparison,
// confirmation, and self-contained questions that need no rewrite. Floors a few points under what
// the frozen test split measured (docs/rewrite.md#open-domain-dialogue).
TEST(RewriteQuality, OpenDomainSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_open.jsonl");
  print("open domain", m);
  ASSERT_EQ(m.at("all").n, 420);
  const Tally& test = m.at("test");
  EXPECT_GE(test.precision(), 0.95);
  EXPECT_GE(test.recall(), 0.90);
  EXPECT_GE(test.exact(), 0.28);
  EXPECT_GE(test.terms_kept(), 0.60);  // 136/217 in the sixteenth session
  const auto& plain = test.by_kind.at("self_contained");
  EXPECT_GE(double(plain.first) / plain.second, 0.8) << "self-contained questions kept as typed";
}

// Casual chat (tests/data/followups_chat.jsonl, 200 samples written for this set in the style of
// public open-domain rewrite corpora — chat typed with spaces for commas, subjects and objects left
// out, "and you?" after one's own answer; every row a dev row: it is for finding garbled shapes,
// not a held-out score). Floors a little under what it measures (docs/rewrite.md).
TEST(RewriteQuality, ChatDevSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_chat.jsonl");
  print("chat", m);
  ASSERT_EQ(m.at("all").n, 200);
  const Tally& dev = m.at("dev");
  EXPECT_GE(dev.exact(), 0.50);  // 106/200 in the thirteenth session
  EXPECT_GE(dev.terms_kept(), 0.61);  // 116/180 in the sixteenth session
  EXPECT_GE(dev.recall(), 0.95);
}

// Enterprise follow-ups in domains the rules were not written on (tests/data/
// followups_enterprise_dev.jsonl, 220 samples written for this set: the own set's HR/IT/finance/
// legal/admin and six knowledge bases it never saw — manufacturing, hospital, school, retail, bank,
// a software product; every row a dev row). Floors a little under what it measures.
TEST(RewriteQuality, EnterpriseDevSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_enterprise_dev.jsonl");
  print("enterprise", m);
  ASSERT_EQ(m.at("all").n, 220);
  const Tally& dev = m.at("dev");
  EXPECT_GE(dev.exact(), 0.66);  // 154/220 in the thirteenth session
  EXPECT_GE(dev.terms_kept(), 0.78);  // 137/170 in the sixteenth session
  EXPECT_GE(dev.recall(), 0.95);
  EXPECT_GE(dev.precision(), 0.97);
}

// Follow-ups written by an annotator who saw neither the rules nor the other sets (tests/data/
// followups_fresh_dev.jsonl, 160 samples, ten domains — HR, shop, bank, hospital, school,
// government, travel, telecom, property, insurance; every row a dev row since the ninth session's
// rules were tuned on it). Its golds state a case without its marker (如果人在外地呢 → 人在外地银行卡
// 丢了怎么挂失) where the own set keeps it, so its exact match is low by convention; what it holds
// the rewriter to is detection and the garble gate. Floors a little under what it measures.
TEST(RewriteQuality, FreshDevSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_fresh_dev.jsonl");
  print("fresh", m);
  ASSERT_EQ(m.at("all").n, 160);
  const Tally& dev = m.at("dev");
  EXPECT_GE(dev.exact(), 0.22);
  EXPECT_GE(dev.terms_kept(), 0.61);  // 103/160 in the sixteenth session
  EXPECT_GE(dev.recall(), 0.97);
}

// More of the own set's dev split (tests/data/followups_more_dev.jsonl, 480 samples): written in the
// eleventh session by two annotators who read only the own set's dev rows (its conventions: a case
// keeps its marker, 呢 takes the question's predicate) — the second also the first's 240 — and saw
// neither the rules nor the test split, weighted to the kinds the test split scores lowest on
// (conditionals, continuations, pronouns, comparisons). Every row is dev. Floors a little under
// what it measures.
TEST(RewriteQuality, MoreDevSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_more_dev.jsonl");
  print("more dev", m);
  ASSERT_EQ(m.at("all").n, 480);
  const Tally& dev = m.at("dev");
  EXPECT_GE(dev.exact(), 0.47);  // 237/480 in the thirteenth session
  EXPECT_GE(dev.terms_kept(), 0.58);  // 262/432 in the sixteenth session
  EXPECT_GE(dev.recall(), 0.95);
  EXPECT_GE(dev.precision(), 0.97);
}

// Variants of the own set's dev follow-ups (tests/data/followups_variants_dev.jsonl, 262 samples):
// for each of the 131 dev follow-ups, two written on 2026-12-07 by a helper who read only those
// rows, with the same construction and the same gold convention in other words and topics. A rule
// that fits its dev row's words rather than its shape fails here. Every row is dev.
TEST(RewriteQuality, VariantsDevSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_variants_dev.jsonl");
  print("variants", m);
  ASSERT_EQ(m.at("all").n, 262);
  const Tally& dev = m.at("dev");
  EXPECT_GE(dev.exact(), 0.58);       // 162/262 when written, 163 after its first rule
  EXPECT_GE(dev.terms_kept(), 0.72);  // 198/262 when written
  EXPECT_GE(dev.recall(), 0.95);
  EXPECT_GE(dev.precision(), 0.97);
}

// New constructions (tests/data/followups_shapes_dev.jsonl, 187 samples, all follow-ups): written
// on 2026-12-07 by a helper who read only the own set's dev rows and its variants, in the same gold
// conventions but in constructions neither has — conditions with 若/一旦/就算/否则/…的话, a
// condition after its question, pronouns with a head (该标准, 这张卡, 前者), 下一步呢 — across twelve
// kinds of knowledge base. Every row is dev: the session's rules were tuned on it.
TEST(RewriteQuality, ShapesDevSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_shapes_dev.jsonl");
  print("shapes", m);
  ASSERT_EQ(m.at("all").n, 187);
  const Tally& dev = m.at("dev");
  EXPECT_GE(dev.exact(), 0.30);       // 51/187 when written, 60 after the session's rules
  EXPECT_GE(dev.terms_kept(), 0.45);  // 80/187 when written, 89 after
  EXPECT_GE(dev.recall(), 0.90);      // 0.829 when written, 0.914 after
  EXPECT_GE(dev.precision(), 0.97);
}

// Held out: 120 follow-ups written after the tenth session's rules by another annotator who saw
// neither the rules nor the other sets, in fourteen domains, in the convention of public
// incomplete-utterance-restoration corpora (keep every word typed, insert what was left out;
// tests/data/followups_heldout_test.jsonl). Every row is test: no rule may be tuned on it — read
// its figure, not its rows. Floors a little under what it measured when it was written.
TEST(RewriteQuality, HeldOutSetMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_heldout_test.jsonl");
  print("held-out", m);
  ASSERT_EQ(m.at("all").n, 120);
  const Tally& test = m.at("test");
  EXPECT_GE(test.exact(), 0.38);  // 50/120 in the thirteenth session (not tuned on)
  EXPECT_GE(test.terms_kept(), 0.60);  // 75/119 in the sixteenth session
  EXPECT_GE(test.recall(), 0.95);
}

// Written blind: 240 turns in eight domains no rule was written on (pharmacy chain, hotel
// booking, utilities, pet hospital, mobile game support, home appliance after-sales, tax service,
// museum and scenic site), 60 % follow-ups, the rest tempting self-contained turns and topic
// switches, a third after the assistant's answer (tests/data/followups_probe2.jsonl, written on
// 2026-12-07 by a helper that saw neither rules, code nor sets). Dev rows were read to find the
// twenty-ninth session's rewrite faults; the test rows were measured once. Floors a little under
// what it measured (docs/rewrite.md).
TEST(RewriteQuality, BlindProbeInEightDomainsMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_probe2.jsonl");
  print("probe2", m);
  ASSERT_EQ(m.at("all").n, 240);
  const Tally& test = m.at("test");
  EXPECT_GE(test.exact(), 0.45);       // 59/120 at the twenty-ninth session's start and end
  EXPECT_GE(test.terms_kept(), 0.40);  // 29/67
  EXPECT_GE(test.recall(), 0.93);      // 0.955
  EXPECT_GE(test.precision(), 0.82);   // 0.842
}

// Written blind too, a week of sessions later: 240 conversations in eight more domains (express
// delivery, dental clinic, restaurant chain, securities brokerage, EV charging, cinema ticketing,
// factory safety and staff rules, SaaS support; tests/data/followups_probe3.jsonl, written on
// 2026-12-08 by a helper that saw neither rules, code nor sets). Dev rows were read in the
// thirtieth session; the test rows measured once, at its start and end. Floors a little under.
TEST(RewriteQuality, SecondBlindProbeInEightDomainsMeetsItsFloors) {
  const auto m = measure(/*model_on=*/true, "followups_probe3.jsonl");
  print("probe3", m);
  ASSERT_EQ(m.at("all").n, 240);
  const Tally& test = m.at("test");
  EXPECT_GE(test.exact(), 0.47);       // 60/120 at the thirtieth session's start and end
  EXPECT_GE(test.terms_kept(), 0.47);  // 41/80
  EXPECT_GE(test.recall(), 0.87);      // 0.900
  EXPECT_GE(test.precision(), 0.94);   // 0.973
}

// The router data's topic switches (an own question that names a source, after an own question on
// another source; eval_sets/router/topic_switches.jsonl), test split: planned standalone ≥ 98 %.
TEST(RewriteQuality, RouterTopicSwitchesStayStandalone) {
  const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  std::ifstream in(test::source_dir() / "eval_sets" / "router" / "topic_switches.jsonl");
  ASSERT_TRUE(in) << "eval_sets/router/topic_switches.jsonl";
  int n = 0, standalone = 0;
  std::string line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j.at("split") != "test") continue;
    auto prep = planner.prepare(PrepareRequest{j.at("text").get<std::string>(),
                                               {j.at("previous").get<std::string>()}, "",
                                               std::nullopt});
    ASSERT_TRUE(prep.ok()) << line;
    ++n;
    const bool follow_up = prep->intent && prep->intent->intent == Intent::kFollowUp;
    standalone += !follow_up;
    if (follow_up) std::printf("kept as a follow-up: %s\n", line.c_str());
  }
  std::printf("router topic switches, test: %d/%d standalone\n", standalone, n);
  ASSERT_GE(n, 100);
  EXPECT_GE(double(standalone) / n, 0.98);
}

}  // namespace

// Structural rules of the built-in rewriter, on questions made up for these tests (none is in
// tests/data/followups.jsonl or the eval-rewrite set): each asserts what the rule must keep.
namespace {

using test::gave;
using test::has;
using test::rewrite;

TEST(RewriteRules, AnIdentifierOrTitleIsTheAntecedentWholeWithItsContainer) {
  const auto id = rewrite("它现在归谁管", {"资产台账里AB-CD-2023-0012是什么设备"});
  EXPECT_TRUE(has(id.query, "ab-cd-2023-0012")) << id.query;
  EXPECT_TRUE(has(id.query, "资产台账")) << id.query;
  const auto hyphen = rewrite("它怎么安装", {"Foo-Link是什么"});
  EXPECT_TRUE(has(hyphen.query, "foo-link")) << hyphen.query;
  const auto title = rewrite("它什么时候生效", {"《差旅费用管理细则》发布了吗"});
  EXPECT_TRUE(has(title.query, "《差旅费用管理细则》")) << title.query;
}

TEST(RewriteRules, DigitsReplaceAnIdentifiersDigits) {
  const auto r = rewrite("5005呢", {"ERR-2002是什么意思"});
  EXPECT_TRUE(has(r.query, "err-5005")) << r.query;
  EXPECT_FALSE(has(r.query, "2002")) << r.query;
}

TEST(RewriteRules, WhatComesNextContinuesTheStatementItFollows) {
  for (const char* q : {"接下来呢", "下一步要做什么", "之后需要谁审批", "后面还要交什么材料"}) {
    const auto r = rewrite(q, {"我的用车申请已经提交了"});
    EXPECT_TRUE(r.follow_up) << q;
    EXPECT_TRUE(has(r.query, "用车申请")) << q << " → " << r.query;
  }
  const auto end = rewrite("账号开通以后呢", {"我已经填好了入职登记表"});
  EXPECT_TRUE(end.follow_up) << end.query;
}

TEST(RewriteRules, ADifferenceInDegreeIsMeasuredAgainstTheHistory) {
  const auto r = rewrite("总监级高多少", {"经理级餐补每天多少"});
  EXPECT_TRUE(r.follow_up);
  EXPECT_TRUE(has(r.query, "餐补")) << r.query;
  const auto with = rewrite("跟夜班补贴比哪个高", {"高温补贴每月多少"});
  EXPECT_TRUE(with.follow_up);
  EXPECT_TRUE(has(with.query, "高温补贴")) << with.query;
  // A superlative asks about one thing: not a comparison with the history.
  const auto sup = rewrite("婚假最多几天", {"报销单怎么填"});
  EXPECT_EQ(std::count(sup.rules.begin(), sup.rules.end(), "follow_up_comparison"), 0);
}

// A demonstrative with its noun takes the antecedent's place as a whole (issue 23 item 3): the
// noun is the antecedent's head, so it is not repeated (合同模板模板) or left beside it.
TEST(RewriteRules, ADemonstrativeWithTheAntecedentsHeadIsReplacedAsOnePhrase) {
  // (ICU splits 供应|商, so without [rewrite] domain_word_break the antecedent is 合同模板.)
  const auto tpl = rewrite("这个模板能改付款条款吗", {"供应商合同模板在哪下载"});
  EXPECT_TRUE(has(tpl.query, "合同模板能改付款条款吗")) << tpl.query;
  EXPECT_FALSE(has(tpl.query, "模板模板")) << tpl.query;
  const auto leave = rewrite("休这个假期间工资照发吗", {"产假可以休多久"});
  EXPECT_EQ(leave.query, "休产假期间工资照发吗");
  // Without a shared head the demonstrative alone is replaced.
  EXPECT_EQ(rewrite("这个能跨年用吗", {"年假有几天"}).query, "年假能跨年用吗");
}

// [rewrite] domain_word_break: the domain lexicon's terms join ICU's pieces (供应|商), so the topic
// anchor is a whole term; off, ICU's words only.
TEST(RewriteRules, TheDomainWordBreakKeepsAKnowledgeBaseTermWhole) {
  auto anchor = [](bool on) {
    Config c = load_config(test::shipped_config()).value();
    c.rewrite.domain_word_break = on;
    const Planner p = Planner::create(c).value();
    auto prep = p.prepare(PrepareRequest{"那模板呢", {"供应商合同模板在哪下载"}, "", std::nullopt});
    EXPECT_TRUE(prep.ok());
    AnalysisContext ctx;
    ctx.now = "2026-03-15T10:00:00+08:00";
    auto a = p.analyze(*prep, ctx);
    EXPECT_TRUE(a.ok());
    return a.ok() ? a->rewrite.topic_anchor : std::string();
  };
  EXPECT_EQ(anchor(true), "供应商合同模板");
  EXPECT_EQ(anchor(false), "供应");
}

// Social words around a follow-up never land inside its rewrite (issue 23: 病假谢谢,那年假).
TEST(RewriteRules, SocialWordsAroundAFollowUpStayOutOfTheRewrite) {
  const auto thanks = rewrite("谢谢，那年假呢", {"病假怎么请"});
  EXPECT_EQ(thanks.query, "年假怎么请");
  const auto both = rewrite("好的，那婚假呢，谢谢", {"病假怎么请"});
  EXPECT_TRUE(has(both.query, "婚假")) << both.query;
  EXPECT_FALSE(has(both.query, "谢谢")) << both.query;
  EXPECT_FALSE(has(both.query, "好的")) << both.query;
  // A one-character cue without punctuation is part of the question: 好看吗 keeps its 好.
  EXPECT_TRUE(has(rewrite("好看吗", {"最近在看三体"}).query, "好看"));
  // A report of an event without 呢 is not completed into a question.
  EXPECT_FALSE(has(rewrite("搞定了，谢谢", {"打印机卡纸怎么处理"}).query, "怎么办"));
}

TEST(RewriteRules, EnglishWhatAboutTakesThePlaceOfTheMatchingNounPhrase) {
  const auto city = rewrite("How about Osaka?", {"What is the hotel limit in Tokyo?"});
  EXPECT_TRUE(has(city.query, "hotel limit in osaka")) << city.query;
  EXPECT_FALSE(has(city.query, "tokyo")) << city.query;
  const auto one = rewrite("what about the south one", {"Is there parking at the north office?"});
  EXPECT_TRUE(has(one.query, "parking at the south office")) << one.query;
}

// A short fragment in place of a long topic takes the place of its leading words only: what the
// question is about (体检) stays.
TEST(RewriteRules, AFragmentReplacesALongTopicsLeadingWordsNotTheWholeTopic) {
  const auto r = rewrite("实习生呢", {"正式员工年度体检有哪些项目"});
  EXPECT_TRUE(has(r.query, "实习生")) << r.query;
  EXPECT_TRUE(has(r.query, "体检")) << r.query;
  EXPECT_FALSE(has(r.query, "正式员工")) << r.query;
}

TEST(RewriteRules, AnEventFragmentAsksWhatHappensThen) {
  const auto r = rewrite("超时了呢", {"会议室能订多久"});
  EXPECT_TRUE(has(r.query, "会议室")) << r.query;
  EXPECT_TRUE(has(r.query, "超时了")) << r.query;
}

// 哪个… / 两者… after a turn that coordinated two things: the pair, not the previous question's
// predicate, stands in front; the turn is a follow-up even when the pair carries a category word.
TEST(RewriteRules, AWhichQuestionTakesThePairTheHistoryCoordinated) {
  const auto r = rewrite("哪个比较快", {"采购申请和付款申请都要走OA吗"});
  EXPECT_TRUE(r.follow_up);
  // The activity both were asked to do (走OA) goes with the pair: it is what 快 compares.
  EXPECT_EQ(r.query, "采购申请和付款申请走oa哪个比较快");
  EXPECT_FALSE(has(r.query, "都要")) << r.query;
  EXPECT_EQ(rewrite("哪个损失小", {"活期和定期都能提前支取吗"}).query, "活期和定期提前支取哪个损失小");
  // A lone verb (都能签吗), an adverb of doing both (一起, 分开), a count of the pair (两种), a turn
  // that says the activity its own way (审得快) or one after an answer: the pair alone.
  EXPECT_EQ(rewrite("哪个更稳妥", {"纸质合同和电子合同都能签吗"}).query, "纸质合同和电子合同哪个更稳妥");
  EXPECT_EQ(rewrite("哪个更划算", {"年假和调休可以一起休吗"}).query, "年假和调休哪个更划算");
  EXPECT_EQ(rewrite("哪个审得快", {"法务部和外部律所都能审合同吗"}).query, "法务部和外部律所哪个审得快");
  EXPECT_EQ(rewrite("哪个划算", {"月卡和年卡都能办停车吗", "都可以，年卡打八折。"}).query,
            "月卡和年卡哪个划算");
  const auto both = rewrite("两者能同时休吗", {"婚假跟丧假怎么请"});
  EXPECT_TRUE(both.follow_up);
  EXPECT_TRUE(has(both.query, "婚假跟丧假能同时休吗")) << both.query;
  // A turn that names its own pair is no follow-up of the history's.
  EXPECT_FALSE(rewrite("公积金和社保哪个比较重要", {"婚假跟丧假怎么请"}).follow_up);
}

// 他 / 她 with no name in the window: the one the previous question asked about.
TEST(RewriteRules, APersonPronounAfterAWhoQuestionIsWhatWasAsked) {
  const auto r = rewrite("他的电话是多少", {"行政部的前台主管是谁"});
  EXPECT_TRUE(has(r.query, "前台主管的电话")) << r.query;
  EXPECT_EQ(rewrite("他的电话是多少", {"行政部的前台主管是谁啊？"}).query, r.query);
  // "Who does X" asks about a task: 他们 are the people the question names (实习护士).
  EXPECT_EQ(rewrite("他们能上夜班吗", {"实习护士的排班谁负责"}).query, "实习护士能上夜班吗");
}

// A discourse opener before a comma (对了，另外，) only moves the talk on: the rewrite, a question
// standing alone, leaves it out. Without the comma it is a word of the turn (还有呢).
TEST(RewriteRules, ADiscourseOpenerIsNoPartOfTheRewrite) {
  EXPECT_EQ(rewrite("对了，它能开发票吗", {"储值卡能在其他门店用吗"}).query, "储值卡能开发票吗");
  EXPECT_EQ(rewrite("另外，它要年检吗", {"公司的叉车在哪登记"}).query.find("另外"), std::string::npos);
  EXPECT_EQ(rewrite("对了，这个要收费吗", {"工牌丢了怎么补办"}).query.find("对了"), std::string::npos);
}

// B类的呢 after …A类…: the item before 的 is parallel to the history's item.
TEST(RewriteRules, AModifierFragmentReplacesItsParallelItem) {
  const auto r = rewrite("C级的呢", {"国内B级供应商的账期多长"});
  EXPECT_TRUE(has(r.query, "国内c级")) << r.query;
  EXPECT_TRUE(has(r.query, "供应商的账期")) << r.query;
  EXPECT_FALSE(has(r.query, "b级")) << r.query;
}

// X的呢 names a modifier: it replaces the history's modifier (as many leading words as it has)
// or the topic's leading words — never the head.
TEST(RewriteRules, AModifierFragmentKeepsTheHeadItModifies) {
  const auto de = rewrite("研发中心的呢", {"集团总部的食堂几点开"});
  EXPECT_TRUE(has(de.query, "研发中心的食堂几点开")) << de.query;
  const auto whole = rewrite("华南的呢", {"华东地区的销售提成怎么算"});
  EXPECT_TRUE(has(whole.query, "华南的销售提成")) << whole.query;
  EXPECT_FALSE(has(whole.query, "华东")) << whole.query;
  // A one-word topic is the head: the modifier goes in front of it.
  const auto front = rewrite("夜班的呢", {"津贴怎么发"});
  EXPECT_TRUE(has(front.query, "夜班的津贴怎么发")) << front.query;
  // Next to a lone character ICU may have cut from a word it does not know, nothing is spliced:
  // the anchor and the turn, with the reason.
  const auto wide = rewrite("小的呢", {"宽屏显示器怎么领"});
  EXPECT_TRUE(has(wide.query, "小的")) << wide.query;
  EXPECT_TRUE(has(wide.query, "显示器")) << wide.query;
  // Its opposite opening a word of the question (大|会议室, 大号) says which word it modifies.
  EXPECT_EQ(rewrite("小的呢", {"大会议室怎么订"}).query, "小会议室怎么订");
  EXPECT_EQ(rewrite("小的呢", {"大号工牌套怎么领"}).query, "小号工牌套怎么领");
  EXPECT_EQ(rewrite("小的呢", {"怎么申请大会议室"}).query, "怎么申请小会议室");
  EXPECT_EQ(rewrite("老的呢", {"新员工入职要带什么"}).query, "老员工入职要带什么");
  // The act reversed (a one-character verb and its opposite before the same object): only the
  // verb swaps, or the fragment's own word replaces verb and object; never both verbs (收送礼).
  EXPECT_EQ(rewrite("卖房呢", {"买房子要交什么税"}).query, "卖房子要交什么税");
  EXPECT_EQ(rewrite("送礼呢", {"收礼品的上限是多少"}).query, "送礼的上限是多少");
  EXPECT_EQ(rewrite("发快递呢", {"收快递在哪里"}).query, "发快递在哪里");
  // A noun that merely ends where the object starts is no reversed act (手机 / 买|机票).
  EXPECT_EQ(rewrite("手机呢", {"怎么买机票"}).query, "怎么买手机");
  // The topic's leading modifier had no 的 (招待|费用报销): the item takes its place without one.
  const auto lead = rewrite("差旅的？", {"招待费用报销有什么限制"});
  EXPECT_TRUE(has(lead.query, "差旅费用报销")) << lead.query;
  EXPECT_FALSE(has(lead.query, "招待")) << lead.query;
  const auto own_de = rewrite("上季度的呢", {"本季度的绩效面谈什么时候做"});
  EXPECT_TRUE(has(own_de.query, "上季度的绩效面谈")) << own_de.query;
  EXPECT_FALSE(has(own_de.query, "的的")) << own_de.query;
}

// 他们 after two coordinated names is both; 那里 / 这里 is the place the history named, without
// the modifier that described it.
TEST(RewriteRules, PluralAndPlacePronounsTakeTheWholeAntecedent) {
  const auto both = rewrite("他们什么时候入职的", {"郑玥和单骁是哪个部门的"});
  EXPECT_TRUE(has(both.query, "郑玥和单骁")) << both.query;
  const auto place = rewrite("那里几点关门", {"总部的健身房在几楼"});
  EXPECT_TRUE(has(place.query, "健身房几点关门")) << place.query;
}

// 那里 / 这边 stand for a place: what a where-question asked about, else the place a turn named
// after a word of going or being somewhere (its count dropped; a name ICU does not know kept
// whole), else a short answer to a where-question. After 在 the pronoun is the place the answer
// named, not what the question asked the place of.
TEST(RewriteRules, APlacePronounIsThePlaceTheHistoryNamed) {
  EXPECT_EQ(rewrite("那里周末开放吗", {"图书馆在哪", "在C座二楼，刷工牌进入。"}).query, "图书馆周末开放吗");
  EXPECT_EQ(rewrite("那里人多不多", {"周末去哪玩了", "去了趟鼓浪屿"}).query, "鼓浪屿人多不多");
  EXPECT_EQ(rewrite("那边房租贵吗", {"我们部门要搬到张江了", "什么时候搬", "下个月"}).query, "张江房租贵吗");
  EXPECT_EQ(rewrite("那儿能停车吗", {"团建去哪了", "在一个农家乐"}).query, "农家乐能停车吗");
  EXPECT_EQ(rewrite("我也在那边", {"你们公司在哪", "在中关村"}).query, "我也在中关村");
}

// An A-not-A question (难不难, 能不能) has its own predicate: the history goes in front.
TEST(RewriteRules, AnANotAQuestionKeepsItsPredicateLast) {
  const auto r = rewrite("贵不贵", {"打算报名公司的英语培训班"});
  EXPECT_TRUE(r.query.ends_with("贵不贵")) << r.query;
  EXPECT_TRUE(has(r.query, "英语培训班")) << r.query;
}

// A report that something is done (搞定了, 找到了) asks nothing: it is not completed from the
// history.
TEST(RewriteRules, AReportOfAnEventIsLeftAsTyped) {
  const auto r = rewrite("弄好了，多谢", {"请在设置里重新绑定手机号。"});
  EXPECT_FALSE(has(r.query, "绑定")) << r.query;
}

// A request to say more (详细讲讲) asks the whole previous question again: it goes in front of it,
// and no word of the previous question is replaced by it; with words of its own it is a question
// of its own.
TEST(RewriteRules, ARequestForDetailAsksThePreviousQuestionAgain) {
  const auto r = rewrite("详细讲讲", {"团建经费按什么标准发"});
  EXPECT_EQ(r.query, "详细讲讲团建经费按什么标准发");
  const auto en = rewrite("tell me more", {"How do I book the shuttle bus?"});
  EXPECT_TRUE(has(en.query, "shuttle bus")) << en.query;
  EXPECT_TRUE(en.query.starts_with("tell me more")) << en.query;
  const auto own = rewrite("详细讲讲报销流程", {"团建经费按什么标准发"});
  EXPECT_FALSE(has(own.query, "团建经费按什么标准发")) << own.query;
}

}  // namespace

// A demonstrative with its noun (这个系统, 这张表) stands for the phrase the history named with that
// noun, the answer first (费控系统, a 《title》 whole).
TEST(RewriteRules, ADemonstrativeWithItsNounTakesThePhraseThatNamedIt) {
  EXPECT_EQ(rewrite("这个系统能导出报表吗", {"报销在哪个系统提交", "在费控系统里提交。"}).query,
            "费控系统能导出报表吗");
  EXPECT_EQ(rewrite("这张表要盖章吗", {"出差要填什么表", "填《差旅申请表》，部门经理签字。"}).query,
            "《差旅申请表》要盖章吗");
  // The history's thing is the pointing phrase's own noun: nothing to add, nothing spliced.
  EXPECT_EQ(rewrite("这家餐厅几点开门", {"园区里有两家餐厅吗"}).query, "这家餐厅几点开门");
}

// A modifier with 的 replaces the whole modifier of the same kind (issue 23: 经理的 replaces
// 普通员工的): people for people, or a word with the same last character where ICU cut the
// history's (本科|生).
TEST(RewriteRules, AModifierReplacesTheWholeModifierOfItsKind) {
  EXPECT_EQ(rewrite("经理的呢", {"普通员工的差旅标准是多少"}).query, "经理的差旅标准是多少");
  EXPECT_EQ(rewrite("主管的呢", {"普通员工的餐补是多少"}).query, "主管的餐补是多少");
  EXPECT_EQ(rewrite("研究生的呢", {"本科生的学费怎么交"}).query, "研究生的学费怎么交");
  EXPECT_EQ(rewrite("海外的呢", {"国内出差的餐补标准"}).query, "海外出差的餐补标准");
}

// A lone head character ICU cut from its word (高铁|票) makes one compound with it: the fragment
// (机票, 船票) takes the compound's place, not its modifier's (机票票 fell back). A whole word that
// parallels (白班 beside 交接|班) comes first; a run of lone characters (门禁|卡|丢) is left alone.
TEST(RewriteRules, ALoneHeadMakesACompoundWithItsWord) {
  EXPECT_EQ(rewrite("机票", {"高铁票报销要行程单吗"}).query, "机票报销要行程单吗");
  EXPECT_EQ(rewrite("那船票呢", {"火车票可以报销吗"}).query, "船票可以报销吗");
  EXPECT_EQ(rewrite("那夜班呢", {"白班的交接班记录谁填"}).query, "夜班的交接班记录谁填");
  EXPECT_EQ(rewrite("那工卡呢", {"门禁卡丢了怎么办"}).query, "工卡丢了怎么办");
}

// A turn whose verb is the one the history's topic was the object of, with no object of its own,
// gets the topic back after the verb, its aspect and its count (一周喝几杯奶茶). After an aspect
// without a count (爬了多久) the topic stays in front.
TEST(RewriteRules, AnObjectGoesBackAfterItsVerb) {
  EXPECT_EQ(rewrite("一周喝几杯", {"你每天喝奶茶吗", "每天都喝"}).query, "一周喝几杯奶茶");
  EXPECT_EQ(rewrite("下次带我去呗", {"你去过西安吗", "去过两次"}).query, "下次带我去西安呗");
  EXPECT_EQ(rewrite("一天喝几杯", {"你喝美式吗", "每天都喝"}).query, "一天喝几杯美式");
  EXPECT_EQ(rewrite("爬了多久", {"你爬过泰山吗", "爬过"}).query, "泰山爬了多久");
}

// A turn closing with that verb (不喝了, 还没吃完吗, 我也想学) takes the object after the verb and
// its result, before a closing 了 and a final particle, though ICU glues the verb to its neighbours
// (不|喝了, 想学). A verb inside an adjective (好看) takes none, nor does a classifier (有两|个).
TEST(RewriteRules, AnObjectGoesBeforeAClosingLe) {
  EXPECT_EQ(rewrite("为什么不喝了", {"你还喝咖啡吗", "不喝了"}).query, "为什么不喝咖啡了");
  EXPECT_EQ(rewrite("怎么不打了", {"你还打篮球吗", "不打了"}).query, "怎么不打篮球了");
  EXPECT_EQ(rewrite("还没吃完吗", {"你在吃火锅吗"}).query, "还没吃完火锅吗");
  EXPECT_EQ(rewrite("我也想学", {"你在学吉他吗", "在学"}).query, "我也想学吉他");
  // The topic kept with its adverb and verb (在学|钢琴) gives back its object alone.
  EXPECT_EQ(rewrite("为什么不学了", {"你还在学钢琴吗", "不学了"}).query, "为什么不学钢琴了");
  EXPECT_EQ(rewrite("好看吗", {"你喜欢看综艺吗", "喜欢"}).query, "综艺好看吗");
  const auto count = rewrite("哪个城市有两个呢", {"列出各博物馆所在的城市", "请问每个城市分别有几个"});
  EXPECT_FALSE(count.query.ends_with("有两个城市分别")) << count.query;
}

// A turn closing with 呗 or 吧 is a request with a verb of its own: never a fragment put in the
// question's place (你喝帮我买两杯呗吗). A count closing it (两杯, 几本) counts the topic.
TEST(RewriteRules, ARequestCountsTheTopic) {
  EXPECT_EQ(rewrite("帮我买两杯呗", {"你喝奶茶吗", "喝"}).query, "帮我买两杯奶茶呗");
  EXPECT_EQ(rewrite("推荐几本吧", {"你看小说吗", "看"}).query, "推荐几本小说吧");
  EXPECT_EQ(rewrite("给我来两份吧", {"你们有套餐吗", "有"}).query, "给我来两份套餐吧");
  const auto sort = rewrite("按评分高低排序吧", {"一共有哪些由小说改编成的电视剧"});
  EXPECT_TRUE(sort.query.ends_with("按评分高低排序吧")) << sort.query;
}

// 他们 after an answer naming a group that does it (`[rewrite] group_heads`: 部, 组, 中心) is that
// group, past the verb the answer repeats from its question (交给|财务部…); a question asking whom
// to give it to (交给谁) is no "X is who" question, whose X would be the referent.
TEST(RewriteRules, TheyAfterAnAnswerNamingAGroup) {
  EXPECT_EQ(rewrite("他们周末上班吗", {"报销单交给谁", "交给财务部共享中心，每周二处理。"}).query,
            "财务部共享中心周末上班吗");
  // Both groups the answer coordinated (TheyAfterAnAnswerListingPeopleIsAllOfThem).
  EXPECT_EQ(rewrite("他们一般几天回复", {"活动由谁负责", "由工会和行政部一起组织。"}).query,
            "工会和行政部一般几天回复");
  EXPECT_EQ(rewrite("他们的电话是多少", {"网络坏了找谁修", "找IT运维组，分机8899。"}).query,
            "it运维组的电话是多少");
  // A lone character the question also has may open a name ICU cut (人|社|局): it stays.
  EXPECT_EQ(rewrite("他们在哪办公", {"人才补贴谁来发", "人社局统一发放。"}).query, "人社局在哪办公");
}

// An English fragment sharing no word with the question stands for the phrase the question's shape
// gives: after a preposition of its kind, after its own determiner, the yes/no question's subject,
// or the object when the speaker is the subject — not its last noun phrase (is the gym open on the
// cafeteria). "the Berlin one" still stands for the last phrase's head.
TEST(RewriteRules, EnglishWhatAboutFollowsTheQuestionsShape) {
  EXPECT_EQ(rewrite("And after 6pm?", {"Is parking free before 9am?"}).query, "is parking free after 6pm");
  EXPECT_EQ(rewrite("what about my laptop", {"Who do I call if my phone breaks?"}).query,
            "who do i call if my laptop breaks");
  EXPECT_EQ(rewrite("how about the library?", {"Is the canteen open on Sundays?"}).query,
            "is the library open on sundays");
  EXPECT_EQ(rewrite("How about vendors?", {"Do employees need to complete security training?"}).query,
            "do vendors need to complete security training");
  EXPECT_EQ(rewrite("How about trains?", {"Can I book flights through the portal?"}).query,
            "can i book trains through the portal");
  EXPECT_EQ(rewrite("what about the Berlin one", {"Is there a gym in the Paris office?"}).query,
            "is there a gym in the berlin office");
  // for / to / about: the whole phrase of the question's own (for staff, up to on weekends), or,
  // when it has none, the fragment goes at the end.
  EXPECT_EQ(rewrite("what about for visitors", {"is there a parking fee for staff on weekends"}).query,
            "is there a parking fee for visitors on weekends");
  EXPECT_EQ(rewrite("What about for part-timers?", {"How many days of annual leave do we get?"}).query,
            "how many days of annual leave do we get for part-timers");
  // A one-word name stands for the last phrase's modifier (P1 tickets → P3 tickets); a plural
  // names things of its own (team leads → directors).
  EXPECT_EQ(rewrite("And P3?", {"What's the response time for P1 tickets?"}).query,
            "what's the response time for p3 tickets");
  EXPECT_EQ(rewrite("what about directors", {"What's the approval limit for team leads?"}).query,
            "what's the approval limit for directors");
  // A wh-question's object after its verb (do we archive | old invoices, who approves | vendor
  // invoices, the form to request | parking permits), the verb and its particle staying; a one-word
  // name still parallels a name (Linux after … on Windows).
  EXPECT_EQ(rewrite("What about payslips?", {"How long do we archive old invoices?"}).query,
            "how long do we archive payslips");
  EXPECT_EQ(rewrite("what about purchase orders", {"Who approves vendor invoices?"}).query,
            "who approves purchase orders");
  EXPECT_EQ(rewrite("What about locker keys?", {"Where is the form to request parking permits?"}).query,
            "where is the form to request locker keys");
  EXPECT_EQ(rewrite("What about Linux?", {"How do I set up the printer on Windows?"}).query,
            "how do i set up the printer on linux");
  // wh + be: the subject up to its participle (when are | the invoices | sent).
  EXPECT_EQ(rewrite("What about purchase orders?", {"When are the invoices sent?"}).query,
            "when are the purchase orders sent");
}

// ICU glues the progressive 在 to a one-character verb (在学|钢琴): a question about the thing the
// speaker is busy with asks about what follows it.
TEST(RewriteRules, TheThingAfterAGluedProgressiveVerb) {
  EXPECT_EQ(rewrite("多久能学会", {"我最近在学钢琴"}).query, "钢琴多久能学会");
  EXPECT_EQ(rewrite("在哪买的", {"我最近在看三国演义"}).query, "三国演义在哪买的");
}

// A fragment naming people takes the place of the people a long topic's modifier qualifies, not
// of the modifier alone (普通员工出差住宿标准 + 那经理呢 → 经理出差住宿标准, not 经理员工…).
TEST(RewriteRules, PeopleTakeThePlaceOfPeople) {
  EXPECT_EQ(rewrite("那经理呢", {"普通员工出差住宿标准是多少"}).query, "经理出差住宿标准是多少");
  EXPECT_EQ(rewrite("那实习生呢", {"新员工入职培训几天"}).query, "实习生入职培训几天");
}

TEST(RewriteRules, APersonIsFoundByTheShapeOfTheirName) {
  // A surname and one or two characters ICU does not know: the name, not the verb after it.
  const auto name = rewrite("她几点下班", {"报销问题请找财务部的李娜负责"});
  EXPECT_TRUE(has(name.query, "李娜几点下班")) << name.query;
  // A surname and a title.
  const auto title = rewrite("他的电话是多少", {"合同由王经理审核"});
  EXPECT_TRUE(has(title.query, "王经理的电话")) << title.query;
  // 在吗 closing a question asks whether someone is there; it is no greeting to trim.
  const auto there = rewrite("她明天在吗", {"考勤问题找人事部的刘芳"});
  EXPECT_TRUE(has(there.query, "刘芳明天在吗")) << there.query;
  // A name the host's vocabulary holds as a term (the shipped KB's 刘洋) is read from ICU's own
  // pieces, which the term would join.
  EXPECT_EQ(rewrite("他在几楼", {"年假审批找谁", "找行政的刘洋。"}).query, "刘洋在几楼");
  // A noun naming people in the question outranks a run ICU did not know in the answer (盘|点).
  EXPECT_EQ(rewrite("他们要值夜班吗", {"值班助理负责哪些工作", "负责排班、盘点和客诉处理。"}).query,
            "值班助理要值夜班吗");
  // A name read from its surname outranks a later clause's run ICU did not know (退|货).
  EXPECT_EQ(rewrite("他的工号是多少", {"设备坏了找谁", "找设备科的孙磊，他负责设备的退货。"}).query,
            "孙磊的工号是多少");
}

// A statement that reports what someone did names them before its predicate: before an adverb,
// a verb with its aspect, or a verb closing the clause with 的. A known name has no shape of its
// own (ICU holds 贝克 whole), so its place is what marks it; a word with a lone verb after it
// (方案|交|晚了) is no one.
TEST(RewriteRules, APersonIsTheSubjectOfWhatTheStatementReports) {
  EXPECT_EQ(rewrite("他最近在忙什么", {"贝克汉姆又开了一家公司"}).query, "贝克汉姆最近在忙什么");
  EXPECT_EQ(rewrite("他最近怎么样", {"鲁迅又被写进课本了"}).query, "鲁迅最近怎么样");
  EXPECT_EQ(rewrite("他后来怎么样了", {"昨天看了新闻 库克已经卸任了"}).query, "库克后来怎么样了");
  EXPECT_EQ(rewrite("他还拍过什么", {"推荐你看盗梦空间，诺兰拍的"}).query, "诺兰还拍过什么");
  const auto late = rewrite("他经常这样吗", {"方案交晚了，他当着大家的面批评我"});
  EXPECT_FALSE(has(late.query, "方案")) << late.query;
  // A question's opening clause reports nothing: the person is the one named before it.
  EXPECT_EQ(rewrite("那她拿过什么奖", {"蔡依林的粉丝有多少", "粉丝数还不少，她出过多少歌？"}).query,
            "那蔡依林拿过什么奖");
}

// 这 / 那 with a classifier (这家|很好吃吗, 这家|健身房) point together: the antecedent takes both
// places, not 这's alone (海底捞家很好吃吗, 乐刻家健身房); a noun after them stays. A classifier
// that begins a word (这|部分) is no classifier.
TEST(RewriteRules, AClassifierGoesWithItsDemonstrative) {
  EXPECT_EQ(rewrite("这家健身房几点关门", {"楼下新开了一家乐刻"}).query, "乐刻健身房几点关门");
  EXPECT_EQ(rewrite("这家很好吃吗", {"楼下新开了一家海底捞"}).query, "海底捞很好吃吗");
  EXPECT_EQ(rewrite("这场最多能坐多少人", {"下周的演唱会在体育馆"}).query, "体育馆最多能坐多少人");
  const auto book = rewrite("这本我一直想看", {"你最近在看什么书", "东野圭吾的白夜行"});
  EXPECT_TRUE(has(book.query, "白夜行我一直想看")) << book.query;
  EXPECT_TRUE(has(rewrite("这部分怎么算", {"加班费怎么算"}).query, "部分怎么算"));
}

// A noun names people by its last morpheme ([rewrite] person_heads): 他们 / 她们 take it up; a noun
// the turn itself repeats is not what its pronoun means; a turn that names the people before its
// own pronoun is left as typed.
TEST(RewriteRules, APersonNounIsFoundByItsEnding) {
  EXPECT_EQ(rewrite("他们每天工作几小时", {"快递员的工资怎么算"}).query, "快递员每天工作几小时");
  EXPECT_EQ(rewrite("她们一般多大年纪", {"哪些女演员拿过金马奖"}).query, "女演员一般多大年纪");
  EXPECT_EQ(rewrite("他们平均有几个孩子", {"有多少球员夫妻有了孩子又离婚"}).query,
            "球员夫妻平均有几个孩子");
  // The asker's own noun, not the one the answer names.
  EXPECT_EQ(rewrite("他们的工牌多久能领到", {"新来的实习生要办工牌吗", "要，由部门主管在行政前台代领。"})
                .query,
            "实习生的工牌多久能领到");
  // The person the newest turn spoke of last.
  EXPECT_EQ(rewrite("他多大了", {"我挺喜欢阿森纳，萨卡太猛了"}).query, "萨卡多大了");
  const std::string in_turn = "告诉我哪些作家得过诺贝尔奖，他们写过什么";
  EXPECT_TRUE(has(rewrite(in_turn, {"今天天气不错"}).query, "他们写过什么"));
  // A word with such an ending that names no one (账户) is passed over.
  EXPECT_EQ(rewrite("他们多久能处理好", {"账户被冻结了，工作人员说要再审核"}).query,
            "工作人员多久能处理好");
}

// A 的-modifier that says which people (外包的员工, 参加培训的人) goes with the noun: the noun alone
// names others, and a lone 人 is no noun (参加培训的人 + 他们 was 人要交报告吗). Before a possessive
// 的 the modifier comes only when the noun needs it; a modifier that is the tail of a longer one
// (上过这门课的学生: 课的) is left out.
TEST(RewriteRules, APersonNounKeepsTheModifierThatSaysWhichPeople) {
  EXPECT_EQ(rewrite("他们要交报告吗", {"参加培训的人有补贴吗"}).query, "参加培训的人要交报告吗");
  EXPECT_EQ(rewrite("他们要谁审批", {"外包的员工能用VPN吗"}).query, "外包的员工要谁审批");
  EXPECT_EQ(rewrite("他们打得好吗", {"你平时跟谁打乒乓球", "跟楼下的大爷"}).query, "楼下的大爷打得好吗");
  EXPECT_EQ(rewrite("他们的工位在哪", {"新来的实习生几点上班"}).query, "实习生的工位在哪");
  EXPECT_EQ(rewrite("他们叫什么", {"上过这门课的学生有多少"}).query, "学生叫什么");
  // The noun itself names people: 内部 of 公司的内部 does not, whatever its ending.
  EXPECT_FALSE(has(rewrite("他们会查记录吗", {"公司的内部系统能在家登录吗"}).query, "公司的内部"));
}

// A reply to what the user just stated is built from the statement: why of it without the
// speaker, the statement said of the user too, or asked whether it holds without its hearsay frame.
TEST(RewriteRules, AReplyToAStatementIsBuiltFromTheStatement) {
  EXPECT_EQ(rewrite("为什么", {"我最近不喝咖啡了"}).query, "为什么最近不喝咖啡了");
  EXPECT_EQ(rewrite("我也是", {"我每周都去爬山"}).query, "我也每周都去爬山");
  EXPECT_EQ(rewrite("是吗", {"听说食堂下周要涨价"}).query, "食堂下周要涨价吗");
  EXPECT_EQ(rewrite("是吗", {"你知道吗，园区门口新开了一家超市"}).query, "园区门口新开了一家超市吗");
  // 我国 is no speaker, and 我们 before a noun owns the subject: neither is cut off.
  EXPECT_TRUE(has(rewrite("为什么", {"我国的高铁里程世界第一"}).query, "我国")) << "我国";
  EXPECT_FALSE(has(rewrite("我们也是", {"我们部门周五要团建"}).query, "我们也部门"));
  // A bare predicate after it asks about what the speaker does: the object, with a one-character
  // verb that makes it an activity; an opinion (我觉得…) is not what the speaker does.
  EXPECT_EQ(rewrite("在哪办", {"我打算周六去车展"}).query, "车展在哪办");
  EXPECT_EQ(rewrite("难不难", {"我想学吉他"}).query, "学吉他难不难");
  // After the progressive 在 a lone character opens the verb even inside a run of a name ICU does
  // not know (玩|艾|尔|登…); a name or a phrase is asked about without it.
  EXPECT_EQ(rewrite("难吗", {"我最近在玩艾尔登法环"}).query, "艾尔登法环难吗");
  EXPECT_EQ(rewrite("好看吗", {"我最近在追漫长的季节"}).query, "漫长的季节好看吗");
  EXPECT_TRUE(has(rewrite("贵吗", {"我觉得这家店的咖啡比星巴克好喝"}).query, "这家店的咖啡"));
  // 它 after it is the thing the speaker does something with, without the verb.
  EXPECT_EQ(rewrite("它对膝盖好吗", {"我最近开始学太极拳"}).query, "太极拳对膝盖好吗");
  // A turn opening with 比 compares what the statement compared, or what it is about.
  EXPECT_EQ(rewrite("比上海还贵吗", {"我觉得深圳的房租比广州贵"}).query, "深圳的房租比上海还贵吗");
  EXPECT_EQ(rewrite("比老款的好吗", {"新版的耳机音质一般"}).query, "新版的耳机音质比老款的好吗");
}

// A first-person statement often leaves its speaker out: in a history with no question, a
// statement opening (after when) with a word of `speaker_openers` or a one-character verb with its
// aspect is the user's own, and a bare predicate asks about its object — not the whole statement
// pasted in front. A count before the object (一双) is no part of it. After an answer to the user's
// question (在系统里提交) the question still frames the turn.
TEST(RewriteRules, AStatementWithItsSpeakerLeftOutIsTheSpeakers) {
  EXPECT_EQ(rewrite("好看吗", {"最近在看三体"}).query, "三体好看吗");
  EXPECT_EQ(rewrite("几点开门", {"周末想去故宫"}).query, "故宫几点开门");
  EXPECT_EQ(rewrite("叫什么名字", {"养了一只橘猫"}).query, "橘猫叫什么名字");
  EXPECT_EQ(rewrite("在哪里买的", {"昨天买了一双新鞋"}).query, "新鞋在哪里买的");
  EXPECT_EQ(rewrite("需要提前几天", {"年假怎么申请", "在系统里提交"}).query, "年假申请需要提前几天");
  EXPECT_EQ(rewrite("有什么好玩的", {"下个月去云南"}).query, "云南有什么好玩的");
  // Asking who, where or what asks about the thing, not the activity; a count (个) after the verb
  // is no part of the thing.
  EXPECT_EQ(rewrite("谁唱的", {"最近一直在听晴天"}).query, "晴天谁唱的");
  EXPECT_EQ(rewrite("多少钱", {"我想买个iPad"}).query, "ipad多少钱");
  EXPECT_EQ(rewrite("好吃吗", {"我做了个蛋糕"}).query, "蛋糕好吃吗");
  // A statement opening with a noun is about that noun: no speaker is implied.
  const auto noun_first = rewrite("开了多久了", {"楼下那家拉面馆关门了"});
  EXPECT_FALSE(gave(noun_first, "statement_object"));
}

// A bare predicate ending in a verb of the frame asks about what that verb took there: the object
// after the turn, whose own words stay; after a short answer to a question put to the user, the
// answer in the question's slot. An object that asks something (流程是什么) is none.
TEST(RewriteRules, ABarePredicateEndingInAVerbGetsItsObject) {
  EXPECT_EQ(rewrite("为什么喜欢", {"你最喜欢什么电影", "泰坦尼克"}).query, "为什么喜欢泰坦尼克");
  EXPECT_EQ(rewrite("我也喜欢", {"你喜欢吃火锅吗", "喜欢啊，特别是重庆火锅"}).query, "我也喜欢吃火锅");
  EXPECT_EQ(rewrite("为什么需要", {"报销需要发票吗"}).query, "为什么需要发票");
  // ICU glues a one-character verb to its modal (想去|故宫): it is found at either end.
  EXPECT_EQ(rewrite("怎么去", {"周末想去故宫", "好啊"}).query, "怎么去故宫");
  EXPECT_EQ(rewrite("我也想", {"周末想去故宫"}).query, "我也想去故宫");
  const auto asks = rewrite("谁审批", {"报销审批流程是什么"});
  EXPECT_FALSE(has(asks.query, "谁审批流程")) << asks.query;
}

// "And you?" turns the previous question to the one asked, or asks whether the user's own
// statement holds of them — never a topic glued to the pronoun (四川人你, 干你).
TEST(RewriteRules, AndYouAsksThePreviousQuestionBack) {
  EXPECT_EQ(rewrite("你呢", {"你是哪里人", "我是四川人"}).query, "你是哪里人");
  EXPECT_EQ(rewrite("那你呢", {"你周末一般干嘛", "在家打游戏"}).query, "你周末一般干嘛");
  EXPECT_EQ(rewrite("您呢", {"周末一般干嘛"}).query, "您周末一般干嘛");
  EXPECT_EQ(rewrite("你呢", {"我是四川人"}).query, "你是四川人吗");
  // Someone of the addressee's (你妈呢, 你男朋友呢) takes the addressee's place — one person for
  // another (你爸 → 你妈), a place modifying the question's noun (你们宿舍 → 你们隔壁宿舍).
  EXPECT_EQ(rewrite("你男朋友呢", {"你最喜欢哪种水果", "芒果 又甜又香"}).query, "你男朋友最喜欢哪种水果");
  EXPECT_EQ(rewrite("你妈呢", {"你爸爱看什么节目", "新闻联播"}).query, "你妈爱看什么节目");
  EXPECT_EQ(rewrite("那你们隔壁呢", {"你们宿舍几个人", "四个人"}).query, "你们隔壁宿舍几个人");
  // The user's own answer first, then 你呢 (its space dropped by normalization): the answer stays.
  EXPECT_EQ(rewrite("两点多才睡 你呢", {"昨晚几点睡的"}).query, "两点多才睡 你昨晚几点睡的");
  // Without 呢 a turn opening with 你 asks on its own: nothing is asked back.
  EXPECT_FALSE(has(rewrite("你玩多久了", {"你玩和平精英吗", "玩啊 天天玩"}).query, "吗"));
}

// 我也是 after an answer to a yes-or-no question put to the user says of the user what the answer
// stated: the question for a yes, the reason for a no.
TEST(RewriteRules, MeTooAfterAYesOrNoSaysWhatTheAnswerStated) {
  EXPECT_EQ(rewrite("我也是", {"你对猫毛过敏吗", "过敏 一摸就打喷嚏"}).query, "我也对猫毛过敏");
  EXPECT_EQ(rewrite("我也是", {"你中秋回家吗", "不回 要值班"}).query, "我也要值班");
}

// A time with 呢 asks the previous question at that time: in its time word's place — a day of the
// week too, or two words ICU cut apart (工作|日) — else after the question's own subject.
TEST(RewriteRules, ATimeAsksThePreviousQuestionThen) {
  EXPECT_EQ(rewrite("周日呢", {"你周六有空吗", "没空 要加班"}).query, "你周日有空吗");
  EXPECT_EQ(rewrite("周末呢", {"你工作日一般几点睡", "十二点左右"}).query, "你周末一般几点睡");
  EXPECT_EQ(rewrite("周五呢", {"你孩子几点放学", "四点半"}).query, "你孩子周五几点放学");
  // A time of several words or a break by name takes the place of the question's own time word
  // or break (was 春节期间周日上门取件吗, 周六能周日下午吗); a holiday named with 节 keeps it.
  EXPECT_EQ(rewrite("春节期间呢", {"快递员周日上门取件吗"}).query, "快递员春节期间上门取件吗");
  EXPECT_EQ(rewrite("周日下午呢", {"周六能约洗牙吗"}).query, "周日下午能约洗牙吗");
  EXPECT_EQ(rewrite("寒假呢", {"暑假能留校住吗"}).query, "寒假能留校住吗");
  EXPECT_EQ(rewrite("那端午呢", {"中秋节礼金发多少"}).query, "端午节礼金发多少");
  EXPECT_EQ(rewrite("国庆呢", {"春节你回老家吗"}).query, "国庆你回老家吗");
}

TEST(Phrases, ATemporalPhraseOnlySaysWhen) {
  for (const char* w : {"周日下午", "明天晚上", "春节期间", "节假日", "暑假", "国庆前"})
    EXPECT_TRUE(internal::temporal_phrase(w)) << w;
  for (const char* w : {"周日的课", "春节礼盒", "下午茶", "假期工资"})
    EXPECT_FALSE(internal::temporal_phrase(w)) << w;
}

// Chit-chat shapes that came out garbled: the speaker ICU glues to an adverb (我不|想去), a where-
// word that is the whole slot (哪里|旅游), a pronoun for a thing a count introduced (一只猫, 有两只
// 狗), and "what happened next" put in the place of the previous question's object.
TEST(RewriteRules, ChitChatShapesComeOutWhole) {
  EXPECT_EQ(rewrite("为啥", {"我不想去上班了"}).query, "为啥不想去上班了");
  EXPECT_EQ(rewrite("为什么呢", {"你最想去哪里旅游", "冰岛"}).query, "为什么最想去冰岛旅游");
  EXPECT_EQ(rewrite("冰岛", {"你最想去哪里旅游"}).query, "我最想去冰岛旅游");
  EXPECT_EQ(rewrite("它叫什么", {"我家新养了一只猫"}).query, "猫叫什么");
  EXPECT_EQ(rewrite("它几岁了", {"邻居家有两只狗"}).query, "狗几岁了");
  EXPECT_FALSE(has(rewrite("后来呢", {"你看过盗梦空间吗"}).query, "看过后来"));
  // A verb before a question word is no piece of the noun a demonstrative points at (那部|剧|叫|
  // 什么 lost 叫); a person a count introduced is the person (一个女生 → 女生).
  EXPECT_EQ(rewrite("那部剧叫什么", {"胡歌最近拍了一部新剧"}).query, "新剧叫什么");
  // A parallel item takes the place of a whole name ICU cut into characters (周|杰|伦), not half.
  EXPECT_EQ(rewrite("林俊杰呢", {"周杰伦最火的歌是哪首", "七里香吧"}).query, "林俊杰最火的歌是哪首");
  EXPECT_EQ(rewrite("她是谁", {"刚看到一个视频，一个女生唱歌特别好听"}).query, "女生是谁");
}

// After a short answer to a question word's question the answer is what a bare predicate asks
// about — not a value (九点, 三千五) that answered how much or when; a turn with its own subject
// (我还没看) is a clause, never spliced into the previous question; chat's space between clauses
// in a history turn breaks them (火锅吧 好久没吃了 answers 火锅).
TEST(RewriteRules, AnAnswerIsWhatTheNextPredicateAsksAbout) {
  EXPECT_EQ(rewrite("好看不", {"你最近在看啥剧", "繁花"}).query, "繁花好看不");
  EXPECT_FALSE(has(rewrite("扣钱吗", {"上班几点打卡", "九点"}).query, "九点扣钱吗"));
  EXPECT_EQ(rewrite("我还没看", {"你看过奥本海默吗", "看了 三个小时有点长"}).query, "我还没看奥本海默");
  EXPECT_EQ(rewrite("上周刚吃过", {"晚上想吃啥", "火锅吧 好久没吃了"}).query, "上周刚吃过火锅");
  EXPECT_EQ(rewrite("我也是", {"你喜欢啥运动", "骑行 每周都骑"}).query, "我也喜欢骑行");
  // Why after an answer to a yes-or-no question asks why of the answer, with the question's
  // object (为|啥 is cut by ICU, still a question word); with no such object, why of the question.
  EXPECT_EQ(rewrite("为啥", {"你喜欢逛街吗", "不喜欢"}).query, "为啥不喜欢逛街");
  EXPECT_EQ(rewrite("为什么", {"年假可以跨年吗"}).query, "为什么年假可以跨年");
  // After a question put to the person, an answer stating something of their own is what why asks
  // about, as it stands; after a question about a rule, why still asks about the rule.
  EXPECT_EQ(rewrite("为啥", {"你还在学钢琴吗", "早就不学了，现在改学吉他"}).query, "为啥现在改学吉他");
  EXPECT_FALSE(has(rewrite("为什么", {"试用期可以请婚假吗", "按规定，试用期员工不能请婚假。"}).query,
                   "按规定"));
}

// A turn that is only social (好啊, 嗯嗯, 是的) names nothing a follow-up points back to: the turn
// before it frames the follow-up.
TEST(RewriteRules, ASocialTurnLeavesTheWindow) {
  EXPECT_EQ(rewrite("几点开门", {"周末想去故宫", "好啊"}).query, "故宫几点开门");
  EXPECT_EQ(rewrite("在哪", {"我打算周六去车展", "嗯嗯"}).query, "车展在哪");
  EXPECT_EQ(rewrite("门票多少钱", {"我打算周六去车展", "嗯嗯"}).query, "车展门票多少钱");
  // A bare question before it is still read through the turns before the bare question.
  EXPECT_EQ(rewrite("最多能休几天", {"年假怎么申请", "需要提前几天", "好的"}).query, "年假申请最多能休几天");
  // Only social turns: the newest is still read (and the turn is left as it is or fails safe).
  EXPECT_FALSE(has(rewrite("几点开门", {"好啊"}).query, "好啊"));
}

// A short answer to a question put to the user, or to a choice, is that question said back with
// the answer in its slot; 为啥 after such an answer asks why of it. The user's own question with a
// slot word (要签几年) is no question put to the user: its fragment is no answer.
TEST(RewriteRules, AShortAnswerFillsTheSlotTheQuestionAsked) {
  const auto fruit = rewrite("芒果", {"你最喜欢吃什么水果"});
  EXPECT_EQ(fruit.query, "我最喜欢吃芒果");
  EXPECT_EQ(rewrite("游泳", {"好呀，你周末想去爬山还是游泳"}).query, "我周末想去游泳");
  EXPECT_EQ(rewrite("年假", {"你要请年假还是病假"}).query, "我要请年假");
  EXPECT_TRUE(has(rewrite("为啥", {"你最想去哪个城市旅游", "成都"}).query, "为啥最想去成都"));
  EXPECT_FALSE(has(rewrite("十天", {"劳动合同要签几年"}).query, "劳动合同要签十天"));
}

// 它 / 这个 after an answer that named the thing a question asked for is that thing; after an
// answer that is a statement about the user's own question it is still the question's thing.
TEST(RewriteRules, AThingPronounAfterAnAnswerIsTheThingItNamed) {
  EXPECT_EQ(rewrite("它贵吗", {"你最近在用什么耳机", "索尼的降噪耳机，音质不错"}).query, "索尼的降噪耳机贵吗");
  EXPECT_EQ(rewrite("这个好玩吗", {"你最近玩什么游戏", "双人成行"}).query, "双人成行好玩吗");
  EXPECT_EQ(rewrite("它多久更新一次", {"员工手册在哪看", "员工手册放在内网的制度栏目里，每年一月修订。"}).query,
            "员工手册多久更新一次");
}

// An aspect particle (过, 着) belongs to its verb: a fragment in the object's place keeps it.
TEST(RewriteRules, AnAspectParticleStaysWithItsVerb) {
  EXPECT_EQ(rewrite("大理呢", {"你去过三亚吗", "去过，海很蓝"}).query, "你去过大理吗");
}

TEST(RewriteRules, AConditionAsksThePreviousQuestionInAnotherCase) {
  const auto same = rewrite("如果是中途入职呢", {"年终奖怎么计算"});
  EXPECT_TRUE(has(same.query, "如果是中途入职")) << same.query;
  EXPECT_TRUE(has(same.query, "年终奖怎么计算")) << same.query;
  // An event (丢了) asks what to do; so does a condition after a yes-or-no question.
  const auto event = rewrite("如果丢了呢", {"工牌怎么补办"});
  EXPECT_TRUE(has(event.query, "怎么办")) << event.query;
  const auto yes_no = rewrite("万一没赶上呢", {"出差能改签吗"});
  EXPECT_TRUE(has(yes_no.query, "怎么办")) << yes_no.query;
  // 要 glued to a verb before the question word (要写|什么) is what one must do, not the topic:
  // the condition's own verb takes its place (before: 写 twice, refused by the garble check);
  // 要是 follows the subject asked about, as own dev fu-0178's gold writes it.
  EXPECT_EQ(rewrite("要是写错了呢", {"报销的发票抬头要写什么"}).query, "报销的发票抬头要是写错了怎么办");
}

TEST(RewriteRules, AQuestionAboutAStatementDropsTheFrameAroundIt) {
  const auto r = rewrite("难不难", {"我想考个会计证"});
  EXPECT_TRUE(r.query.starts_with("考个会计证")) << r.query;
}

TEST(RewriteRules, TheNextStepAfterAStatementContinuesTheWholeStatement) {
  const auto r = rewrite("主管批完以后呢", {"我在费控系统提交了报销单"});
  EXPECT_TRUE(r.query.starts_with("费控系统提交了报销单")) << r.query;
  EXPECT_TRUE(has(r.query, "主管批完以后")) << r.query;
  // "What else, after …" inside the turn presupposes the step the history reached.
  const auto inside = rewrite("报到以后还要交什么", {"新员工材料已经邮寄了"});
  EXPECT_TRUE(inside.follow_up) << inside.query;
}

TEST(RewriteRules, ReallyAsksTheReportBackWithItsDoubtAfterTheSubject) {
  EXPECT_EQ(rewrite("真的吗", {"听说郑钦文拿了奥运冠军"}).query, "郑钦文真的拿了奥运冠军吗");
  EXPECT_EQ(rewrite("真的吗", {"我们公司明年要裁员"}).query, "我们公司明年真的要裁员吗");
  // 是吗 asks it back as it was; a report that says 真的 already keeps its own.
  EXPECT_EQ(rewrite("是吗", {"我们公司明年要裁员"}).query, "我们公司明年要裁员吗");
  EXPECT_EQ(rewrite("真的吗", {"他真的辞职了"}).query.find("真的真的"), std::string::npos);
}

TEST(RewriteRules, APredicateIsNoPartOfTheTopic) {
  // A superlative (最大) and a verb with its aspect particle (花了) say something about the topic.
  const auto most = rewrite("超过了怎么发", {"邮箱附件最大多少"});
  EXPECT_TRUE(has(most.query, "邮箱附件")) << most.query;
  EXPECT_FALSE(has(most.query, "最大")) << most.query;
  const auto spent = rewrite("跟去年同期比呢", {"第一季度差旅费用花了多少"});
  EXPECT_TRUE(has(spent.query, "第一季度差旅费用")) << spent.query;
  EXPECT_FALSE(has(spent.query, "花了")) << spent.query;
  // A turn that opens with a verb of its own takes the topic, not the question's verb too.
  const auto booked = rewrite("订了没去会怎样", {"会议室怎么预订"});
  EXPECT_EQ(booked.query, "会议室订了没去会怎样");
}

TEST(RewriteRules, ADemonstrativeAndClassifierAreNoPartOfTheNoun) {
  // 这家店: 店 is the noun; 家 is no word of it (the topic was 家店的烤鸭).
  const auto shop = rewrite("多少钱", {"这家店的烤鸭怎么样"});
  EXPECT_FALSE(shop.query.starts_with("家店")) << shop.query;
  EXPECT_TRUE(has(shop.query, "店的烤鸭多少钱")) << shop.query;
  // Between two runs they link one noun phrase: the contract named before 那份 stays.
  const auto contract = rewrite("他在哪个部门", {"合同台账里成都锦程那份合同经办人是谁"});
  EXPECT_TRUE(has(contract.query, "成都锦程那份合同经办人")) << contract.query;
}

TEST(RewriteRules, TheNextStepAfterALongStatementContinuesItsLastClause) {
  EXPECT_EQ(rewrite("接下来要谁批", {"我要申请用公章，OA用印申请已经提交了"}).query,
            "oa用印申请已经提交了接下来要谁批");
  // A statement short enough stays whole (the clause before may hold its subject).
  EXPECT_TRUE(has(rewrite("然后呢", {"工卡丢了，我已经挂失了"}).query, "工卡丢了")) ;
}

TEST(RewriteRules, AnOmittedHeadAfterDeIsTheTopic) {
  EXPECT_EQ(rewrite("哪里的最正宗", {"你吃过螺蛳粉吗", "吃过，味道很特别"}).query, "哪里的螺蛳粉最正宗");
  // A head of its own after 的 keeps the topic in front.
  EXPECT_FALSE(rewrite("哪里的店最正宗", {"你吃过螺蛳粉吗", "吃过，味道很特别"}).query.starts_with("哪里的螺蛳粉"));
}

TEST(RewriteRules, AParallelItemMatchesAWordIcuCutTheSameWay) {
  // ICU cuts 账号 to 账|号 in both turns: VPN账号 parallels 邮箱账号, not an aspect beside it.
  EXPECT_EQ(rewrite("VPN账号", {"邮箱账号怎么申请"}).query, "vpn账号怎么申请");
}

TEST(RewriteRules, ADemonstrativePhraseWithAShortNounStandsForTheThing) {
  EXPECT_EQ(rewrite("那部片子哪年的", {"我昨晚看了肖申克的救赎，哭了"}).query, "肖申克的救赎哪年的");
  EXPECT_EQ(rewrite("那家公司大吗", {"你在哪上班", "在字节跳动，做市场的"}).query, "字节跳动大吗");
  // Not a pointing phrase: 这个 before a predicate, 哪个 asks, 这次 is a time, a long noun is a
  // topic of its own. (This checked that 年会 stayed out of the rewrite, which held only while ICU's
  // 年|会 left the topic 年; 那个好报名吗 → 年会好报名吗 is the pronoun's reading.)
  for (const char* turn : {"那个好报名吗", "哪个更好用", "这次会议几点开", "那个会议室预订系统在哪里登录"}) {
    const auto r = rewrite(turn, {"年会什么时候开"});
    EXPECT_FALSE(gave(r, "pronoun:noun")) << turn << " → " << r.query;
    EXPECT_FALSE(has(r.query, "年好") || has(r.query, "年哪")) << turn << " → " << r.query;
  }
}

TEST(RewriteRules, ThisBeforeAPhraseOfItsOwnAsksAboutTheTopics) {
  // 这 points back at what was just said: the phrase after it is the topic's (its 有效期, its 服务费),
  // where 那个 before a long phrase opens a topic of its own (the test above).
  EXPECT_EQ(rewrite("这个有效期多久", {"护照在哪里办"}).query, "护照有效期多久");
  const auto r = rewrite("这个服务费怎么收", {"公寓保洁可以预约吗"});
  EXPECT_TRUE(has(r.query, "公寓保洁") && has(r.query, "服务费")) << r.query;
}

TEST(RewriteRules, XiaoOrLaoBeforeASurnameIsAName) {
  EXPECT_EQ(rewrite("她为什么走", {"你们组谁离职了", "就是坐我对面的小王"}).query, "小王为什么走");
  EXPECT_EQ(rewrite("他说什么了", {"老张刚才找你了"}).query, "老张说什么了");
  // 小 before a word that is no surname (小区) names nobody.
  EXPECT_FALSE(has(rewrite("他们几点下班", {"小区会所几点开门"}).query, "小区几点"));
}

TEST(RewriteRules, AnAsciiWordGluedToChineseIsAName) {
  // IT of IT资产清单 is no English pronoun "it": the antecedent keeps it.
  const auto r = rewrite("它现在归谁管", {"IT资产清单里AB-12-0001是什么"});
  EXPECT_TRUE(has(r.query, "it资产清单")) << r.query;
}

TEST(RewriteRules, WhyAfterAStatementAsksWhyOfItsSubject) {
  const auto r = rewrite("为啥", {"我的加班申请被驳回了"});
  EXPECT_TRUE(has(r.query, "加班申请为啥被驳回了")) << r.query;
  // A comparison that opens with 比 has left out its subject.
  const auto cmp = rewrite("比上海便宜吗", {"杭州办公室的房租多少"});
  EXPECT_TRUE(cmp.follow_up);
  EXPECT_TRUE(has(cmp.query, "杭州办公室的房租比上海便宜吗")) << cmp.query;
  // A lone verb opening the turn is no subject: the topic's word is carried.
  const auto verb = rewrite("举几个例子", {"数据出境有哪些规定"});
  EXPECT_TRUE(has(verb.query, "数据出境规定举几个例子")) << verb.query;
}

// Why after a yes-or-no question a bare 不能 / 没有 answered asks why of the answer: the question
// with the answer's word in place, not the opposite of what was said.
TEST(RewriteRules, WhyAfterANoAsksWhyOfTheNo) {
  EXPECT_EQ(rewrite("为什么", {"实习生能申请车位吗", "不能"}).query, "为什么实习生不能申请车位");
  EXPECT_EQ(rewrite("为啥", {"会议室有投影仪吗", "没有"}).query, "为啥会议室没有投影仪");
  // A no with a reason of its own, or no answer, leaves the question as it was asked.
  EXPECT_EQ(rewrite("为什么", {"实习生能申请车位吗"}).query, "为什么实习生能申请车位");
}

// A condition with 呢: a mishap or an event asks what to do; a case asks the question again —
// after a yes-or-no question with the topic in the case, and a case that names the topic asks
// the question's predicate of it.
TEST(RewriteRules, AConditionAsksWhatToDoOrTheSameQuestion) {
  const auto mishap = rewrite("要是换不了呢", {"值班表什么时候排"});
  EXPECT_TRUE(has(mishap.query, "怎么办")) << mishap.query;
  EXPECT_FALSE(has(mishap.query, "什么时候排")) << mishap.query;
  const auto event = rewrite("要是忘了签到呢", {"培训要签到吗"});
  EXPECT_TRUE(has(event.query, "忘了签到怎么办")) << event.query;
  EXPECT_EQ(rewrite("如果只去半天呢", {"培训要签到吗"}).query, "如果培训只去半天要签到吗");
  EXPECT_EQ(rewrite("如果是因伤停训呢", {"停训最长可以多久"}).query, "如果是因伤停训最长可以多久");
  // An event of the topic that names a word of it asks what to do, the topic not said twice.
  EXPECT_EQ(rewrite("要是考勤打错了呢", {"考勤表在哪看"}).query, "要是考勤打错了怎么办");
  // A case of a question asking a value: the case in front of the whole question.
  EXPECT_EQ(rewrite("如果是春节期间呢", {"值班费怎么算"}).query, "如果是春节期间值班费怎么算");
  // Something already done, after a question of what one may do, asks whether one still may.
  EXPECT_EQ(rewrite("要是已经拆封了呢", {"耳机可以退货吗"}).query, "要是耳机已经拆封了可以退货吗");
  EXPECT_TRUE(has(rewrite("如果已经用过了呢", {"优惠券能叠加吗"}).query, "能叠加吗"));
}

// 这个 before a name in letters (这个App) points at the history's phrase ending in it, as
// before a Chinese noun: that phrase takes the place of both.
TEST(RewriteRules, APointerBeforeANameInLettersTakesTheNamedPhrase) {
  EXPECT_EQ(rewrite("这个App在哪下载", {"怎么打卡", "请先下载公司的考勤App。"}).query, "考勤app在哪下载");
  EXPECT_EQ(rewrite("这个App在哪下载", {"怎么报销", "报销要用财务共享App提交。"}).query,
            "财务共享app在哪下载");
}

// A turn opening with 比 compares the previous question's value with another (another month, city):
// the whole frame goes in front, time word and modifier kept (本月的电费, not 电费).
TEST(RewriteRules, ATurnOpeningWithBiComparesThePreviousValue) {
  EXPECT_EQ(rewrite("比上个月多吗", {"本月的电费是多少"}).query, "本月的电费比上个月多吗");
  EXPECT_EQ(rewrite("比杭州高多少", {"上海的房租是多少"}).query, "上海的房租比杭州高多少");
}

// 哪个快 after a question offering two ways (可以A也可以B吗) compares the two ways, not the
// question's subject alone (回老家哪个便宜).
TEST(RewriteRules, AWhichQuestionComparesTheTwoWaysOffered) {
  EXPECT_EQ(rewrite("哪个便宜", {"回老家可以坐高铁也可以坐飞机吗"}).query, "回老家坐高铁和坐飞机哪个便宜");
  EXPECT_EQ(rewrite("哪种更划算", {"房租能押一付三，也能按月付吗", "都可以，看房东。"}).query,
            "房租押一付三和按月付哪种更划算");
}

// A pair that closes with 的 or a count of kinds (有线或蓝牙的, 基础和高级两种) names two kinds of the
// thing the question named before it: each item gets that thing's head (有线和蓝牙哪个通话效果好
// compared two adjectives). A plain pair of nouns stays as it was.
TEST(RewriteRules, KindsOfAThingTakeItsName) {
  EXPECT_EQ(rewrite("哪个更值", {"体检套餐有基础和高级两种吗", "有，高级套餐多查几项。"}).query,
            "基础套餐和高级套餐哪个更值");
  EXPECT_EQ(rewrite("哪个音质好", {"公司耳机可以选有线或蓝牙的吗", "都可以。"}).query,
            "有线耳机和蓝牙耳机哪个音质好");
  EXPECT_EQ(rewrite("优先用哪个", {"年假和调休都能用来请假吗"}).query, "年假和调休优先用哪个");
  // A count of kinds follows whole nouns as often: the head only when a turn names an item with it.
  EXPECT_EQ(rewrite("哪个更划算", {"请假方式有年假和调休两种吗"}).query, "年假和调休哪个更划算");
  EXPECT_EQ(rewrite("哪个更抢手", {"工位有固定和共享两种吗", "是的，共享工位要每天预约。"}).query,
            "固定工位和共享工位哪个更抢手");
  // A lone noun before the pair's verb (车 of 公司的车可以选…) leaves no head to be sure of.
  EXPECT_FALSE(has(rewrite("哪个好开", {"公司的车可以选手动或自动的吗"}).query, "公司和"));
}

// A yes-or-no question whether a thing may be done with a lone verb after it (车位可以租吗): the
// bare predicate that goes on is said of the activity, verb first (租车位怎么收费, not 车位租).
TEST(RewriteRules, ALoneVerbAskedAfterItsObjectGoesInFront) {
  EXPECT_EQ(rewrite("怎么收费", {"储物柜可以租吗"}).query, "租储物柜怎么收费");
  EXPECT_EQ(rewrite("要提前多久说", {"宿舍可以换吗", "可以，找宿管登记。"}).query, "换宿舍要提前多久说");
}

// After "does one have to hand in / go through X" (要交体检报告吗, 要走审批吗) a bare predicate
// (交给谁, 多久批下来) asks about X, the topic's: the light verb goes.
TEST(RewriteRules, ALightVerbsThingIsWhatTheNextQuestionAsksAbout) {
  EXPECT_EQ(rewrite("交给谁", {"入职要交体检报告吗"}).query, "入职的体检报告交给谁");
  EXPECT_EQ(rewrite("一般几天批下来", {"借用投影仪要走审批吗"}).query, "借用投影仪的审批一般几天批下来");
  // A word opening with such a verb is no light verb (开通 of 开通权限: not 的通权限).
  EXPECT_FALSE(has(rewrite("找谁开", {"账号要开通权限吗"}).query, "的通"));
  EXPECT_FALSE(gave(rewrite("找谁开", {"账号要开通权限吗"}), "rewrite:fallback:splits:开通"));
  // Another verb keeps its activity whole (需要提前预约吗 is said of 在网点兑换).
  EXPECT_EQ(rewrite("需要提前预约吗", {"外币可以在网点兑换吗"}).query, "外币在网点兑换需要提前预约吗");
}

// 还有其他的吗 / 还有别的吗 asks the question again for more and keeps its word for "other": in
// front of a question opening with 哪, in the place of 什么, or before 哪.
TEST(RewriteRules, MoreOfTheSameKeepsTheWordForOther) {
  EXPECT_EQ(rewrite("还有其他的吗", {"哪些岗位可以远程办公", "研发和设计岗可以。"}).query,
            "还有其他哪些岗位可以远程办公");
  EXPECT_EQ(rewrite("还有别的吗", {"办居住证需要什么材料", "身份证和租房合同。"}).query,
            "办居住证还需要别的材料吗");
  EXPECT_EQ(rewrite("还有其他的吗", {"入职要填哪些表", "入职登记表和银行卡信息表。"}).query,
            "入职还要填其他表吗");
  // 哪里 asks where, not which: no "other" goes in its place.
  EXPECT_FALSE(has(rewrite("还有别的吗", {"公积金在哪里提取", "在公积金中心。"}).query, "别的提取"));
}

// After a statement of something done (快递寄出了), a question with a predicate of its own asks about
// the thing (快递几天能到); one asking what to do about it or why keeps the deed (咋处理, 为啥).
TEST(RewriteRules, AQuestionAfterSomethingDoneAsksAboutTheThing) {
  EXPECT_EQ(rewrite("几天能到", {"我的快递已经寄出了"}).query, "我的快递几天能到");
  EXPECT_EQ(rewrite("一般多久出结果", {"体检报告提交了"}).query, "体检报告一般多久出结果");
  EXPECT_EQ(rewrite("咋处理", {"体检报告提交错了"}).query, "体检报告提交错了咋处理");
  EXPECT_EQ(rewrite("还能改吗", {"体检报告提交了"}).query, "体检报告提交了还能改吗");
}

// Who of a work (作者是谁, 导演是谁) is the work's role, said with 的 — after a thing the user spoke
// of or a 《title》; a topic asked about keeps its compound (合同审批人是谁).
TEST(RewriteRules, WhoOfAWorkIsItsRoleWithDe) {
  EXPECT_EQ(rewrite("作者是谁", {"我在读三体"}).query, "三体的作者是谁");
  EXPECT_EQ(rewrite("主演是谁", {"《狂飙》好看吗"}).query, "《狂飙》的主演是谁");
  EXPECT_EQ(rewrite("审批人是谁", {"合同审批要几天"}).query, "合同审批人是谁");
  // Only a turn that is the role and 是谁: 到底是谁写的 asks otherwise.
  EXPECT_FALSE(has(rewrite("到底是谁写的", {"我在读三体"}).query, "三体的到底"));
}

// A letter and the character after it name one thing (C罗, A股): a fragment replaces it whole,
// and the time word closing the topic stays (梅西今年 + C罗呢 → C罗今年).
TEST(RewriteRules, ALetterNamesWithTheCharacterAfterIt) {
  EXPECT_EQ(rewrite("内马尔呢", {"C罗今年多大了"}).query, "内马尔今年多大了");
  EXPECT_EQ(rewrite("那C罗呢", {"梅西今年进了几个球"}).query, "c罗今年进了几个球");
  EXPECT_EQ(rewrite("港股呢", {"A股几点开盘"}).query, "港股几点开盘");
}

// After what people or a place may do with a thing (员工能报销打车费吗), a thing in the fragment
// stands for that thing, not for the people (高铁能报销打车费吗 was the old reading); people for
// people still take the subject's place.
TEST(RewriteRules, AThingStandsForTheThingNotThePeople) {
  EXPECT_EQ(rewrite("那高铁呢", {"员工能报销打车费吗"}).query, "员工能报销高铁吗");
  EXPECT_EQ(rewrite("那笔记本呢", {"访客能带相机吗"}).query, "访客能带笔记本吗");
  EXPECT_EQ(rewrite("那酒店呢", {"实习生可以报销机票吗"}).query, "实习生可以报销酒店吗");
  EXPECT_EQ(rewrite("那实习生呢", {"正式员工能报销打车费吗"}).query, "实习生能报销打车费吗");
  // A second verb before the last phrase leaves no object to be sure of: not that phrase.
  EXPECT_FALSE(has(rewrite("那宠物呢", {"住户能带家属进健身房吗"}).query, "进宠物"));
  // 妇 names people (孕妇, 产妇) like 女 and 母.
  EXPECT_EQ(rewrite("那茶呢", {"孕妇能喝咖啡吗"}).query, "孕妇能喝茶吗");
}

// A word for both (这俩) points at the history's pair even when the turn offers a choice of its
// own (饭前吃还是饭后吃): was 鱼肝油和钙片这俩饭前吃还是饭后吃.
TEST(RewriteRules, AWordForBothTakesThePairsPlaceBeforeAChoice) {
  EXPECT_EQ(rewrite("这俩饭前吃还是饭后吃", {"鱼肝油和钙片能一起吃吗"}).query,
            "鱼肝油和钙片饭前吃还是饭后吃");
}

// A topic that is the whole question (仓|鼠|能吃|葡萄: ICU glued the modal to the verb, and a run
// of lone characters is not cut) is a clause, not an item: replacing it left 苹果吗. The rewrite
// falls back to the anchor and the turn, which still retrieves.
TEST(RewriteRules, AFragmentDoesNotReplaceAWholeQuestion) {
  const auto r = rewrite("那苹果呢", {"仓鼠能吃葡萄吗"});
  EXPECT_TRUE(has(r.query, "仓鼠")) << r.query;
  EXPECT_TRUE(has(r.query, "苹果")) << r.query;
  EXPECT_TRUE(gave(r, "rewrite:fallback:no_place")) << r.query;
}

// After "people's / a place's / a body's X" (研发部的周报), a thing in the fragment stands for X,
// not for the owner (会议记录的周报 was the old reading); an owner for an owner stays.
TEST(RewriteRules, AThingStandsForTheOwnersThing) {
  EXPECT_EQ(rewrite("那会议记录呢", {"研发部的周报谁来审"}).query, "研发部的会议记录谁来审");
  EXPECT_EQ(rewrite("那奖金呢", {"正式员工的年终奖几月发"}).query, "正式员工的奖金几月发");
  EXPECT_EQ(rewrite("那实习生呢", {"正式员工的年终奖几月发"}).query, "实习生的年终奖几月发");
  // After a place another place's name reads as a thing: the old reading stands.
  EXPECT_EQ(rewrite("深圳呢", {"上海办公室的门禁几点关"}).query, "深圳办公室的门禁几点关");
  // A fragment saying how, not what, is no thing.
  EXPECT_FALSE(has(rewrite("按部门统计呢", {"研发部的周报谁来审"}).query, "研发部的按部门"));
}

// 可以 glued to a verb opening the turn is the modal, not the acknowledgement 可以 ("OK"): it stays
// in the rewrite; 可以 with a comma is still the acknowledgement.
TEST(RewriteRules, MayGluedToAVerbIsNoAcknowledgement) {
  EXPECT_EQ(rewrite("可以加急吗", {"护照在哪里办"}).query, "护照可以加急吗");
  EXPECT_FALSE(has(rewrite("可以，那港澳通行证呢", {"护照在哪里办"}).query, "可以"));
}

// ICU cuts 周|会 and 晨|会 (not 例会, 晚会): before when or where it is held 会 is the meeting's head,
// not "will", and the topic is the meeting (周会能带家属吗, was 周能带家属吗).
TEST(RewriteRules, AMeetingIcuCutKeepsItsHead) {
  EXPECT_EQ(rewrite("能带家属吗", {"周会在哪里办"}).query, "周会能带家属吗");
  EXPECT_TRUE(rewrite("在哪开", {"晨会几点开始"}).query.starts_with("晨会"));
  // 会 before a verb or a span of time is "will": no meeting (钱 stays the topic).
  EXPECT_FALSE(has(rewrite("那报销呢", {"钱会在几天内到账"}).query, "钱会"));
}

// Examples asked after a question of which things do something (哪些岗位可以远程办公) are examples
// of that set: 可以远程办公的岗位举个例子, not 岗位举个例子 — also with the answer in between.
TEST(RewriteRules, ExamplesAreOfTheSetTheQuestionNamed) {
  EXPECT_EQ(rewrite("举个例子", {"哪些岗位可以远程办公"}).query, "可以远程办公的岗位举个例子");
  EXPECT_EQ(rewrite("举几个例子", {"哪些药品不能带上飞机", "易燃易爆的和超量的液体都不行。"}).query,
            "不能带上飞机的药品举几个例子");
  // Another kind of question keeps its own reading.
  EXPECT_FALSE(gave(rewrite("举个例子", {"不可抗力条款怎么写"}), "examples_of_set"));
}

// A character that ends words (员, 队) left alone between two words is the head of a compound
// ICU did not hold, not a verb ending the topic: the topic keeps it (运动员, not 运动).
TEST(RewriteRules, TheHeadOfACompoundStaysWithIt) {
  EXPECT_EQ(rewrite("他们来自哪些国家", {"哪些运动员获得过金牌"}).query, "运动员来自哪些国家");
  EXPECT_TRUE(rewrite("几比几", {"中国队昨天的比赛你看了吗"}).query.starts_with("中国队"));
  // A verb there still ends it (签 is no head): 员工|签|合同 keeps 员工 apart.
  EXPECT_FALSE(has(rewrite("要多久", {"员工签合同怎么走流程"}).query, "员工签合同要多久"));
}

// A lone verb the word break left for the previous question's topic (干|嘛, 买|什么手机) is never
// spliced in front of the turn (干谁陪你, 买贵吗): the turn stays as it is. A lone noun is a topic
// like any other (猫|是什么品种).
TEST(RewriteRules, ALoneVerbIsNoTopicToSplice) {
  for (const auto& [q, h] : {std::pair{"谁陪你", "周末一般干嘛"}, std::pair{"它贵吗", "你想买什么手机"}}) {
    const auto r = rewrite(q, {h});
    EXPECT_EQ(r.query, q) << h;
    EXPECT_TRUE(std::find(r.reasons.begin(), r.reasons.end(),
                          "rewrite:fallback:verb_anchor:plain") != r.reasons.end()) << h;
  }
  EXPECT_TRUE(rewrite("在哪买的", {"你的猫是什么品种"}).query.starts_with("猫"));
}

// 还有 saying there still is something the turn asks about (还有啥办法, 还有多少) stays: it is
// the turn's predicate, not the marker of a parallel item (还有上海呢), which goes. 还有别的吗 asks
// for more like 还有呢 — its "other" is no topic the rewrite may splice a topic onto (电脑别的吗).
TEST(RewriteRules, ThereStillIsStaysAndAsksForMore) {
  EXPECT_EQ(rewrite("还有啥办法", {"电脑很卡怎么办", "可以先清理开机启动项。"}).query,
            "电脑还有啥办法");
  EXPECT_TRUE(has(rewrite("还有多少名额", {"年会抽奖怎么报名"}).query, "还有多少名额"));
  EXPECT_EQ(rewrite("还有上海呢", {"北京出差住宿标准是多少"}).query, "上海出差住宿标准是多少");
  for (const char* q : {"还有别的吗", "还有其他的吗", "还有别的呢"}) {
    const auto r = rewrite(q, {"离职需要办哪些手续", "需要提交离职申请。"});
    EXPECT_TRUE(has(r.query, "还需要办其他手续吗") || has(r.query, "还需要办别的手续吗"))
        << q << " → " << r.query;
    EXPECT_FALSE(has(r.query, "离职别的") || has(r.query, "离职其他")) << q << " → " << r.query;
  }
}

// A classifier a count left at the topic's start (有几|种|电商平台) is no part of the thing counted.
TEST(RewriteRules, TheCountsClassifierIsNoPartOfTheTopic) {
  EXPECT_EQ(rewrite("分别是什么平台", {"有几种电商平台"}).query, "电商平台分别是什么平台");
  EXPECT_FALSE(has(rewrite("都在哪", {"有多少家门店"}).query, "家门店")) << "a classifier kept";
}

// A plural pronoun after a question whose topic is a pair means both (not the nearer one).
TEST(RewriteRules, APluralPronounAfterAPairMeansBoth) {
  EXPECT_EQ(rewrite("它们有什么区别", {"年假和调休怎么请"}).query, "年假和调休有什么区别");
  EXPECT_EQ(rewrite("他们几点上班", {"张三和李四是哪个部门的"}).query, "张三和李四几点上班");
}

// A turn opening with the topic's head (电池 of 手机的电池) goes on about that head: the topic's
// words before it go in front, the head not said twice.
TEST(RewriteRules, ATurnOpeningWithTheTopicsHeadTakesItsModifiers) {
  EXPECT_EQ(rewrite("电池容量多大", {"哪款手机的电池最耐用"}).query, "手机的电池容量多大");
  EXPECT_EQ(rewrite("作品有几部", {"鲁迅的作品有哪些"}).query, "鲁迅的作品有几部");
  // So in a case: the marker, the topic, the rest of the case.
  EXPECT_EQ(rewrite("如果额度不够呢", {"公司信用卡额度多少"}).query, "如果公司信用卡额度不够怎么办");
  // A case naming the topic's word but its lone head (值班 of 值班|费) asks the question again, the
  // word said once.
  EXPECT_EQ(rewrite("如果是春节值班呢", {"值班费怎么算"}).query, "如果是春节值班费怎么算");
}

// An opening 那 changes nothing in a case with its own question: the marker still leads and the
// topic follows it, as without 那.
TEST(RewriteRules, AnOpeningNaLeavesTheCaseAsItIs) {
  EXPECT_EQ(rewrite("那如果过期了怎么办", {"门禁卡多久过期"}).query,
            rewrite("如果过期了怎么办", {"门禁卡多久过期"}).query);
  EXPECT_EQ(rewrite("那如果过期了怎么办", {"门禁卡多久过期"}).query, "如果门禁卡过期了怎么办");
}

// A case put to a yes-or-no question of what one may do asks whether one may in that case, even
// a case that goes wrong (有人值班, 走不了); after 万一, and for a bare event of one's own (拖欠了),
// it asks what to do.
TEST(RewriteRules, ACaseOfWhatOneMayDoAsksWhetherOneStillMay) {
  EXPECT_EQ(rewrite("要是跟本职工作不冲突呢", {"可以接外部讲课吗"}).query,
            "要是跟本职工作不冲突可以接外部讲课吗");
  EXPECT_EQ(rewrite("要是晚上有人值班呢", {"周末可以进办公楼吗"}).query,
            "要是晚上有人值班周末可以进办公楼吗");
  EXPECT_EQ(rewrite("如果车位一直空着呢", {"访客能停员工车位吗"}).query,
            "如果车位一直空着访客能停员工车位吗");
  for (const auto& [q, h] : {std::pair{"万一弄丢了呢", "工牌可以借给别人吗"},
                             std::pair{"要是拖欠了呢", "房租可以晚交吗"}}) {
    const auto r = rewrite(q, {h});
    EXPECT_TRUE(has(r.query, "怎么办")) << r.query;
  }
}

// A condition marker alone (如果呢, 那万一呢) is a case with no body: rewritten, never an error (it
// threw out_of_range from the empty body's first character).
TEST(RewriteRules, AMarkerAloneIsNoError) {
  for (const char* q : {"如果呢", "那如果呢", "万一呢", "那万一呢", "假设"})
    for (const char* h : {"年假", "报销需要发票吗"}) {
      const auto r = rewrite(q, {h});
      EXPECT_FALSE(r.query.empty()) << q << " after " << h;
    }
}

// A case with a subject of its own asks the last question again in that case: after an opening
// 那, with a person (部门经理, 我) as its subject, saying what the thing is, or after a question
// that is all topic. A mishap of the speaker after a yes-or-no question still asks what to do.
TEST(RewriteRules, ACaseWithItsOwnSubjectAsksTheQuestionAgain) {
  EXPECT_EQ(rewrite("那如果是实习生呢", {"餐补每天多少"}).query, "如果是实习生餐补每天多少");
  EXPECT_EQ(rewrite("如果部门经理不在呢", {"请假谁审批"}).query, "如果部门经理不在请假谁审批");
  EXPECT_EQ(rewrite("假如我生病了呢", {"年假可以延期吗"}).query, "假如我生病了年假可以延期吗");
  EXPECT_EQ(rewrite("如果是外包员工呢", {"能申请宿舍吗"}).query, "如果是外包员工能申请宿舍吗");
  EXPECT_EQ(rewrite("要是中途离职呢", {"培训费用公司出吗"}).query, "要是中途离职培训费用公司出吗");
  const auto mishap = rewrite("万一我忘了呢", {"电脑要每周备份吗"});
  EXPECT_TRUE(has(mishap.query, "怎么办")) << mishap.query;
  EXPECT_FALSE(has(mishap.query, "备份吗")) << mishap.query;
  // A case that asks nothing, without 呢, is put to the question all the same.
  EXPECT_EQ(rewrite("假设还在试用期", {"离职要提前多久说"}).query, "假设还在试用期离职要提前多久说");
  // A verb before a person noun (卖|给|客户) makes no subject of it: the topic goes in the case.
  EXPECT_EQ(rewrite("如果送给客户试用呢", {"样品可以免费吗"}).query, "如果样品送给客户试用可以免费吗");
}

// A place where the topic is used (手机上, 系统里, 在家) goes after the topic, which it does not
// replace; it takes the place of a place the question named (在北京 → 在上海). Not a time (晚上), a
// name ending in 中 (台中) nor 在 before a character ICU cut off a word (在|线|课程).
TEST(RewriteRules, APlaceFragmentSaysWhereTheTopicIsUsed) {
  EXPECT_EQ(rewrite("手机上呢", {"公司邮箱怎么登录"}).query, "公司邮箱手机上怎么登录");
  EXPECT_EQ(rewrite("系统里呢", {"年假怎么申请"}).query, "年假系统里怎么申请");
  EXPECT_EQ(rewrite("在家呢", {"内网怎么连"}).query, "内网在家怎么连");
  EXPECT_EQ(rewrite("在手机上呢", {"公司邮箱怎么登录"}).query, "公司邮箱在手机上怎么登录");
  EXPECT_EQ(rewrite("在上海呢", {"在北京怎么办理居住证"}).query, "在上海怎么办理居住证");
  // A place named with a localizer (系统里) takes the fragment's place in its own, beside a 在 too.
  EXPECT_EQ(rewrite("手机上呢", {"年假系统里怎么申请"}).query, "年假手机上怎么申请");
  EXPECT_EQ(rewrite("手机上呢", {"考勤在系统里怎么查"}).query, "考勤在手机上怎么查");
  EXPECT_EQ(rewrite("台中呢", {"台北有什么好吃的"}).query, "台中有什么好吃的");
  const auto night = rewrite("晚上呢", {"公司食堂几点开门"});
  EXPECT_TRUE(night.query.find("公司食堂") != std::string::npos) << night.query;
}

// A function character ICU left alone before a lone character and a question word opens a
// compound it did not know (用|印|怎么申请): the topic is 用印, not 印 — which, a lone verb of the
// question, left the turn plain. (The turn asks with its own verb, 审核 after 谁: the question's
// 申请 is not carried, as the variants' gold fu-0128-v2 writes.)
TEST(RewriteRules, AFunctionCharacterOpensACompoundBeforeAQuestionWord) {
  EXPECT_EQ(rewrite("需要谁审核", {"用印怎么申请"}).query, "用印需要谁审核");
  EXPECT_EQ(rewrite("忘了预约怎么办", {"用车需要提前预约吗"}).query, "用车忘了提前预约怎么办");
}

// 这个 after a how-question stands for the thing and its act (车位申请); the act's verb may be one
// ICU left in pieces (申|领), and when the turn says that verb itself 这个 is the thing alone
// (申请这个要多久 → 申请访客码要多久, not 申请访客码申请…).
TEST(RewriteRules, ThisAfterAHowQuestionIsTheThingAndItsAct) {
  EXPECT_EQ(rewrite("这个要主管签字吗", {"公司的笔记本电脑怎么申领"}).query, "笔记本电脑申领要主管签字吗");
  EXPECT_EQ(rewrite("申请这个要多久", {"访客码怎么申请"}).query, "申请访客码要多久");
  EXPECT_EQ(rewrite("这个要排队吗", {"公司的车位怎么申请"}).query, "车位申请要排队吗");
}

// 它们 after a question of how many things a topic has (公司的食堂有几个档口) are those things of
// that topic: the topic as the question said it, then the set (公司的食堂档口).
TEST(RewriteRules, TheyAreTheThingsTheTopicHas) {
  EXPECT_EQ(rewrite("它们都有素食吗", {"公司的食堂有几个档口"}).query, "公司的食堂档口都有素食吗");
  EXPECT_EQ(rewrite("它们几点开门", {"园区有几个食堂"}).query, "园区食堂几点开门");
}

// 一样 / 不同 closing a question say how two things compare: no part of the topic.
TEST(RewriteRules, AComparisonClosingTheQuestionIsNoPartOfTheTopic) {
  EXPECT_EQ(rewrite("分别要几天", {"报销和借款流程一样吗"}).query, "报销和借款流程分别要几天");
  EXPECT_EQ(rewrite("各要几天", {"年假和调休的申请流程不同吗"}).query, "年假和调休的申请流程各要几天");
}

// 谁 before a verb is that verb's subject (产假工资|谁|发): the noun before it stays in the topic.
// 谁 closing the question is the verb's object (联系|谁): the verb is no part of the topic.
TEST(RewriteRules, WhoBeforeAVerbLeavesTheTopicWhole) {
  EXPECT_EQ(rewrite("怎么算", {"产假工资谁发"}).query, "产假工资怎么算");
  EXPECT_EQ(rewrite("怎么算", {"培训费用谁出"}).query, "培训费用怎么算");
  EXPECT_EQ(rewrite("发多少", {"产假工资谁发"}).query, "产假工资发多少");
}

// An English what-about: a fragment with a determiner of its own takes the object with the
// question's determiner (a guest → my kids); after how many / how much it is the thing counted;
// after a wh-word's be-form the whole phrase, but a yes/no question's predicate stays (is the gym
// open → is the cafeteria open).
TEST(RewriteRules, AnEnglishWhatAboutTakesTheWholePhraseOfItsKind) {
  EXPECT_EQ(rewrite("How about my kids?", {"Can I bring a guest to the company gym?"}).query,
            "can i bring my kids to the company gym");
  EXPECT_EQ(rewrite("what abt conference days", {"How many training credits do we get per year?"})
                .query,
            "how many conference days do we get per year");
  EXPECT_EQ(rewrite("what abt the phone allowance", {"How much is the home office stipend?"}).query,
            "how much is the phone allowance");
  EXPECT_EQ(rewrite("How about the cafeteria?", {"Is the gym open on weekends?"}).query,
            "is the cafeteria open on weekends");
}

// An English turn after an English question: a predicate asks about the thing the question was
// about, said after it; his / her before a noun take 's; a pronoun for the person a who-question
// asks for has no antecedent in it, and a choice or a why keeps the question whole (the safe form,
// never a piece of the question spliced in front).
TEST(RewriteRules, AnEnglishTurnTakesTheQuestionsThingAfterIt) {
  EXPECT_EQ(rewrite("Is there an English version?", {"Where can I find the travel policy?"}).query,
            "is there an english version for the travel policy");
  EXPECT_EQ(rewrite("Does it work on Linux?", {"How do I connect to the VPN?"}).query,
            "does the vpn work on linux");
  EXPECT_EQ(rewrite("What's her email?", {"Who is my HR business partner?"}).query,
            "what's my hr business partner's email");
  EXPECT_EQ(rewrite("What is its latest version?", {"Where is the NDA template?"}).query,
            "what is the nda template's latest version");
  EXPECT_EQ(rewrite("What's his phone number?", {"Who approves expenses over $500?"}).query,
            "who approves expenses over $500 what's his phone number");
  EXPECT_EQ(rewrite("Which is faster?", {"Can I pay with the card or pay myself?"}).query,
            "can i pay with the card or pay myself which is faster");
}

// A verb the question asked to do in time (提前申请) keeps its adverb in the turn that takes it up
// (忘了申请怎么办 → 加班忘了提前申请怎么办).
TEST(RewriteRules, AVerbKeepsTheAdverbOfTimeTheQuestionGaveIt) {
  EXPECT_EQ(rewrite("忘了申请怎么办", {"加班需要提前申请吗"}).query, "加班忘了提前申请怎么办");
  EXPECT_EQ(rewrite("忘了预约怎么办", {"用车需要提前预约吗"}).query, "用车忘了提前预约怎么办");
  // What the question asks after the adverb is no verb (提前|几天).
  EXPECT_EQ(rewrite("最多能休几天", {"年假怎么申请", "需要提前几天"}).query, "年假申请最多能休几天");
}

// After a yes to having something, a turn that takes up a word of the answer asks about that
// thing, in the answer's shorter name for it (竞业限制期 → 竞业限制, 试用期条款 → 试用期).
TEST(RewriteRules, AfterAYesTheThingConfirmedIsTheTopic) {
  EXPECT_EQ(rewrite("补偿是多少", {"保密协议里有竞业限制吗",
                                  "有，竞业限制期为离职后12个月，期间公司按月支付补偿。"})
                .query,
            "竞业限制补偿是多少");
  EXPECT_EQ(rewrite("福利有哪些", {"劳动合同里有试用期条款吗", "有，试用期为6个月，期间可享受部分员工福利。"})
                .query,
            "试用期福利有哪些");
}

// The review of the twenty-fifth session's rules: each line is a fault it found, mended.
TEST(RewriteRules, TheTwentyFifthSessionsRulesHoldAtTheirEdges) {
  // 有一 closing the answer's clause: nothing after it to read (no read past the end).
  EXPECT_FALSE(rewrite("贵吗", {"你有车吗", "有一，不过很少开"}).query.empty());
  // 你们 is no 你; a clause that goes on says more than what the thing is.
  EXPECT_FALSE(has(rewrite("几点发车", {"你们公司有班车吗", "有一辆大巴"}).query, "你的"));
  EXPECT_FALSE(has(rewrite("几岁了", {"你养宠物吗", "养了一只猫叫咪咪"}).query, "猫叫"));
  // 到 as a word of its own (收到 is another word).
  EXPECT_EQ(rewrite("在哪", {"工牌在哪领", "收到通知后到前台领取"}).query, "前台在哪");
  // The adverb goes before a whole verb only (申请|表 is a form).
  EXPECT_FALSE(has(rewrite("申请表在哪下载", {"加班需要提前申请吗"}).query, "提前申请表"));
  // A name that opens with a numeral is no count (四川); 在 of 现在 is no place.
  EXPECT_FALSE(has(rewrite("去四川呢", {"去北京出差能报多少"}).query, "北京出差去四川"));
  EXPECT_TRUE(has(rewrite("在上海呢", {"现在报销要多久"}).query, "报销"));
  // English: a one-word name after how many is no thing counted; unused is no participle.
  EXPECT_EQ(rewrite("japan?", {"how many days of leave do we get in china"}).query,
            "how many days of leave do we get in japan");
  EXPECT_EQ(rewrite("Do they expire?", {"How many days of unused leave can I carry over?"}).query,
            "do days of unused leave expire");
}

// What comes after a step handed on to someone (再送主管签核, 再由部门主管核准) is after what they do
// (主管签核之后的流程是什么), of the topic without its 流程, which the closing phrase says.
TEST(RewriteRules, TheNextStepAfterAStepHandedOnIsAfterWhatTheyDo) {
  EXPECT_EQ(rewrite("然后呢", {"报账流程是什么", "先在系统填单并附上发票，再送主管签核。"}).query,
            "报账主管签核之后的流程是什么");
  EXPECT_EQ(rewrite("然后呢", {"请假流程是什么", "先在HR系统提出申请，再由部门主管核准。"}).query,
            "请假部门主管核准之后的流程是什么");
}

// Where to go, asked after an answer that sends one somewhere (到IT服务台领取 + 在哪儿), is that
// place: the words after 到 up to the verb the place is for.
TEST(RewriteRules, WhereAfterAnAnswerIsThePlaceItSendsOneTo) {
  EXPECT_EQ(rewrite("在哪儿", {"新员工的电脑在哪领", "入职当天凭工牌到IT服务台领取。"}).query,
            "it服务台在哪儿");
  EXPECT_EQ(rewrite("在几楼", {"离职证明去哪开", "办完交接后到人事服务中心领取。"}).query,
            "人事服务中心在几楼");
}

// What the other one has, said in answer to a question put to them (你养猫吗 + 养了一只橘猫), is
// theirs: 你的橘猫. Not after a question put to nobody in particular.
TEST(RewriteRules, WhatTheOtherOneSaysTheyHaveIsTheirs) {
  EXPECT_EQ(rewrite("叫什么名字", {"你养猫吗", "养了一只橘猫"}).query, "你的橘猫叫什么名字");
  EXPECT_EQ(rewrite("多久浇一次水", {"你有种花吗", "种了一盆兰花"}).query, "你的兰花多久浇一次水");
  EXPECT_FALSE(has(rewrite("叫什么名字", {"邻居养猫吗", "养了一只橘猫"}).query, "你的"));
}

// A modifier fragment parallel to the item opening the topic: people or a body keep their 的
// (销售中心的年会), a kind does not (停车票据, 病假申请, 5楼会议室).
TEST(RewriteRules, AKindTakesItsParallelsPlaceWithoutDe) {
  EXPECT_EQ(rewrite("停车的？", {"打车票据有什么要求"}).query, "停车票据有什么要求");
  EXPECT_EQ(rewrite("病假的？", {"年假申请有什么要求"}).query, "病假申请有什么要求");
  EXPECT_EQ(rewrite("5楼的呢", {"3楼会议室能投屏吗"}).query, "5楼会议室能投屏吗");
  EXPECT_EQ(rewrite("销售中心的", {"研发中心年会在哪办"}).query, "销售中心的年会在哪办");
}

// A version of the topic (手机版, 电子版) goes in front of it when the question names none; after
// one it parallels it.
TEST(RewriteRules, AVersionGoesInFrontOfTheTopic) {
  EXPECT_EQ(rewrite("手机版", {"公司邮箱怎么设置"}).query, "手机版公司邮箱怎么设置");
  EXPECT_EQ(rewrite("电子版呢", {"劳动合同怎么下载"}).query, "电子版劳动合同怎么下载");
  EXPECT_EQ(rewrite("手机版呢", {"网页版怎么登录"}).query, "手机版怎么登录");
}

// A bare case that counts or ranks (超过百万, 第二次续签, 连续休五天) goes after the topic and the
// question stays; a count opening the fragment names an item (三楼), and a rank (前三名), a time
// (在2009年) or 一下 are no such case.
TEST(RewriteRules, ACountedCaseGoesAfterTheTopic) {
  EXPECT_EQ(rewrite("超过百万", {"采购合同要走几级审批"}).query, "采购合同超过百万要走几级审批");
  EXPECT_EQ(rewrite("第二次续签", {"劳动合同要签几年"}).query, "劳动合同第二次续签要签几年");
  EXPECT_EQ(rewrite("连续休五天", {"年假要提前几天申请"}).query, "年假连续休五天要提前几天申请");
  EXPECT_EQ(rewrite("超过三天呢", {"病假超过两天需要证明吗"}).query, "病假超过三天需要证明吗");
  EXPECT_EQ(rewrite("三楼呢", {"一楼的打印机怎么连"}).query, "三楼的打印机怎么连");
  const auto explain = rewrite("解释一下", {"差旅政策里的超标审批规则"}).query;
  EXPECT_EQ(explain.find("差旅政策解释"), std::string::npos) << explain;
}

// A question that opens with when it applies (离职后|社保怎么办) keeps that first when a case is put
// to it: the case is one of that time.
TEST(RewriteRules, ACaseGoesAfterTheTimeItsQuestionOpensWith) {
  EXPECT_EQ(rewrite("如果下家还没找到呢", {"离职后社保怎么办"}).query, "如果离职后下家还没找到社保怎么办");
  EXPECT_EQ(rewrite("如果新部门还没空位呢", {"调岗后工位怎么办"}).query, "如果调岗后新部门还没空位工位怎么办");
}

// 要是 goes after the subject the question just asked about (发票抬头要是写错了怎么办); after an
// answer, and for 如果 / 万一, the marker opens the case.
TEST(RewriteRules, YaoshiFollowsTheSubjectItPutsACaseOf) {
  EXPECT_EQ(rewrite("要是填错了呢", {"请款单的统一编号要填什么"}).query, "请款单的统一编号要是填错了怎么办");
  EXPECT_EQ(rewrite("如果没休完怎么办", {"年假有几天"}).query, "如果年假没休完怎么办");
  const auto after_answer =
      rewrite("要是忘了续签呢", {"合同到期了怎么续签", "需在到期前30天发起续签。"}).query;
  EXPECT_EQ(after_answer.rfind("要是", 0), 0u) << after_answer;
}

// A person's case that asks its own yes or no: the topic goes before that question, not into the
// person's case (如果公积金我已经离职了…).
TEST(RewriteRules, APersonsCaseWithItsOwnQuestionAsksItOfTheTopic) {
  EXPECT_EQ(rewrite("如果我已经离职了还能提取吗", {"公积金可以提取吗"}).query,
            "如果我已经离职了公积金还能提取吗");
  EXPECT_EQ(rewrite("要是客户催得急能加急吗", {"合同审批要几天"}).query, "要是客户催得急合同审批能加急吗");
  EXPECT_EQ(rewrite("要是领导不批怎么办", {"年假怎么申请"}).query, "要是领导不批年假怎么办");
  // A case without a person of its own keeps the topic in it (请了 takes 病假 back).
  EXPECT_EQ(rewrite("如果请了会影响转正吗", {"试用期能请病假吗"}).query, "如果试用期请了病假会影响转正吗");
  // A verb ICU holds whole takes its object back as a lone one does (申请|了 → 申请了调岗).
  EXPECT_EQ(rewrite("如果申请了会影响绩效吗", {"孕期能申请调岗吗"}).query,
            "如果孕期申请了调岗会影响绩效吗");
}

// it / they / them in English right after an English question: what the question is about, by its
// shape (how many | X, where are | X, can i VERB | X), a plural noun for they / them.
TEST(RewriteRules, AnEnglishPronounIsWhatTheQuestionAsksAbout) {
  EXPECT_EQ(rewrite("Can I carry them over?", {"How many days of annual leave do I get?"}).query,
            "can i carry days of annual leave over");
  EXPECT_EQ(rewrite("Are they color printers?", {"Where are the printers on the 3rd floor?"}).query,
            "are the printers on the 3rd floor color printers");
  EXPECT_EQ(rewrite("Do they need receipts?", {"How do I submit expense reports?"}).query,
            "do expense reports need receipts");
  EXPECT_EQ(rewrite("Is it taxed?", {"How much is the meal allowance?"}).query,
            "is the meal allowance taxed");
  // Number picks the phrase: they the plural subject, it the object.
  EXPECT_EQ(rewrite("Do they need to apply?", {"Do interns get a housing allowance?"}).query,
            "do interns need to apply");
  EXPECT_EQ(rewrite("Is it taxed?", {"Do interns get a housing allowance?"}).query,
            "is housing allowance taxed");
  EXPECT_EQ(rewrite("Does it apply to fathers too?", {"What is the parental leave policy?"}).query,
            "does the parental leave policy apply to fathers too");
}

// A case put before the question it is asked in: a comma where the case ends in the character the
// question opens with (剖腹产 + 产假), which run together would read as a doubled splice and fall
// back. In English the case goes after the question, as English says it, not the topic after the
// marker (what if expense taxi rides i lose…).
TEST(RewriteRules, ACaseBeforeItsQuestionReadsAsOneSentence) {
  EXPECT_EQ(rewrite("如果是剖腹产呢", {"产假有多少天"}).query, "如果是剖腹产,产假有多少天");
  EXPECT_EQ(rewrite("如果是夜班呢", {"班车几点发车"}).query, "如果是夜班,班车几点发车");
  EXPECT_EQ(rewrite("what if I lose the receipt", {"Can I expense taxi rides?"}).query,
            "can i expense taxi rides if i lose the receipt");
  EXPECT_EQ(rewrite("What if my manager is on vacation?", {"Who approves my leave?"}).query,
            "who approves my leave if my manager is on vacation");
  // A pronoun in the case is still the antecedent's place (what if my vpn password has expired).
  EXPECT_EQ(rewrite("What if it has expired?", {"How do I reset my VPN password?"}).query,
            "what if my vpn password has expired");
}

// A case whose subject is a thing or party (金额|很小, 押金|不退, 系统|里|没有) said of with an adverb
// of its own is the same: the case first, then the question, not the topic inside the case. A time
// (晚上|不舒服) or a count (第二次|还没过) is no subject, and an event of the topic still asks what to do;
// a case opening with a time goes first all the same (rewrite_case_test.cpp: the topic would
// come between the case and its time).
TEST(RewriteRules, ACaseWithAThingAsItsSubjectAsksTheQuestionAgain) {
  EXPECT_EQ(rewrite("如果押金不退呢", {"合同可以提前解约吗"}).query, "如果押金不退合同可以提前解约吗");
  EXPECT_EQ(rewrite("要是系统里没有记录呢", {"加班费怎么核算"}).query,
            "要是系统里没有记录加班费怎么核算");
  EXPECT_EQ(rewrite("假如房东已经同意了呢", {"宿舍可以养猫吗"}).query, "假如房东已经同意了宿舍可以养猫吗");
  EXPECT_EQ(rewrite("如果周末很忙呢", {"体检能改期吗"}).query, "如果周末很忙体检能改期吗");
  const auto count = rewrite("要是第二次还没过呢", {"驾照考试可以补考吗"});
  EXPECT_FALSE(count.query.starts_with("要是第二次还没过驾照")) << count.query;
}

// A lone character after the thing and before 谁 / 什么 is the verb asking it (公章|归|谁管), no part
// of the thing; before 谁来 it is (工作|证 is the thing 谁来办 asks about).
TEST(RewriteRules, AVerbBeforeWhoOrWhatIsNoPartOfTheThing) {
  EXPECT_EQ(rewrite("它多久更新一次", {"门禁系统归谁管", "由行政部统一管理。"}).query, "门禁系统多久更新一次");
  EXPECT_EQ(rewrite("它多久能办好", {"工作证谁来办"}).query, "工作证多久能办好");
}

// English: a question of its own after a how-question asks about that activity, which follows it
// (is there a fee + how do I renew my badge); it never takes a noun phrase's place.
TEST(RewriteRules, AnEnglishQuestionAfterAHowQuestionAsksAboutTheActivity) {
  EXPECT_EQ(rewrite("is there a fee", {"how do I renew my badge"}).query, "is there a fee to renew my badge");
  EXPECT_EQ(rewrite("are there any fees", {"How do I transfer my pension?"}).query,
            "are there any fees to transfer my pension");
}

// "What is X called?": it is X, the naming verb no part of it.
TEST(RewriteRules, ItAfterWhatIsItCalledIsTheThing) {
  EXPECT_EQ(rewrite("is it free", {"What is the staff app called?"}).query, "is the staff app free");
}

// After a question asking who and the answer naming a body (由行政部统一发放), 它 is still the thing
// the question asked about.
TEST(RewriteRules, ItAfterAnAnswerToWhoIsTheThingAskedAbout) {
  EXPECT_EQ(rewrite("它丢了怎么办", {"门禁卡谁来发", "由行政部统一发放。"}).query, "门禁卡丢了怎么办");
}

// Whose or which a thing is stays with it when 它 stands for it (财务部的打印机: the modifier opening
// the question, one noun); not the company every question is about (公司的快递柜 → 快递柜), and not a
// modifier after other words (最常用的报表: a relative clause).
TEST(RewriteRules, TheOwnerOfAThingStaysWithIt) {
  EXPECT_EQ(rewrite("它要多久能修好", {"财务部的打印机坏了"}).query, "财务部的打印机要多久能修好");
  EXPECT_EQ(rewrite("它几点关门", {"公司的快递柜在哪"}).query, "快递柜几点关门");
  EXPECT_EQ(rewrite("它能导出吗", {"最常用的报表在哪看"}).query, "报表能导出吗");
}

// A what-about fragment that opens with a parallel of the topic (二楼 of 五楼, B座 of A座) and goes
// on with a head of its own takes the place of the topic and its head (五楼的食堂 → 二楼健身房);
// a fragment that only modifies the head (普通员工 of 高管的差旅标准) keeps it.
TEST(RewriteRules, AParallelWithAHeadOfItsOwnReplacesTheTopicAndItsHead) {
  EXPECT_EQ(rewrite("那二楼健身房呢", {"五楼的食堂几点开门"}).query, "二楼健身房几点开门");
  EXPECT_EQ(rewrite("B座停车场呢", {"A座的会议室怎么预订"}).query, "b座停车场怎么预订");
  EXPECT_EQ(rewrite("那普通员工呢", {"高管的差旅标准是什么"}).query, "普通员工的差旅标准是什么");
}

// "Me too" with a verb of the speaker's own after a yes-or-no question put to the other: what the
// question asked about goes after the turn (我也很喜欢 + 流浪地球). Not after a question asking how
// many (你一天喝几杯咖啡): there is no thing to add.
TEST(RewriteRules, MeTooWithAVerbTakesWhatTheQuestionAskedAbout) {
  EXPECT_EQ(rewrite("我也很喜欢", {"你看过流浪地球吗", "看过 特效很棒"}).query, "我也很喜欢流浪地球");
  EXPECT_EQ(rewrite("我也删了", {"你还用微博吗", "不用了 太吵"}).query, "我也删了微博");
  const auto many = rewrite("我也差不多", {"你一天喝几杯咖啡", "两杯"});
  EXPECT_FALSE(many.query.ends_with("咖啡")) << many.query;
}

// 好|养 / 难|学 closing a question, two characters ICU left alone, say how the thing is, as 好吃
// does: the topic is the thing alone.
TEST(RewriteRules, HowTheThingIsIsNoPartOfTheTopic) {
  EXPECT_EQ(rewrite("要多少钱", {"猫咪好养吗"}).query, "猫咪要多少钱");
  EXPECT_EQ(rewrite("一般学多久", {"日语难学吗"}).query, "日语一般学多久");
}

// An answer giving a name with 叫 (叫豆豆, 叫易快报) names the thing: 叫 is no part of it.
TEST(RewriteRules, AnAnswerGivingANameNamesTheThing) {
  EXPECT_EQ(rewrite("它掉毛吗", {"你家狗叫什么", "叫豆豆，两岁了"}).query, "豆豆掉毛吗");
  EXPECT_EQ(rewrite("它要收费吗", {"报销用的系统叫什么", "叫易快报，在门户首页"}).query, "易快报要收费吗");
}

// A lone verb before its lone result and 了 (报名|表|填|错|了) or a verb glued to 掉 (删掉) says what
// happened to the thing: no part of it.
TEST(RewriteRules, AVerbWithItsResultIsNoPartOfTheThing) {
  EXPECT_EQ(rewrite("它多久能弄好", {"报名表填错了能改吗"}).query, "报名表多久能弄好");
  EXPECT_EQ(rewrite("它能恢复吗", {"文件删掉了能找回吗"}).query, "文件能恢复吗");
}

// A word before a question word that determines a noun (覆盖|哪些|人) is a verb: no part of the
// antecedent or the topic.
TEST(RewriteRules, AVerbBeforeWhichNounIsNoPartOfTheTopic) {
  EXPECT_EQ(rewrite("它能报销体检吗", {"商业保险覆盖哪些人"}).query, "商业保险能报销体检吗");
  EXPECT_EQ(rewrite("它要多久", {"入职培训包括什么内容"}).query, "入职培训要多久");
  // A question word that asks when stays after its topic (年假|什么时候|清零).
  EXPECT_EQ(rewrite("它能延期吗", {"年假什么时候清零"}).query, "年假能延期吗");
}

// A lone character is a verb that ends the topic only where it governs: a derivational suffix
// (私有|化) makes a word with the word before it, and a verb opening the question opens the
// activity that is its topic (转|专业).
TEST(RewriteRules, ASuffixOrAnOpeningVerbStaysInTheTopic) {
  EXPECT_EQ(rewrite("一年能申请几次", {"转专业有什么条件"}).query, "转专业一年能申请几次");
  EXPECT_EQ(rewrite("它适合哪些公司", {"私有化部署要什么配置"}).query, "私有化部署适合哪些公司");
  // A container classifier ends a compound ICU cuts (笔记|本|电脑): the antecedent keeps it.
  EXPECT_EQ(rewrite("它能报销吗", {"笔记本电脑坏了"}).query, "笔记本电脑能报销吗");
}

// 那里 / 这里 with no place in the history stand for its thing; they never determine a noun after
// them (那里|周末开门吗 is no "that weekend").
TEST(RewriteRules, APlacePronounWithoutAPlaceIsTheThing) {
  const auto r = rewrite("那里周末开门吗", {"协和医院的皮肤科怎么样"});
  EXPECT_TRUE(has(r.query, "皮肤科周末开门吗")) << r.query;
}

// A question that opens with how asks about the whole activity after it, though ICU cuts its object
// (对|公|账户) or a lone verb inside would end a phrase (申请|转|专业); a disposal 把 is not named.
TEST(RewriteRules, AHowQuestionsTopicIsItsWholeActivity) {
  EXPECT_EQ(rewrite("要带什么材料", {"怎么开对公账户"}).query, "开对公账户要带什么材料");
  EXPECT_EQ(rewrite("有绩点要求吗", {"怎么申请转专业"}).query, "申请转专业有绩点要求吗");
  EXPECT_EQ(rewrite("有行数限制吗", {"怎么把数据导出成Excel"}).query, "数据导出成excel有行数限制吗");
}

// A function word after a demonstrative and its classifier (这家|能|带…) is no noun of theirs:
// the pair alone points back, and every word after it stays (was 亚朵酒店宠物入住吗).
TEST(RewriteRules, AFunctionWordAfterThePointerIsNoNoun) {
  EXPECT_EQ(rewrite("这家能带宠物入住吗", {"亚朵酒店怎么样"}).query, "亚朵酒店能带宠物入住吗");
}

// After a yes-or-no question of inclusion (包括, 包含, 支持 …), a parallel item takes the place of
// what is included, not of the topic (医保报销包括住院费吗 + 那门诊呢 gave 门诊吗).
TEST(RewriteRules, AParallelItemAfterAnInclusionIsTheIncludedThing) {
  EXPECT_EQ(rewrite("那门诊呢", {"医保报销包括住院费吗"}).query, "医保报销包括门诊吗");
  EXPECT_EQ(rewrite("那地下车库呢", {"公摊面积包括电梯间吗"}).query, "公摊面积包括地下车库吗");
  // A parallel of the topic itself still takes the topic's place.
  EXPECT_EQ(rewrite("那病假呢", {"年假包括周末吗"}).query, "病假包括周末吗");
}

// A comparison after the answer to the question before it compares what the question asked
// about, not the answer's words (目前, 首重23元).
TEST(RewriteRules, AComparisonAfterAnAnswerComparesTheQuestionsTopic) {
  EXPECT_EQ(rewrite("比农行高吗", {"建行的三年定期利率是多少", "目前是1.75%。"}).query,
            "建行的三年定期利率比农行高吗");
  EXPECT_EQ(rewrite("比老版的差吗", {"我觉得新版红楼梦拍得一般"}).query, "新版红楼梦拍得比老版的差吗");
  // Nor does a pronoun after an answer to how much stand for the value.
  EXPECT_EQ(rewrite("那个能转让吗", {"大额存单起存金额是多少", "20万起存。"}).query,
            "大额存单起存金额能转让吗");
}

// A turn with a verb of its own after a question or function word (需要谁|批, 在哪儿|办) carries the
// topic without the question's verb; one that asks of a noun (有|流程|图) keeps it.
TEST(RewriteRules, ATurnWithItsOwnVerbDropsTheQuestionsVerb) {
  EXPECT_EQ(rewrite("需要谁批", {"调休怎么申请"}).query, "调休需要谁批");
  EXPECT_EQ(rewrite("在哪儿办", {"居住证怎么办理"}).query, "居住证在哪儿办");
  EXPECT_EQ(rewrite("有流程图吗", {"预算超支怎么审批"}).query, "预算超支审批有流程图吗");
  EXPECT_EQ(rewrite("要什么条件", {"公积金可以提取吗"}).query, "公积金提取要什么条件");
}

// An aspect inserted beside the topic's first word is one word (报销 + 审批 → 报销审批流程); a
// phrase is the topic's parallel, and a bound head (著作|权) is no verb that ends the topic, so the
// replacement leaves no piece of it behind.
TEST(RewriteRules, APhraseIsTheTopicsParallelNotAnAspect) {
  EXPECT_EQ(rewrite("那审批呢", {"报销流程是什么"}).query, "报销审批流程是什么");
  EXPECT_EQ(rewrite("专利转让呢", {"软件著作权申请找谁"}).query, "专利转让申请找谁");
  // A bound head is no verb either way: 住宿|费 stays with its word in the topic (after the
  // marker, as in any case: AnOpeningNaLeavesTheCaseAsItIs).
  EXPECT_EQ(rewrite("那如果超过了怎么办", {"住宿费标准是多少"}).query, "如果住宿费标准超过了怎么办");
}

// After a question of having (公司有餐补吗), a predicate asks about the thing had with its owner
// (公司餐补每天多少), not about the owner alone (公司每天多少).
TEST(RewriteRules, APredicateAfterAQuestionOfHavingAsksAboutTheThingHad) {
  EXPECT_EQ(rewrite("每天多少", {"公司有餐补吗"}).query, "公司餐补每天多少");
  EXPECT_EQ(rewrite("怎么才能拿到", {"公司有股票期权吗？"}).query, "公司股票期权怎么才能拿到");
  EXPECT_EQ(rewrite("怎么申请", {"园区有班车吗"}).query, "园区班车怎么申请");
  // Only when the question is only that: one that asks more keeps its own reading.
  EXPECT_NE(rewrite("怎么申请", {"公司有餐补发放标准吗"}).query, "公司餐补怎么申请");
}

// The unit a how-much question counts in (每人, 每天) and a preposition before the question word
// (按什么汇率) are no part of the topic a follow-up carries.
TEST(RewriteRules, TheTopicEndsBeforeTheUnitCountedAndAPreposition) {
  EXPECT_EQ(rewrite("怎么申请", {"团建经费每人多少"}).query, "团建经费怎么申请");
  EXPECT_EQ(rewrite("怎么申请", {"员工每月餐补多少"}).query, "员工每月餐补怎么申请");
  const auto r = rewrite("要是中间汇率变了呢", {"外币报销按什么汇率算"});
  EXPECT_TRUE(has(r.query, "外币报销")) << r.query;
  EXPECT_FALSE(has(r.query, "按中间")) << r.query;
}

// How long / how big (多长, 多大) and an A-not-A question (有没有, 能不能) ask like 多久 and 吗: the
// previous turn is a question, and its topic is what a predicate carries (not the whole turn).
TEST(RewriteRules, HowPlusAdjectiveAndANotAAsk) {
  EXPECT_EQ(rewrite("需要准备什么", {"劳动仲裁要多长时间"}).query, "劳动仲裁需要准备什么");
  EXPECT_EQ(rewrite("需要准备什么", {"劳动仲裁能不能撤回"}).query, "劳动仲裁需要准备什么");
}

// A 呢-fragment that opens with a word of the question (违反, 十万) takes the place of that word and
// what follows it there, not of the topic.
TEST(RewriteRules, AFragmentOpeningWithAWordOfTheQuestionReplacesWhatFollowsIt) {
  EXPECT_EQ(rewrite("那违反竞业限制呢", {"员工违反保密义务怎么处罚"}).query, "员工违反竞业限制怎么处罚");
  EXPECT_EQ(rewrite("十万以上呢", {"十万以内的付款谁审批"}).query, "十万以上的付款谁审批");
  EXPECT_EQ(rewrite("平均工作时间呢", {"每种类型的平均年龄是多少"}).query, "每种类型的平均工作时间是多少");
}

// 好吃 / 难学 closing a question says how its topic is: no part of the topic a follow-up carries.
// 多厚 / 多贵 ask like 多少: a turn asking one is a question of its own, not a fragment.
TEST(RewriteRules, HowTheTopicIsIsNoPartOfIt) {
  EXPECT_EQ(rewrite("人均多少", {"全聚德的烤鸭好吃吗"}).query, "全聚德的烤鸭人均多少");
  EXPECT_EQ(rewrite("多少钱", {"小米手机好用吗"}).query, "小米手机多少钱");
  const auto r = rewrite("要穿多厚", {"哈尔滨冬天冷吗"});
  EXPECT_TRUE(r.query.ends_with("要穿多厚")) << r.query;
}

// A verb with its result 完 (签完, 考完) says what was done, and 每月 before a modal (每月|能领) the
// unit counted: neither is part of the topic a follow-up carries.
TEST(RewriteRules, ADoneVerbAndAUnitBeforeAModalAreNoPartOfTheTopic) {
  EXPECT_EQ(rewrite("感觉还行 你呢", {"你考完试了吗", "考完了 终于解放了", "考得咋样"}).query,
            "感觉还行 你考得咋样");
  const auto r = rewrite("如果不够用怎么办", {"办公用品每月能领多少"});
  EXPECT_TRUE(has(r.query, "办公用品不够用")) << r.query;
  const auto s = rewrite("要多久", {"合同签完还能改吗"});
  EXPECT_FALSE(has(s.query, "签完要多久")) << s.query;
}

// A modifier ICU did not know (安|卓) before its one head word (手机) is one word: 苹果的 takes its
// place. Before more words (二|线|城市|餐|补) the cut stays refused: the fallback, not 周末城市餐补.
TEST(RewriteRules, AnUnknownModifierBeforeItsHeadIsReplacedWhole) {
  EXPECT_EQ(rewrite("苹果的呢", {"安卓手机怎么装企业微信"}).query, "苹果手机怎么装企业微信");
  EXPECT_FALSE(has(rewrite("周末的呢", {"二线城市餐补是多少"}).query, "周末城市"));
}

// A subject with 也 and only a verdict (外包也可以吗, 实习生也不行吗) asks the last question of that
// subject: it is a follow-up, and 不 of the verdict goes before the question's modal.
TEST(RewriteRules, ASubjectWithAlsoAndAVerdictAsksTheLastQuestionOfIt) {
  const auto yes = rewrite("外包也可以吗", {"正式员工可以申请居家办公吗"});
  EXPECT_TRUE(yes.follow_up);
  EXPECT_EQ(yes.query, "外包也可以申请居家办公吗");
  const auto no = rewrite("实习生也不行吗", {"新员工能参加年会抽奖吗", "不能，只有正式员工可以。"});
  EXPECT_TRUE(no.follow_up);
  EXPECT_EQ(no.query, "实习生也不能参加年会抽奖吗");
  // No modal that 不 denies as it is (参加…, 要登记: 不要 would forbid): the rule does not guess.
  for (const char* prev : {"新员工参加年会抽奖吗", "访客要登记吗"}) {
    const auto open = rewrite("实习生也不行吗", {prev});
    EXPECT_EQ(std::count(open.reasons.begin(), open.reasons.end(), "also:subject"), 0) << open.query;
  }
  // 也 in the question already is not said twice.
  EXPECT_FALSE(has(rewrite("外包也可以吗", {"实习生也能申请居家办公吗"}).query, "也也"));
}

// A count closing the previous question's topic (打印机一次|能打多少页) says how often, not what:
// the topic is the thing without it.
TEST(RewriteRules, ACountClosingTheTopicIsNoPartOfIt) {
  EXPECT_EQ(rewrite("卡纸了怎么办", {"打印机一次能打多少页"}).query, "打印机卡纸了怎么办");
  EXPECT_EQ(rewrite("怎么续", {"自习室一次可以约几个小时"}).query, "自习室怎么续");
  EXPECT_EQ(rewrite("怎么申请", {"婚假一次能休几天"}).query, "婚假怎么申请");
  // A count that names (12栋, 三部) stays with the topic, and so may one of how long (断缴一个月).
  EXPECT_TRUE(has(rewrite("几点关门", {"公寓12栋在哪"}).query, "12栋")) << rewrite("几点关门", {"公寓12栋在哪"}).query;
}

// After a question of ability (里程可以兑换机票吗), a wh-question asks about that activity
// (里程兑换机票具体咋换), not about the topic alone (里程具体咋换).
TEST(RewriteRules, AQuestionAfterOneOfAbilityAsksAboutTheActivity) {
  EXPECT_EQ(rewrite("具体咋换", {"里程可以兑换机票吗"}).query, "里程兑换机票具体咋换");
  EXPECT_EQ(rewrite("要什么条件", {"公积金可以提取吗"}).query, "公积金提取要什么条件");
  // A lone verb and its object (能换房间: the phrases leave 换 out), and 哪 before a unit of
  // time asks when, not which of two.
  EXPECT_EQ(rewrite("找谁", {"宿舍能换房间吗"}).query, "宿舍换房间找谁");
  EXPECT_EQ(rewrite("哪天能搬", {"宿舍可以换房间吗"}).query, "宿舍换房间哪天能搬");
  // An adverb after the modal is no verb of the activity.
  EXPECT_FALSE(has(rewrite("找谁", {"报销可以先垫付吗"}).query, "报销先"));
}

// After a yes-or-no question of ability or need (运动鞋可以在门店退换吗), a bare predicate is said
// of the activity: the rewrite keeps the activity's words a retriever needs (门店退换), not the
// topic alone — unless the turn says the activity its own way (忘了报备, which keeps the adverb of
// time the question gave the verb: 忘了提前报备).
TEST(RewriteRules, APredicateAfterAYesNoQuestionKeepsItsActivity) {
  EXPECT_EQ(rewrite("需要带小票吗", {"运动鞋可以在门店退换吗"}).query, "运动鞋在门店退换需要带小票吗");
  EXPECT_EQ(rewrite("多少钱一次", {"宿舍能用洗衣机吗"}).query, "宿舍用洗衣机多少钱一次");
  EXPECT_EQ(rewrite("忘了报备怎么办", {"加班需要提前报备吗"}).query, "加班忘了提前报备怎么办");
  // Not a case closing in 呢, nor a which-question.
  EXPECT_FALSE(has(rewrite("只借一周呢", {"笔记本可以外借吗"}).query, "外借只借"));
  EXPECT_EQ(rewrite("哪个快", {"公积金和社保能一起转吗"}).query, "公积金和社保哪个快");
}

// 然后呢 right after an answer that gave a step asks what follows that step: the step the answer
// leaves the user at (its later step after 先…再, else its first clause) and 之后的流程是什么, with
// the topic in front when the step does not name it — not the topic and a dangling 然后.
TEST(RewriteRules, WhatNextAfterAnAnswerAsksWhatFollowsItsStep) {
  EXPECT_EQ(rewrite("然后呢", {"离职手续怎么办", "在HR系统提交离职申请，附交接清单。"}).query,
            "在hr系统提交离职申请之后的流程是什么");
  // A yes opening the answer is no step (was 离职证明可以之后的…).
  EXPECT_EQ(rewrite("然后呢", {"离职证明能补开吗", "可以，在HR系统提交补开申请。"}).query,
            "离职证明在hr系统提交补开申请之后的流程是什么");
  EXPECT_EQ(rewrite("接下来呢", {"工牌怎么补办", "先在行政系统登记挂失，再到前台缴费。"}).query,
            "工牌再到前台缴费之后的流程是什么");  // ICU reads 再到 as one word: it stays whole
  // A turn with words of its own (然后要等多久) asks those; a statement of the user's own is
  // continued as it stands (statement_prefix:next_step).
  EXPECT_FALSE(has(rewrite("然后要等多久", {"离职手续怎么办", "在HR系统提交离职申请。"}).query,
                   "之后的流程是什么"));
}

// An ASCII fragment takes the place of the question's one ASCII word wherever it stands
// (装Chrome → 装Firefox), and a preposition with its object aligns with the question's
// (跟个人签… + 那跟个体户呢 → 跟个体户签…): neither replaces the topic.
TEST(RewriteRules, AnAsciiWordAndAPrepositionsObjectTakeTheirParallelsPlace) {
  EXPECT_EQ(rewrite("那Firefox呢", {"公司电脑可以装Chrome吗"}).query, "公司电脑可以装firefox吗");
  EXPECT_EQ(rewrite("那跟个体户呢", {"跟个人签劳务协议要代扣个税吗"}).query, "跟个体户签劳务协议要代扣个税吗");
}

// English: a fragment that repeats the words before the phrase it replaces (and on Linux) says
// them once, and an ordinal for an ordinal keeps the noun after it (the 4th floor + the 2nd).
TEST(RewriteRules, EnglishFragmentsSayTheirPrepositionOnceAndKeepTheNounAfterAnOrdinal) {
  EXPECT_EQ(rewrite("And on Linux?", {"How do I install Slack on Windows?"}).query,
            "how do i install slack on linux");
  EXPECT_EQ(rewrite("And on the 2nd?", {"Where are the lockers on the 4th floor?"}).query,
            "where are the lockers on the 2nd floor");
  EXPECT_EQ(rewrite("And the 5th?", {"Where's the mailroom on the 3rd floor?"}).query,
            "where's the mailroom on the 5th floor");
}

// A case that names the first word of the topic (专家 of 专家劳务费) asks the question of the rest
// of it (如果专家是外籍的劳务费怎么付, was 如果专家是外籍的怎么付); naming the head keeps the case as is.
TEST(RewriteRules, ACaseNamingTheTopicsFirstWordKeepsItsHead) {
  EXPECT_EQ(rewrite("如果专家是外籍的呢", {"专家劳务费怎么付"}).query, "如果专家是外籍的劳务费怎么付");
  EXPECT_FALSE(has(rewrite("要是答辩那天刚好出差呢", {"晋升答辩要准备什么"}).query, "出差晋升"));
}

// 它 after an answer that says what is used (统一使用腾讯会议企业版) to a question of which or
// whether there is one: the thing used, not the question's category (视频会议软件).
TEST(RewriteRules, ItAfterAnAnswerNamingWhatIsUsedIsThatThing) {
  EXPECT_EQ(rewrite("它一场会最多多少人", {"公司用的视频会议软件是哪个", "目前统一使用腾讯会议企业版。"}).query,
            "腾讯会议企业版一场会最多多少人");
  EXPECT_EQ(rewrite("它支持SSH吗", {"公司有代码托管平台吗", "有，内部使用GitLab，地址为git.company.com。"}).query,
            "gitlab支持ssh吗");
}

// A lone noun suffix glued to the word before it (打印|机, 淋浴|间, 投影|仪) makes a word with it:
// no verb that ends the topic before it.
TEST(RewriteRules, ANounSuffixStaysWithItsWord) {
  EXPECT_TRUE(has(rewrite("要是急着用咋办", {"远程桌面怎么开", "打印机驱动在哪下", "共享文件夹没权限"}).query,
                  "打印机"));
  EXPECT_TRUE(has(rewrite("需要预约吗", {"三楼淋浴间几点关门"}).query, "淋浴间"));
  // …and so do 肉, 店, 部 (红烧|肉, 行政|部).
  EXPECT_EQ(rewrite("要放酱油吗", {"红烧肉怎么做", "先炒糖色"}).query, "红烧肉要放酱油吗");
  EXPECT_TRUE(has(rewrite("他们几点下班", {"工牌丢了找谁", "找行政部补办。"}).query, "行政部"));
}

// Adverbs of scope and time (总共, 分别, 已经) say how much or when, not what: the topic the turn
// inherits is the noun they qualify, not a run that ends in one.
TEST(RewriteRules, AnAdverbOfScopeOrTimeIsNoPartOfTheTopic) {
  const auto total = rewrite("营业时间是几点", {"园区总共有几个食堂？"});
  EXPECT_TRUE(has(total.query, "园区")) << total.query;
  EXPECT_FALSE(has(total.query, "总共")) << total.query;
  EXPECT_FALSE(has(rewrite("哪个最多？", {"各部门分别有多少人？"}).query, "分别"));
  EXPECT_FALSE(has(rewrite("标准是什么", {"公司已经发了年终奖吗"}).query, "已经"));
  // ICU cuts 一共有 as 一|共有: the listed 一共 and the rest 有 are both function words, so no lone
  // 一 is left to be the topic.
  EXPECT_EQ(rewrite("报名截止是哪天", {"一共有几个培训课程？"}).query, "培训课程报名截止是哪天");
}

// ICU splits a compound it does not know into lone characters, and the first may be a listed
// function word (对|私|账户, 在|岗|培训, 按|揭|贷款): opening a clause before a lone character and
// a word, it is a piece of the compound, and the topic keeps it. A pronoun, a pointer, an adverb
// or a modal never opens one (你|买|基金, 要|交|押金).
TEST(RewriteRules, AFunctionCharacterOpeningAnUnknownCompoundIsPartOfIt) {
  EXPECT_EQ(rewrite("它要收费吗", {"对私账户怎么开"}).query, "对私账户要收费吗");
  EXPECT_EQ(rewrite("它要考试吗", {"在岗培训怎么报名"}).query, "在岗培训要考试吗");
  EXPECT_EQ(rewrite("它的利率是多少", {"按揭贷款怎么办"}).query, "按揭贷款的利率是多少");
  const auto modal = rewrite("多少钱", {"要交押金吗"});
  EXPECT_FALSE(has(modal.query, "要交押金多少钱")) << modal.query;
  const auto object = rewrite("它要多久", {"把钱转账给同事"});
  EXPECT_FALSE(has(object.query, "把钱")) << object.query;
}

// 版 and 类 make nouns (旗舰|版, 青春|类): the word before them and the one after stay one
// thing; and a verb before 多少个 (包含|多少个|账号) asks, as before 多少, no part of the topic.
TEST(RewriteRules, ABoundHeadJoinsItsWordAndAVerbBeforeHowManyIsNoTopic) {
  EXPECT_EQ(rewrite("它支持离线使用吗", {"旗舰版会员包含多少个账号"}).query, "旗舰版会员支持离线使用吗");
  EXPECT_EQ(rewrite("它支持离线使用吗", {"免费版会员有哪些功能"}).query, "免费版会员支持离线使用吗");
}

// A parallel item takes the place of a whole word ICU did not know, its opening function
// character too (在|职|研究生 → 全日制研究生, not 在全日制…). A modifier with 的 opening the topic
// takes its parallel's place as that one stood, without 的 (二号楼食堂几点开门, as own dev fu-0253's
// 住宿发票 and more dev fm-0056's 5楼会议室 write it), and one 的 of the history's is enough.
TEST(RewriteRules, AParallelItemReplacesAnUnknownCompoundAndKeepsOneDe) {
  EXPECT_EQ(rewrite("那全日制研究生呢", {"在职研究生学费能报销吗"}).query, "全日制研究生学费能报销吗");
  EXPECT_EQ(rewrite("退休员工的", {"在职员工体检的费用谁出"}).query, "退休员工体检的费用谁出");
  EXPECT_EQ(rewrite("二号楼的", {"一号楼食堂的营业时间"}).query, "二号楼食堂的营业时间");
  EXPECT_EQ(rewrite("二号楼的", {"一号楼食堂几点开门"}).query, "二号楼食堂几点开门");
  // A 的 closing the history's sentence is no modifier's.
  EXPECT_EQ(rewrite("二号楼的呢", {"一号楼食堂是哪年建的"}).query, "二号楼食堂是哪年建的");
}

// A count of two opening the turn (两个, 这两家, 两栋楼 with the pair's own noun) stands for the
// pair the history coordinated, like 两者: the pair takes its place. A count before another noun
// (两个人) or a number (两个以上) names no pair.
TEST(RewriteRules, ACountOfTwoStandsForThePair) {
  const std::vector<std::string> banks = {"工资卡可以选招行和建行吗", "都可以。"};
  EXPECT_EQ(rewrite("两个有啥不一样", banks).query, "招行和建行有啥不一样");
  EXPECT_EQ(rewrite("这两家哪个网点多", banks).query, "招行和建行哪个网点多");
  const std::vector<std::string> towers = {"A楼和B楼都有食堂吗", "都有。"};
  EXPECT_EQ(rewrite("两栋楼哪个近", towers).query, "a楼和b楼哪个近");
  EXPECT_FALSE(has(rewrite("两个人的都要登记吗", towers).query, "楼人"));
  // Two people or two spans of time are counted, not the pair.
  const std::vector<std::string> rooms = {"单人间和双人间怎么订", "在行政系统提交住宿申请。"};
  EXPECT_FALSE(gave(rewrite("两个人要多少钱", rooms), "which_of_pair"));
  EXPECT_FALSE(gave(rewrite("两个月能订完吗", rooms), "which_of_pair"));
}

// A choice put to the user (你上班骑车还是走路) is a question though it has no question word: a
// short answer fills its slot, and why asks why of that. The second alternative's first word
// finds where the first begins (喝茶还是喝|咖啡), else the characters do when ICU cut it into lone
// ones (甜的还是咸|的), else the words.
TEST(RewriteRules, AChoicePutToTheUserIsAQuestionItsAnswerFills) {
  EXPECT_EQ(rewrite("为啥", {"你上班骑车还是走路", "走路"}).query, "为啥上班走路");
  EXPECT_EQ(rewrite("为什么", {"你喜欢喝茶还是喝咖啡", "喝咖啡"}).query, "为什么喜欢喝咖啡");
  EXPECT_EQ(rewrite("我也是", {"你豆腐脑吃甜的还是咸的", "咸的"}).query, "我也豆腐脑吃咸的");
}

// 他们 after an answer that lists people (找部门经理和财务总监, 覆盖配偶和子女, 法务、财务) means
// all of them, not the one the pronoun rule found first.
TEST(RewriteRules, TheyAfterAnAnswerListingPeopleIsAllOfThem) {
  EXPECT_TRUE(has(rewrite("他们周末上班吗", {"出差审批找谁", "找部门经理和财务总监。"}).query,
                  "部门经理和财务总监"));
  EXPECT_TRUE(has(rewrite("他们能一起参加吗", {"年度体检覆盖家属吗", "覆盖配偶和子女。"}).query, "配偶和子女"));
  EXPECT_TRUE(has(rewrite("他们一般几天审完", {"合同谁来审", "业务负责人、法务、财务，金额大的还需总经理。"}).query,
                  "业务负责人、法务、财务"));
}

// The 》 closing a statement's title (最近在看《漫长的季节》) closes the title, not the sentence: the
// object keeps both marks, and the rewrite is no piece of a word.
TEST(RewriteRules, AClosingTitleMarkIsPartOfTheTitle) {
  const auto r = rewrite("主演是谁", {"最近在看《漫长的季节》"});
  EXPECT_EQ(r.query, "《漫长的季节》的主演是谁");  // who of a work: WhoOfAWorkIsItsRoleWithDe
  EXPECT_TRUE(std::none_of(r.reasons.begin(), r.reasons.end(),
                          [](const std::string& x) { return x.starts_with("rewrite:fallback"); }));
}

// The noun after a pointer shares a head with the antecedent only as a whole word: 税 of 消费税
// is no head of 税率, so 这个税率 becomes 消费税税率, not 消费税率; 额 of 限额 none of 额度.
TEST(RewriteRules, APointedNounSharesTheAntecedentsHeadOnlyAsAWholeWord) {
  EXPECT_EQ(rewrite("这个税率是多少", {"消费税谁来交", "由财务部统一缴纳。"}).query, "消费税税率是多少");
  // ICU cuts 额|度, but a suffix after a lone character makes a word with it: 额 is no head.
  const auto quota = rewrite("这个额度能调高吗", {"信用卡的取现限额是多少", "单日不超过2万元。"});
  EXPECT_FALSE(has(quota.query, "限额度")) << quota.query;
  EXPECT_TRUE(has(quota.query, "额度能调高吗")) << quota.query;
}

// 这样 / 那样 opening a turn after a statement point at what it said one does (its first clause
// after a yes or no, without the speaker), not at a thing: never 这 replaced and 样 left. After an
// answer to how long the statement is a value, and 这样的 + noun picks a kind no phrase names:
// the turn goes beside the topic.
TEST(RewriteRules, ThisWayPointsAtWhatTheStatementSaidOneDoes) {
  EXPECT_EQ(rewrite("这样算违规吗", {"我把公司文件发到了个人邮箱"}).query, "把公司文件发到了个人邮箱算违规吗");
  // U盘 is one word (a letter names with the character after it); glued to 算 it would read
  // U|盘算, so the safe form stands.
  const auto seam = rewrite("这样算违规吗", {"我把公司文件拷到了个人U盘"});
  EXPECT_FALSE(has(seam.query, "u盘算")) << seam.query;
  EXPECT_EQ(rewrite("这样会不会慢", {"报销单能先手写吗", "可以，先手写再补录系统。"}).query,
            "先手写再补录系统会不会慢");
  const auto value = rewrite("这样不会饿吗", {"最近在减肥，晚上只吃沙拉", "坚持多久了", "快一个月了，瘦了六斤"});
  EXPECT_FALSE(has(value.query, "一个月")) << value.query;
  EXPECT_FALSE(has(value.query, "减肥样")) << value.query;
  const auto kind = rewrite("这样的专业有多少个", {"哪个专业的人数在2到30之间？"});
  EXPECT_TRUE(gave(kind, "pronoun:kind")) << kind.query;
  EXPECT_TRUE(has(kind.query, "这样的专业有多少个")) << kind.query;
  // 这样子 is 这样; 这样吧 (let's do so) and 这样的话 (if so) point at nothing to put in their place.
  EXPECT_EQ(rewrite("这样子行吗", {"我打算先手写再补录系统"}).query, "打算先手写再补录系统行吗");
  EXPECT_TRUE(has(rewrite("这样吧", {"我先手写再补录系统"}).query, "这样吧"));
  const auto if_so = rewrite("这样的话能退款吗", {"我先手写再补录系统"});
  EXPECT_FALSE(gave(if_so, "pronoun:kind")) << if_so.query;
}

// A label in front of the owner (5号线, 2号楼, A栋) numbers it: the owner with its 的 stays with
// the thing (5号线的巡检表), as a one-word owner does; the company every question is about does not.
TEST(RewriteRules, AnOwnerWithALabelStaysWithTheThing) {
  EXPECT_EQ(rewrite("它要每班都填吗", {"5号线的巡检表在哪领"}).query, "5号线的巡检表要每班都填吗");
  EXPECT_EQ(rewrite("它收费吗", {"2号楼的充电桩怎么用"}).query, "2号楼的充电桩收费吗");
  EXPECT_EQ(rewrite("它收费吗", {"公司的充电桩怎么用"}).query, "充电桩收费吗");
  // A count is no label (3个月, 50块钱): the thing goes alone, as before.
  EXPECT_EQ(rewrite("它能延长吗", {"3个月的试用期能请假吗"}).query, "试用期能延长吗");
  EXPECT_EQ(rewrite("它能叠加吗", {"50块钱的优惠券怎么用"}).query, "优惠券能叠加吗");
}

// 它们 / 这些 standing alone after a question of which or how many are the things it asked for,
// of the topic that has them (园区有几个食堂 + 它们几点开门 → 园区食堂…, as own dev fu-0058's 公司的
// 班车线路 writes it), not the topic alone (园区). With a noun of its own (这些县) or a set of one
// character (几条|线) the rules before apply.
TEST(RewriteRules, APluralPronounIsTheSetTheQuestionAskedFor) {
  EXPECT_EQ(rewrite("它们几点开门", {"园区有几个食堂"}).query, "园区食堂几点开门");
  EXPECT_EQ(rewrite("它们怎么申请", {"公司有哪些福利"}).query, "公司福利怎么申请");
  EXPECT_EQ(rewrite("它们都要交税吗", {"员工有哪几种补贴"}).query, "员工补贴都要交税吗");
  EXPECT_FALSE(has(rewrite("它们都经过地铁站吗", {"公司的班车有几条线"}).query, "线都"));
}

// 其中 picks from the set the previous question asked for (the phrase after its question word,
// without a classifier ICU left in front): that set takes 其中's place, never the topic glued in
// front of 其中.
TEST(RewriteRules, APickFromASetNamesTheSetTheQuestionAskedFor) {
  EXPECT_EQ(rewrite("其中哪家的评分最高？", {"附近有哪些咖啡店？"}).query, "咖啡店中哪家的评分最高");
  EXPECT_EQ(rewrite("其中，哪个最便宜？", {"你们有哪些套餐？"}).query, "套餐中哪个最便宜");
  EXPECT_EQ(rewrite("其中有几家在海淀", {"北京有多少家分公司？"}).query, "分公司中有几家在海淀");
  // A turn that names the set itself is left as it is.
  const auto named = rewrite("其中咖啡店哪家最近", {"附近有哪些咖啡店？"});
  EXPECT_EQ(named.query, "其中咖啡店哪家最近");
  EXPECT_TRUE(gave(named, "subset:has_topic"));
}

// A word with an aspect particle that goes on to a question or an object (组织|了|几次团建) is the
// verb the question asks about, not part of its topic; before a closing particle (签证|了|吗) the
// word stays the event's noun.
TEST(RewriteRules, AVerbTakingAnAspectParticleIsNoPartOfTheTopic) {
  const auto r = rewrite("都在哪里办的", {"公司去年组织了几次团建？"});
  EXPECT_TRUE(has(r.query, "团建")) << r.query;
  EXPECT_FALSE(has(r.query, "组织")) << r.query;
  EXPECT_TRUE(has(rewrite("我也想去办", {"你办签证了吗"}).query, "签证"));
}

// A turn that names the thing the topic opens with (订单 of 订单的物流状态) asks about that thing
// itself: the topic is not glued in front to name it twice.
TEST(RewriteRules, ATurnNamingTheTopicsThingKeepsItsOwnSubject) {
  const auto r = rewrite("订单号在哪里看", {"这个订单的物流状态怎么查？"});
  EXPECT_EQ(r.query, "订单号在哪里看") << r.query;
  EXPECT_TRUE(gave(r, "has_topic:head"));
  // A predicate without a subject of its own still takes the topic.
  EXPECT_EQ(rewrite("最多能报多少", {"差旅住宿标准是多少"}).query, "差旅住宿标准最多能报多少");
}

// After a request for data (列出所有会议室的名字) what it asked for stands beside the turn, in the
// safe form — pasted in front, request and question run together. A sort names no thing: the
// turn stays as it is.
TEST(RewriteRules, AfterARequestWhatItAskedForStandsBesideTheTurn) {
  const auto r = rewrite("一共有几个", {"列出所有会议室的名字。"});
  EXPECT_EQ(r.query, "会议室的名字 一共有几个");
  EXPECT_TRUE(gave(r, "rewrite:fallback:request"));
  // The word that picks (每|个, 这些) is no part of the thing; a noun opening with a classifier
  // character (门店) stays whole.
  EXPECT_EQ(rewrite("哪个最多", {"列出每个部门的人数。"}).query, "部门的人数 哪个最多");
  EXPECT_EQ(rewrite("哪个最多", {"告诉我这些门店的销量。"}).query, "门店的销量 哪个最多");
  EXPECT_EQ(rewrite("哪个最贵", {"按价格从高到低排序。"}).query, "哪个最贵");
  // 其中 after a request picks from the things it asked about (门店, whose 地址 it asked for);
  // after a sort, from nothing named.
  EXPECT_EQ(rewrite("其中哪些在上海", {"显示所有门店的地址吧。"}).query, "门店中哪些在上海");
  EXPECT_EQ(rewrite("其中哪些已完结", {"列出所有新上线的网络小说。"}).query, "新上线的网络小说中哪些已完结");
  EXPECT_EQ(rewrite("其中有几个在华东", {"列出所有供应商所在的省份。"}).query, "供应商所在的省份中有几个在华东");
  EXPECT_EQ(rewrite("其中哪个最贵", {"按价格从高到低排序。"}).query, "其中哪个最贵");
}

// A word ICU does not know comes in lone characters (动|漫); an adverb after it (一共) ends the
// run of pieces no more than a predicate word would, so the whole word goes with the pointer.
TEST(RewriteRules, AnAdverbAfterAWordInPiecesLeavesNoPieceBehind) {
  EXPECT_EQ(rewrite("那部动漫一共多少集", {"你看过海贼王吗"}).query, "海贼王一共多少集");
  EXPECT_EQ(rewrite("那款手游一共多少关", {"你玩过纪念碑谷吗"}).query, "纪念碑谷一共多少关");
}

// A previous question whose subject is a pronoun nothing resolved (它属于哪一类合同) names its
// predicate or the subject's attribute first, not the thing: a bare predicate or a 它 of the turn
// is left as typed, with the reason; an ellipsis still replaces its words in place.
TEST(RewriteRules, AQuestionAboutAnUnresolvedPronounLendsNoSubject) {
  const auto bare = rewrite("一般要多久", {"它属于哪一类合同？"});
  EXPECT_EQ(bare.query, "一般要多久");
  EXPECT_TRUE(gave(bare, "no_antecedent:pronoun_subject"));
  EXPECT_EQ(rewrite("它的有效期多长", {"它的审批人是谁？"}).query, "它的有效期多长");
  EXPECT_EQ(rewrite("那盖章呢", {"它的审批要几天？"}).query, "它的盖章要几天");
}

// A pointer before a noun the previous question named ahead of its thing (哪个部门的预算最多 +
// 这个部门…): the thing (预算) is the noun's attribute, not a modifier of it, so gluing it before
// the noun says something else (预算部门); the turn names what it asks about and stays as typed.
// A topic the previous question named before the noun still goes in front (报销材料).
TEST(RewriteRules, ANounNamedBeforeTheThingTakesNoThingInFront) {
  const auto dept = rewrite("这个部门的负责人是谁", {"哪个部门的预算最多？"});
  EXPECT_EQ(dept.query, "这个部门的负责人是谁");
  EXPECT_TRUE(gave(dept, "pronoun:named_before"));
  EXPECT_EQ(rewrite("这家供应商在哪个城市", {"哪家供应商交货最快？"}).query, "这家供应商在哪个城市");
  EXPECT_EQ(rewrite("这些会议室能投屏吗", {"会议室的预订规则是什么"}).query, "这些会议室能投屏吗");
  EXPECT_EQ(rewrite("这些材料要原件吗", {"报销需要哪些材料"}).query, "报销材料要原件吗");
}

// What a which-question asked for can run on into what it does (哪款|音箱|排名|第一, 哪些|银行|支持|
// 外币|兑换): only the noun stands for 它, and without word classes it cannot be cut from its
// predicate. Such a thing of three words or more goes beside the turn, the safe form, rather than
// into it (银行支持外币兑换的地址在哪); a phrase with 的 ends in its noun and goes in as before.
TEST(RewriteRules, AWhichClauseGoesBesideTheTurn) {
  const auto it = rewrite("它们的地址在哪", {"有哪些银行支持外币兑换"});
  EXPECT_EQ(it.query, "银行支持外币兑换 它们的地址在哪");
  EXPECT_TRUE(gave(it, "rewrite:fallback:clause"));
  EXPECT_EQ(rewrite("卖多少钱", {"哪款音箱排名第一？"}).query, "音箱排名第一 卖多少钱");
  EXPECT_EQ(rewrite("具体是多少钱呢", {"哪家公司的起步价格最低？"}).query, "公司的起步价格具体是多少钱");
  EXPECT_EQ(rewrite("它们要发票吗", {"哪些差旅补贴可以报"}).query, "差旅补贴要发票吗");
}

// A previous question opening with a reaction (好吧，…; 哇，…; 这么贵啊，…; 好的，都挺合适的，…) or a
// request's verb (显示所有部门) names its topic after it: none of these is the thing a predicate
// asks about.
TEST(RewriteRules, AReactionOrARequestVerbIsNoTopic) {
  for (const auto& [turn, prev, topic] :
       std::vector<std::tuple<const char*, const char*, const char*>>{
           {"要提前预约吗", "好吧，那大会议室能投屏吗？", "会议室"},
           {"在哪里办理", "哇，公积金贷款额度这么高吗？", "公积金"},
           {"要排队吗", "这么贵啊，体检套餐都包含什么？", "体检套餐"},
           {"有儿童价吗", "好的，都挺合适的，门票多少钱一个人？", "门票"},
           {"一共有几个", "显示所有部门。", "部门"}}) {
    const std::string q = rewrite(turn, {prev}).query;
    EXPECT_TRUE(has(q, topic)) << q;
    for (const char* opener : {"好吧", "哇", "贵", "合适", "显示"}) EXPECT_FALSE(has(q, opener)) << q;
  }
}

// After a request, a pronoun without a noun of its own stands for what the request asked for —
// never for its verb (对显示进行排序) — without the information asked of it (家具的所有信息 → 家具);
// 它们的 owns attributes, so after 会议室的名称 it is the 会议室.
TEST(RewriteRules, APronounAfterARequestIsWhatItAskedFor) {
  EXPECT_EQ(rewrite("按成立日期对它们进行排序", {"显示所有部门。"}).query, "按成立日期对部门进行排序");
  EXPECT_EQ(rewrite("它的编号是多少", {"显示价格最低的显示器的所有信息。"}).query,
            "价格最低的显示器的编号是多少");
  EXPECT_EQ(rewrite("它们的负责人是谁", {"列出所有会议室的名称。"}).query, "会议室的负责人是谁");
  EXPECT_FALSE(has(rewrite("它们的负责人是谁", {"列出所有会议室的名称。"}).query, "显示"));
}

// A request of the turn's own (按评分排序, 同时显示配送费) is no fragment of the previous question nor
// a predicate to give a subject: the topic stands beside it, the safe form. A request is read
// after a sort phrase (按码率从小到大列出…) and with its object in front (将…列出); its verb is a
// word of its own that asks (显示器呢 and 找到了 are no requests).
TEST(RewriteRules, ARequestTurnTakesTheTopicBesideIt) {
  const auto sort = rewrite("按照价格从高到低排序", {"快餐店有哪些推荐？"});
  EXPECT_EQ(sort.query, "快餐店 按照价格从高到低排序");
  EXPECT_TRUE(gave(sort, "rewrite:fallback:request"));
  EXPECT_EQ(rewrite("同时显示配送费", {"快餐店有哪些推荐？"}).query, "快餐店 同时显示配送费");
  EXPECT_EQ(rewrite("一共有几个", {"按人数从多到少列出所有部门。"}).query, "部门 一共有几个");
  EXPECT_EQ(rewrite("一共有几个", {"将超过三天的请假记录列出来。"}).query, "超过三天的请假记录 一共有几个");
  EXPECT_FALSE(gave(rewrite("显示器呢", {"笔记本电脑坏了找谁修"}), "request"));
}

// A question of how much asks an attribute of a thing (容量 of 共享盘的容量, 间隔 of 班车的发车间隔):
// 它 after it is the thing when the turn says something of the thing, the attribute when it says
// something of an amount (能提高, 怎么算, 够, 比它…), or names the attribute itself (这个额度).
// Without 的 the owner's end is unsure (汽车|平均|重量), and so it is when the attribute has more
// words than one; an adverb (具体的热量) or a count owns nothing.
TEST(RewriteRules, APronounAfterAQuestionOfHowMuchIsTheThingNotItsAmount) {
  EXPECT_EQ(rewrite("它满了会怎样", {"公司邮箱的容量是多少"}).query, "公司邮箱满了会怎样");
  EXPECT_EQ(rewrite("它周末也开吗", {"班车的间隔多长"}).query, "班车周末也开吗");
  // An attribute of two words may hold its own owner (意外险|保额): the thing stays.
  EXPECT_EQ(rewrite("它周末也开吗", {"班车的发车间隔多长"}).query, "班车的发车间隔周末也开吗");
  EXPECT_EQ(rewrite("它能容纳多少人", {"大会议室的面积多大"}).query, "大会议室能容纳多少人");
  EXPECT_EQ(rewrite("它能扩容吗", {"共享盘的容量是多少", "每个部门共享盘默认500GB。"}).query,
            "共享盘能扩容吗");
  EXPECT_EQ(rewrite("它能提高吗", {"报销的额度是多少"}).query, "报销的额度能提高吗");
  EXPECT_EQ(rewrite("它怎么算", {"年假的天数是多少"}).query, "年假的天数怎么算");
  EXPECT_TRUE(has(rewrite("它怎么算", {"公司邮箱的容量是多少"}).query, "容量"));
  EXPECT_EQ(rewrite("它还能提高吗", {"报销的额度是多少"}).query, "报销的额度还能提高吗");
  EXPECT_EQ(rewrite("这个额度可以累积吗", {"交际费的额度是多少"}).query, "交际费的额度可以累积吗");
  EXPECT_EQ(rewrite("它一个月多少钱", {"员工宿舍的面积多大"}).query, "员工宿舍一个月多少钱");
  EXPECT_FALSE(has(rewrite("列出比它重的汽车", {"汽车的平均重量是多少"}).query, "汽车的平均比"));
  EXPECT_TRUE(has(rewrite("它周末开门吗", {"市民中心多大"}).query, "市民中心"));
  EXPECT_FALSE(rewrite("它对减肥有帮助吗", {"具体的热量是多少"}).query.starts_with("具体对"));
  EXPECT_EQ(rewrite("它周末开门吗", {"公司邮箱容量是多少"}).query, "公司邮箱容量周末开门吗");
}

// A parallel ending in its bound head (信用卡 of 储|蓄|卡) takes the place of that item only, not of
// the lone characters after it (挂|失|费: the next word); a name ICU cut up (张|学友, 周|杰|伦) is
// still replaced whole. A time after a pointer (这家|周六) says when, not what is pointed at. 的话
// marks a case put (换货的话呢): the rewrite keeps the history's other words or falls back.
TEST(RewriteRules, AParallelItemEndsAtItsHeadAndATimeIsNoPointedNoun) {
  EXPECT_EQ(rewrite("那信用卡呢", {"储蓄卡挂失费多少"}).query, "信用卡挂失费多少");
  EXPECT_EQ(rewrite("那公交卡呢", {"饭卡补办费多少"}).query, "公交卡补办费多少");
  EXPECT_EQ(rewrite("王菲呢", {"张学友最红的歌是哪首"}).query, "王菲最红的歌是哪首");
  EXPECT_FALSE(has(rewrite("林俊杰呢", {"周杰伦最火的歌是哪首"}).query, "杰伦"));
  EXPECT_EQ(rewrite("这家周六营业吗", {"南京西路的招商银行网点几点开门"}).query,
            "招商银行网点周六营业吗");
  EXPECT_TRUE(has(rewrite("换货的话呢", {"退货运费谁出"}).query, "运费"));
}

// A fragment whose first word is an adverb (还是卡呢, 也不行呢) is a predicate, not an item: it
// takes no word's place (打印还是卡纸…, 可以先还是慢…) and does not stand for the topic (也不行怎么办);
// the topic goes beside it, the safe form.
TEST(RewriteRules, APredicateFragmentTakesNoItemsPlace) {
  const auto stuck = rewrite("还是卡呢", {"打印机卡纸怎么办", "可以先打开后盖取出纸张，再重启打印机。"});
  EXPECT_EQ(stuck.query, "打印机卡纸 还是卡呢");
  EXPECT_TRUE(gave(stuck, "ellipsis:predicate"));
  const auto vpn = rewrite("也不行呢", {"VPN连不上怎么办", "先重启客户端，再检查网络设置。"});
  EXPECT_TRUE(has(vpn.query, "连不上")) << vpn.query;
  EXPECT_TRUE(gave(vpn, "ellipsis:predicate"));
  EXPECT_FALSE(has(rewrite("还是闪退呢", {"App总是闪退怎么办", "可以先清除缓存，并更新到最新版本。"}).query,
                   "可以先还是"));
  // 还是 before an item is "or" (还是打车呢), and an adverb may open a modifier (已经报销的呢): beside
  // the topic too, never spliced into the question (去还是打车坐地铁…).
  const auto taxi = rewrite("还是打车呢", {"去机场坐地铁方便吗"});
  EXPECT_TRUE(gave(taxi, "ellipsis:predicate"));
  EXPECT_FALSE(has(taxi.query, "去还是"));
  EXPECT_TRUE(gave(rewrite("已经报销的呢", {"差旅发票要保存几年"}), "ellipsis:predicate"));
  // A request for one of something (举个例子, 给个链接) is no item either; 单个, 上个 pick one.
  EXPECT_EQ(rewrite("举个例子", {"什么是竞业限制"}).query, "竞业限制 举个例子");
  EXPECT_EQ(rewrite("给个链接", {"报销系统在哪登录"}).query, "报销系统 给个链接");
  EXPECT_FALSE(gave(rewrite("单个部门的呢", {"全公司的年度预算是多少"}), "ellipsis:predicate"));
}

// A determiner and its 个 before the parallel item (这个|月 beside 上个月) go with it: the fragment's
// own determiner takes their place, not a place after them (这个上个月的…).
TEST(RewriteRules, AParallelItemTakesItsDeterminerAlong) {
  EXPECT_EQ(rewrite("上个月的呢", {"这个月的加班时长是多少"}).query, "上个月的加班时长是多少");
  EXPECT_EQ(rewrite("下个季度呢", {"这个季度的销售目标是多少"}).query, "下个季度的销售目标是多少");
}

// 不行 answering a question with a modal (可以…吗, 能…吗) says the modal's opposite: a bare why
// asks why not (为什么周末不能加班换调休), never why so (为什么…能加班…).
TEST(RewriteRules, WhyAfterNoAsksWhyNot) {
  EXPECT_EQ(rewrite("为什么", {"周末能加班换调休吗", "不行，调休只能用工作日加班换。"}).query,
            "为什么周末不能加班换调休");
  EXPECT_EQ(rewrite("为啥", {"实习生可以申请住宿补贴吗", "不行。"}).query, "为啥实习生不能申请住宿补贴");
  // The modal is a word: 功能's 能 is none; a question offering both (能不能) and one without a
  // modal (行 of 银行) stay as asked.
  EXPECT_EQ(rewrite("为什么", {"这个功能能关闭吗", "不行。"}).query, "为什么这个功能不能关闭");
  EXPECT_FALSE(has(rewrite("为什么", {"公司电脑能不能装微信", "不行。"}).query, "不能不能"));
  EXPECT_FALSE(has(rewrite("为什么", {"去银行柜台办理吗", "不行。"}).query, "银不行"));
}
