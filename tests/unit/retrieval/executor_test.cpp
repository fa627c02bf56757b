// The plan executor runs exactly what the plan says (docs/evaluation.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "common/utf8.hpp"
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/ranking/embedder.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "support/shipped_kb.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

// The shipped rules (model off) and knowledge base: tests/support/shipped_kb.hpp.
const qaplan::test::ShippedKb& shipped() { return qaplan::test::shipped_kb(); }

qaplan::Preparation prepare(const std::string& q, std::vector<std::string> history = {},
                            std::optional<std::string> source = std::nullopt) {
  auto p = shipped().planner.prepare({q, std::move(history), "", std::move(source)});
  if (!p.ok()) throw std::runtime_error(p.error().to_string());
  return std::move(p).value();
}

qaplan::Execution run(const qaplan::Preparation& p, const qaplan::PlanKnobs& k,
                      const qaplan::ExecutionInputs& in = {}) {
  auto e = qaplan::execute_with_knobs(p, k, shipped().kb, in);
  if (!e.ok()) throw std::runtime_error(e.error().to_string());
  return std::move(e).value();
}

std::size_t chars(const std::string& s) {
  std::size_t i = 0, n = 0;
  while (i < s.size()) {
    qaplan::internal::next_code_point(s, i);
    ++n;
  }
  return n;
}

// A one-chunk document section of `source`.
qaplan::DocChunk doc_chunk(std::string id, std::string parent, std::string source, std::string text) {
  qaplan::DocChunk d;
  d.id = std::move(id);
  d.doc_id = d.parent_id = std::move(parent);
  d.source = std::move(source);
  d.text = std::move(text);
  return d;
}

const qaplan::DocChunk& first_chunk(const qaplan::LegHit& h) {
  return shipped().kb.kb().docs[shipped().kb.section_chunks(h.item).front()];
}

TEST(Executor, DirectAnswerSearchesNothing) {
  const auto p = prepare("你好");
  ASSERT_EQ(p.route.route, qaplan::Route::kDirectAnswer);
  auto e = qaplan::execute_plan(p, shipped().kb);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->hit_type, qaplan::HitType::kDirectAnswer);
  EXPECT_EQ(e->answer, p.route.reply);
  EXPECT_TRUE(e->faq_hits.empty());
  EXPECT_TRUE(e->doc_hits.empty());
  EXPECT_FALSE(e->faq_direct.has_value());
}

TEST(Executor, ExactFaqQuestionIsAnsweredDirectly) {
  const auto& kb = shipped().kb.kb();
  const qaplan::FaqEntry& f = kb.faqs[10];
  const auto p = prepare(f.paraphrases[0]);
  ASSERT_TRUE(p.plan.has_value());
  auto e = qaplan::execute_plan(p, shipped().kb);
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE(e->faq_direct.has_value());
  EXPECT_TRUE(e->faq_direct->exact);
  EXPECT_EQ(e->faq_direct->faq_id, f.id);
  EXPECT_EQ(e->faq_direct->score, 1.0);
  EXPECT_EQ(e->hit_type, qaplan::HitType::kFaqDirect);
  EXPECT_EQ(e->answer, f.answer);
  ASSERT_FALSE(e->contexts.empty());
  EXPECT_EQ(e->contexts.front().id, f.id);
}

TEST(Executor, ThresholdAndExactOnlyDecideDirectAnswers) {
  // Not an FAQ wording: a close paraphrase that is not exactly any question or paraphrase.
  const auto p = prepare("普通员工去一类城市出差，酒店住宿每晚的报销标准是多少钱");
  qaplan::PlanKnobs k = p.plan->knobs();
  k.faq_direct_exact_only = false;
  k.faq_direct_threshold = 0.0;
  auto low = run(p, k);
  ASSERT_TRUE(low.faq_direct && low.faq_direct->has_candidate);
  EXPECT_FALSE(low.faq_direct->exact);
  EXPECT_TRUE(low.faq_direct->answered);
  EXPECT_EQ(low.hit_type, qaplan::HitType::kFaqDirect);
  const double score = low.faq_direct->score;
  EXPECT_GT(score, 0.0);
  EXPECT_LT(score, 1.0);
  // At exactly the score it still answers (>=); just above, it does not.
  k.faq_direct_threshold = score;
  EXPECT_EQ(run(p, k).hit_type, qaplan::HitType::kFaqDirect);
  k.faq_direct_threshold = std::nextafter(score, 2.0);
  EXPECT_NE(run(p, k).hit_type, qaplan::HitType::kFaqDirect);
  // Exact-only never answers a non-exact candidate, even at threshold 0.
  k.faq_direct_threshold = 0.0;
  k.faq_direct_exact_only = true;
  auto exact_only = run(p, k);
  EXPECT_FALSE(exact_only.faq_direct->answered);
  EXPECT_NE(exact_only.hit_type, qaplan::HitType::kFaqDirect);
}

TEST(Executor, RunFlagsAndTopKAreObeyed) {
  const auto p = prepare("年假怎么计算，工作满5年有多少天");
  qaplan::PlanKnobs k = p.plan->knobs();
  k.faq_top_k = 3;
  k.doc_top_k = 2;
  auto e = run(p, k);
  EXPECT_LE(e.faq_hits.size(), 3u);
  EXPECT_LE(e.doc_hits.size(), 2u);
  EXPECT_FALSE(e.faq_hits.empty());
  k.run_faq = false;
  e = run(p, k);
  EXPECT_TRUE(e.faq_hits.empty());
  EXPECT_FALSE(e.faq_direct.has_value());
  EXPECT_FALSE(e.doc_hits.empty());
  k.run_faq = true;
  k.run_doc = false;
  e = run(p, k);
  EXPECT_TRUE(e.doc_hits.empty());
  for (const auto& c : e.contexts) EXPECT_EQ(c.kind, "faq");
}

TEST(Executor, ContextLimitsAndMinScore) {
  const auto p = prepare("差旅住宿标准是怎么规定的，经理和总监分别是多少");
  qaplan::PlanKnobs k = p.plan->knobs();
  k.faq_direct_exact_only = true;  // keep it a RAG answer
  k.min_context_score = 0.0;
  k.final_context_top_n = 3;
  k.max_context_doc_chars = 20;
  k.max_context_chars = 50;
  auto e = run(p, k);
  EXPECT_EQ(e.hit_type, qaplan::HitType::kRag);
  ASSERT_FALSE(e.contexts.empty());
  EXPECT_LE(e.contexts.size(), 3u);
  std::size_t total = 0;
  for (const auto& c : e.contexts) {
    EXPECT_LE(chars(c.text), 20u);
    EXPECT_EQ(c.chars, chars(c.text));
    total += c.chars;
    if (c.kind == "doc") EXPECT_FALSE(c.chunk_ids.empty());
  }
  EXPECT_LE(total, 50u);
  EXPECT_EQ(total, e.context_chars);
  EXPECT_TRUE(e.contexts.front().truncated);
  // Every context item at or above min_context_score; none above 1 → no evidence.
  k.min_context_score = 0.2;
  for (const auto& c : run(p, k).contexts) EXPECT_GE(c.score, 0.2);
  k.min_context_score = 1.0;
  auto none = run(p, k);
  EXPECT_TRUE(none.contexts.empty());
  EXPECT_EQ(none.hit_type, qaplan::HitType::kNoEvidence);
}

TEST(Executor, PreferTablePutsTableRowsFirst) {
  const auto p = prepare("差旅住宿标准表里经理级去二类城市住宿多少钱");
  qaplan::PlanKnobs k = p.plan->knobs();
  k.prefer_table = true;
  auto e = run(p, k);
  bool seen_text = false, table_after_text = false, any_table = false;
  for (const auto& h : e.doc_hits) {
    const bool table = first_chunk(h).kind == qaplan::KbChunkKind::kTableRow;
    any_table |= table;
    table_after_text |= table && seen_text;
    seen_text |= !table;
  }
  EXPECT_TRUE(any_table);
  EXPECT_FALSE(table_after_text);
}

// A host's KB names its own sources: the scope reads them from the KB, not from a fixed list.
TEST(Executor, ScopesAHostsOwnSourceNames) {
  qaplan::KnowledgeBase kb;
  auto faq = [](std::string id, std::string source, std::string q) {
    qaplan::FaqEntry e;
    e.id = std::move(id);
    e.source = std::move(source);
    e.question = std::move(q);
    e.paraphrases = {e.question + "呢"};
    e.answer = "见手册。";
    return e;
  };
  kb.faqs = {faq("c1", "cards", "信用卡年费多少"), faq("c2", "cards", "信用卡怎么激活"),
             faq("l1", "loans", "贷款年费和利率多少"), faq("l2", "loans", "贷款怎么提前还款")};
  kb.docs = {doc_chunk("d1", "manual", "loans", "提前还款需在App中申请。")};
  auto index = qaplan::KbIndex::create(kb);
  ASSERT_TRUE(index.ok()) << index.error().to_string();
  const auto p = prepare("年费多少");
  qaplan::ExecutionInputs in;
  for (const std::string src : {"cards", "loans"}) {
    in.filters.sources = {src};
    auto e = qaplan::execute_with_knobs(p, p.plan->knobs(), *index, in);
    ASSERT_TRUE(e.ok()) << e.error().to_string();
    ASSERT_FALSE(e->faq_hits.empty()) << src;
    for (const auto& h : e->faq_hits) EXPECT_EQ(kb.faqs[h.item].source, src) << h.id;
  }
  in.filters.sources = {"deposits"};  // a source the KB does not hold selects nothing
  auto none = qaplan::execute_with_knobs(p, p.plan->knobs(), *index, in);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->faq_hits.empty());
  in.filters.sources = {};  // no scope: every source
  auto all = qaplan::execute_with_knobs(p, p.plan->knobs(), *index, in);
  ASSERT_TRUE(all.ok());
  std::set<std::string> seen;
  for (const auto& h : all->faq_hits) seen.insert(kb.faqs[h.item].source);
  EXPECT_EQ(seen, (std::set<std::string>{"cards", "loans"}));
}

// A scope qaplan chose that finds nothing is searched again at its fallback's width, and the
// wider result counts only with document evidence or a direct FAQ answer; a host's scope stays.
TEST(Executor, AnEmptyChosenScopeWidensToItsFallback) {
  qaplan::KnowledgeBase kb;
  qaplan::FaqEntry f;
  f.id = "h1";
  f.source = "hr";
  f.question = "年假怎么申请";
  f.answer = "在系统里提交。";
  kb.faqs = {f};
  kb.docs = {doc_chunk("d1", "travel", "finance", "差旅住宿标准按城市等级执行。")};
  auto p = prepare("年假怎么申请呀");
  ASSERT_TRUE(p.plan.has_value());
  p.effective_sources = {"finance"};  // a wrong scope: the answer is hr's
  p.fallback_sources = std::vector<std::string>{};
  qaplan::PlanKnobs k = p.plan->knobs();
  k.faq_direct_exact_only = true;  // not exact: the FAQ can only be context
  auto search = [&](const qaplan::KnowledgeBase& base, const qaplan::ExecutionInputs& in = {}) {
    auto index = qaplan::KbIndex::create(base);
    if (!index.ok()) throw std::runtime_error(index.error().to_string());
    auto e = qaplan::execute_with_knobs(p, k, *index, in);
    if (!e.ok()) throw std::runtime_error(e.error().to_string());
    return std::move(e).value();
  };
  auto has = [](const qaplan::Execution& e, const char* tag) {
    return std::find(e.reasons.begin(), e.reasons.end(), tag) != e.reasons.end();
  };
  // Only an FAQ outside the scope: too weak to replace "no evidence".
  const auto faq_only = search(kb);
  EXPECT_EQ(faq_only.hit_type, qaplan::HitType::kNoEvidence);
  EXPECT_TRUE(has(faq_only, "wider_scope_no_document_evidence"));
  // A document section outside the scope: the widened search answers.
  kb.docs.push_back(doc_chunk("d2", "leave", "hr", "年假申请需提前三天在系统中提交。"));
  const auto wide = search(kb);
  EXPECT_EQ(wide.hit_type, qaplan::HitType::kRag);
  EXPECT_TRUE(has(wide, "scope_widened_after_no_evidence"));
  ASSERT_FALSE(wide.contexts.empty());
  EXPECT_EQ(wide.contexts.front().source, "hr");
  // The host's scope is never widened, nor a scope without a fallback.
  qaplan::ExecutionInputs host;
  host.filters.sources = {"finance"};
  EXPECT_EQ(search(kb, host).hit_type, qaplan::HitType::kNoEvidence);
  p.fallback_sources.reset();
  const auto kept = search(kb);
  EXPECT_EQ(kept.hit_type, qaplan::HitType::kNoEvidence);
  EXPECT_FALSE(has(kept, "scope_widened_after_no_evidence"));
}

TEST(Executor, ScopeAndFiltersRestrictEveryHit) {
  const auto p = prepare("合同审批流程和报销审批有什么区别");
  qaplan::PlanKnobs k = p.plan->knobs();
  qaplan::ExecutionInputs in;
  in.filters.sources = {"legal"};
  auto e = run(p, k, in);
  ASSERT_FALSE(e.doc_hits.empty());
  for (const auto& h : e.doc_hits) EXPECT_EQ(first_chunk(h).source, "legal");
  for (const auto& h : e.faq_hits) EXPECT_EQ(h.id.rfind("faq-leg-", 0), 0u) << h.id;
  // The Preparation's effective source scopes retrieval when no filter overrides it.
  const auto hr = prepare("年假有多少天", {}, "hr");
  ASSERT_EQ(hr.effective_sources, std::vector<std::string>{"hr"});
  auto hr_run = qaplan::execute_plan(hr, shipped().kb);  // kept alive: the loop reads its hits
  ASSERT_TRUE(hr_run.ok());
  ASSERT_FALSE(hr_run->doc_hits.empty());
  for (const auto& h : hr_run->doc_hits) EXPECT_EQ(first_chunk(h).source, "hr");
  // Date range: nothing that ended before 2025-06-01.
  in.filters = {};
  in.filters.date_from = "2025-06-01";
  const auto travel = prepare("出差住宿标准是多少");
  for (const auto& h : run(travel, travel.plan->knobs(), in).doc_hits) {
    const auto& c = first_chunk(h);
    EXPECT_TRUE(!c.effective_to || *c.effective_to >= "2025-06-01") << c.id;
  }
  // Drafts only, department, path prefix, tags.
  in.filters = {};
  in.filters.is_signed = false;
  for (const auto& h : run(p, k, in).doc_hits) EXPECT_FALSE(first_chunk(h).is_signed);
  in.filters = {};
  in.filters.path_prefix = "/finance/";
  in.filters.department = "财务部";
  for (const auto& h : run(travel, travel.plan->knobs(), in).doc_hits) {
    EXPECT_EQ(first_chunk(h).path.rfind("/finance/", 0), 0u);
    EXPECT_EQ(first_chunk(h).department, "财务部");
  }
  in.filters = {};
  in.filters.tags = {"住宿"};
  for (const auto& h : run(travel, travel.plan->knobs(), in).doc_hits) {
    const auto& t = first_chunk(h).tags;
    EXPECT_NE(std::find(t.begin(), t.end(), "住宿"), t.end());
  }
  in.filters = {};
  in.filters.date_to = "2025-13-01";
  EXPECT_FALSE(qaplan::execute_with_knobs(travel, travel.plan->knobs(), shipped().kb, in).ok());
}

// A preference ranks matching sections higher and keeps the others: a wrong guess costs rank,
// never the answer. The same requirement as a hard filter drops every other section.
TEST(Executor, PreferencesRankMatchingSectionsHigherAndKeepTheRest) {
  // Two sources, so sections of several departments answer.
  const auto travel = prepare("合同审批流程和报销审批有什么区别");
  ASSERT_TRUE(travel.effective_sources.empty() || travel.effective_sources.size() > 1);
  const qaplan::PlanKnobs k = travel.plan->knobs();
  const auto plain = run(travel, k);
  ASSERT_GE(plain.doc_hits.size(), 3u);
  // Prefer the department of the best section from another department than the top hit's.
  const std::string top_department = first_chunk(plain.doc_hits.front()).department;
  std::string other;
  for (const auto& h : plain.doc_hits)
    if (first_chunk(h).department != top_department) {
      other = first_chunk(h).department;
      break;
    }
  ASSERT_FALSE(other.empty());
  qaplan::ExecutionInputs hard, soft;
  hard.filters.department = other;
  soft.filters.prefer.department = other;
  const auto required = run(travel, k, hard);
  const auto preferred = run(travel, k, soft);
  auto matches = [&](const qaplan::LegHit& h) { return first_chunk(h).department == other; };
  for (const auto& h : required.doc_hits) EXPECT_TRUE(matches(h));
  // The best section of the unfiltered run is still there (a wrong guess costs rank only) ...
  const std::string best = plain.doc_hits.front().id;
  EXPECT_TRUE(std::any_of(preferred.doc_hits.begin(), preferred.doc_hits.end(),
                          [&](const qaplan::LegHit& h) { return h.id == best; }));
  EXPECT_TRUE(std::none_of(required.doc_hits.begin(), required.doc_hits.end(),
                           [&](const qaplan::LegHit& h) { return h.id == best; }));
  // ... and every matching section ranks at least as high as without the preference, the first
  // of them strictly higher.
  auto rank_in = [](const qaplan::Execution& e, const std::string& id) {
    for (std::size_t i = 0; i < e.doc_hits.size(); ++i)
      if (e.doc_hits[i].id == id) return i;
    return e.doc_hits.size();
  };
  bool first = true;
  for (const auto& h : plain.doc_hits) {
    if (!matches(h)) continue;
    EXPECT_LE(rank_in(preferred, h.id), rank_in(plain, h.id)) << h.id;
    if (first) EXPECT_LT(rank_in(preferred, h.id), rank_in(plain, h.id)) << h.id;
    first = false;
  }
  EXPECT_NE(std::find(preferred.reasons.begin(), preferred.reasons.end(), "doc_preferences_boosted"),
            preferred.reasons.end());
}

TEST(Executor, VariantsOnlyWithUseQueryVariantsAndRewriteIsSearched) {
  const auto p = prepare("那审批呢", {"报销流程是什么"});
  ASSERT_TRUE(p.intent && p.intent->requires_rewrite);
  qaplan::PlanKnobs k = p.plan->knobs();
  qaplan::ExecutionInputs in;
  in.query = "报销审批流程是什么";
  in.variants = {"费用报销需要谁审批", "报销审批流程是什么"};
  k.use_query_variants = false;
  auto e = run(p, k, in);
  EXPECT_EQ(e.query, "报销审批流程是什么");
  EXPECT_TRUE(e.variants.empty());
  k.use_query_variants = true;
  e = run(p, k, in);
  EXPECT_EQ(e.variants, std::vector<std::string>{"费用报销需要谁审批"});  // the duplicate dropped
}

TEST(Executor, AnalysisSuppliesTheRewriteVariantsAndFilters) {
  // Field by field, on a hand-made analysis.
  qaplan::QueryAnalysis a;
  a.rewrite.rewritten = true;
  a.rewrite.query = "差旅住宿标准是多少";
  a.variants = {{"那住宿呢", "original"}, {"差旅住宿标准是多少", "rewrite"},
                {"出差住宿标准是多少", "glossary"}};
  a.filters.time = qaplan::TimeRange{"2025-01-01", "2026-01-01", "去年", "", ""};
  a.filters.department = "财务部";
  a.filters.tags = {"差旅", "住宿"};
  a.filters.path_prefix = "/finance/";
  a.filters.is_signed = true;
  const qaplan::ExecutionInputs in = qaplan::execution_inputs(a);
  ASSERT_TRUE(in.query.has_value());
  EXPECT_EQ(*in.query, "差旅住宿标准是多少");
  EXPECT_EQ(in.variants, std::vector<std::string>{"出差住宿标准是多少"});
  EXPECT_EQ(in.filters.date_from, "2025-01-01");
  EXPECT_EQ(in.filters.date_to, "2026-01-01");
  EXPECT_EQ(in.filters.department, std::optional<std::string>("财务部"));
  EXPECT_EQ(in.filters.tags, (std::vector<std::string>{"差旅", "住宿"}));
  EXPECT_EQ(in.filters.path_prefix, std::optional<std::string>("/finance/"));
  EXPECT_EQ(in.filters.is_signed, std::optional<bool>(true));
  EXPECT_TRUE(in.filters.sources.empty());  // sources stay the Preparation's
  EXPECT_FALSE(in.filters.prefer.any());
  // Preferences (read from words) go to the preferred lists, not the hard filters.
  a.filters.preferred = {"department", "tags"};
  const qaplan::ExecutionInputs soft = qaplan::execution_inputs(a);
  EXPECT_FALSE(soft.filters.department.has_value());
  EXPECT_TRUE(soft.filters.tags.empty());
  EXPECT_EQ(soft.filters.prefer.department, std::optional<std::string>("财务部"));
  EXPECT_EQ(soft.filters.prefer.tags, (std::vector<std::string>{"差旅", "住宿"}));
  EXPECT_EQ(soft.filters.path_prefix, std::optional<std::string>("/finance/"));  // not preferred
  a.filters.preferred.clear();
  a.rewrite.rewritten = false;
  EXPECT_FALSE(qaplan::execution_inputs(a).query.has_value());

  // Tags are all-of, as the analysis sets them: every hit carries both.
  const auto travel = prepare("出差住宿标准是多少");
  qaplan::ExecutionInputs two;
  two.filters.tags = {"差旅", "住宿"};
  const auto e = run(travel, travel.plan->knobs(), two);
  ASSERT_FALSE(e.doc_hits.empty());
  for (const auto& h : e.doc_hits) {
    const auto& t = first_chunk(h).tags;
    EXPECT_NE(std::find(t.begin(), t.end(), "差旅"), t.end());
    EXPECT_NE(std::find(t.begin(), t.end(), "住宿"), t.end());
  }

  // Metadata filters describe documents: a tag no FAQ carries leaves the FAQ leg as it was.
  qaplan::ExecutionInputs odd;
  odd.filters.tags = {"no-such-tag"};
  const auto plain = run(travel, travel.plan->knobs());
  const auto tagged = run(travel, travel.plan->knobs(), odd);
  ASSERT_FALSE(plain.faq_hits.empty());
  ASSERT_EQ(tagged.faq_hits.size(), plain.faq_hits.size());
  for (std::size_t i = 0; i < plain.faq_hits.size(); ++i)
    EXPECT_EQ(tagged.faq_hits[i].id, plain.faq_hits[i].id);
  EXPECT_TRUE(tagged.doc_hits.empty());

  // The real analysis of a follow-up: the executor searches exactly what it says.
  const auto p = prepare("那审批呢", {"报销流程是什么"});
  auto real = shipped().planner.analyze(p);
  ASSERT_TRUE(real.ok()) << real.error().to_string();
  auto x = qaplan::execute_plan(p, *real, shipped().kb);
  ASSERT_TRUE(x.ok()) << x.error().to_string();
  EXPECT_EQ(x->query, real->rewrite.rewritten ? real->rewrite.query : p.normalized.text);
  EXPECT_NE(x->query, p.normalized.text) << "a follow-up is searched as its rewrite";
}

TEST(Executor, RetrievalWithoutPlanIsRefusedAndRunsAreDeterministic) {
  auto p = prepare("报销时限是多少天");
  auto a = qaplan::execute_plan(p, shipped().kb);
  auto b = qaplan::execute_plan(p, shipped().kb);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->hit_type, b->hit_type);
  ASSERT_EQ(a->doc_hits.size(), b->doc_hits.size());
  for (std::size_t i = 0; i < a->doc_hits.size(); ++i) {
    EXPECT_EQ(a->doc_hits[i].id, b->doc_hits[i].id);
    EXPECT_EQ(a->doc_hits[i].fused, b->doc_hits[i].fused);
  }
  p.plan.reset();
  auto bad = qaplan::execute_plan(p, shipped().kb);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, qaplan::ErrorCode::kInvalidInput);
}

TEST(Executor, ExactMatchKeyNormalizes) {
  EXPECT_EQ(qaplan::exact_match_key("年假怎么申请？"), qaplan::exact_match_key("年假 怎么申请"));
  EXPECT_EQ(qaplan::exact_match_key("ＶＰＮ怎么连！"), qaplan::exact_match_key("vpn怎么连"));
  EXPECT_EQ(qaplan::exact_match_key("年假怎麼申請"), qaplan::exact_match_key("年假怎么申请"));
  EXPECT_NE(qaplan::exact_match_key("年假怎么申请"), qaplan::exact_match_key("年假怎么计算"));
  EXPECT_EQ(qaplan::exact_match_key(std::string("\xff")), "");
}

// The executor's cosine is LocalTfidfEmbedder + exact cosine search, computed sparsely.
TEST(Executor, CosineEqualsTheEmbedderAndVectorIndex) {
  const auto& kb = shipped().kb.kb();
  std::vector<std::string> texts;
  for (const auto& c : kb.docs) texts.push_back(c.title + " " + c.section + " " + c.text);
  auto emb = qaplan::LocalTfidfEmbedder::fit(texts);
  ASSERT_TRUE(emb.ok());
  std::vector<std::vector<float>> rows;
  for (const auto& t : texts) rows.push_back(*emb->embed(t));
  auto vi = qaplan::VectorIndex::create(emb->dimensions(), rows);
  ASSERT_TRUE(vi.ok());
  for (const char* q : {"报销时限是多少天", "VPN连不上报错怎么办", "合同审查需要几个工作日"}) {
    SCOPED_TRACE(q);
    const auto p = prepare(q);
    qaplan::PlanKnobs k = p.plan->knobs();
    k.doc_top_k = 300;
    auto e = run(p, k);
    auto exact = vi->search_exact(*emb->embed(p.normalized.text), 0);
    ASSERT_TRUE(exact.ok());
    // Best cosine per section from the reference.
    std::map<std::size_t, double> best;
    for (const auto& h : *exact) {
      const std::size_t s = *shipped().kb.section_of_chunk(kb.docs[h.doc].id);
      best[s] = std::max(best[s], h.score);
    }
    std::size_t checked = 0;
    for (const auto& h : e.doc_hits)
      if (h.cosine > 0) {
        EXPECT_NEAR(h.cosine, best[h.item], 1e-6) << h.id;
        ++checked;
      }
    EXPECT_GT(checked, 3u);
  }
}

}  // namespace
