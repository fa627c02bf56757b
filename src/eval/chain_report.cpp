// eval-chain's report: report.json, report.md and the SVG charts of one run.
#include "qaplan/eval/chain_eval.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"
#include "common/percentile.hpp"
#include "common/sha256.hpp"
#include "eval/report_util.hpp"
#include "eval/svg.hpp"
#include "qaplan/io.hpp"
#include "qaplan/version.hpp"

namespace qaplan {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using internal::cell;
using internal::count_text;
using internal::pct_of;
using internal::rate_text;

}  // namespace

namespace {

using internal::opt_num;

ordered_json metrics_json(const ChainMetrics& m) {
  ordered_json j;
  j["questions"] = m.questions;
  ordered_json exp = ordered_json::object();
  for (std::size_t i = 0; i < 4; ++i) exp[std::string(to_string(static_cast<HitType>(i)))] = m.expected[i];
  j["expected"] = std::move(exp);
  j["hit_type_accuracy"] = opt_num(m.hit_type_accuracy());
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    j["evidence_recall_at_" + std::to_string(kChainKs[k])] = opt_num(m.evidence_recall(k));
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    j["faq_hit_at_" + std::to_string(kChainKs[k])] = opt_num(m.faq_hit(k));
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    j["doc_recall_at_" + std::to_string(kChainKs[k])] = opt_num(m.doc_recall(k));
  j["evidence_mrr_at_10"] = opt_num(m.evidence_mrr());
  j["faq_mrr_at_10"] = opt_num(m.faq_mrr());
  j["doc_mrr_at_10"] = opt_num(m.doc_mrr());
  j["context_recall"] = opt_num(m.context_recall());
  j["keyword_coverage"] = opt_num(m.keyword_coverage());
  j["false_direct_rate"] = opt_num(m.false_direct_rate());
  j["wrong_scope_rate"] = opt_num(m.wrong_scope_rate());
  j["missed_direct_rate"] = opt_num(m.missed_direct_rate());
  j["no_evidence_rate"] = opt_num(m.no_evidence_rate());
  j["correct_refusal_rate"] = opt_num(m.correct_refusal_rate());
  j["false_refusal_rate"] = opt_num(m.false_refusal_rate());
  ordered_json conf = ordered_json::object();
  for (std::size_t e = 0; e < 4; ++e) {
    ordered_json row = ordered_json::object();
    for (std::size_t p = 0; p < 4; ++p)
      row[std::string(to_string(static_cast<HitType>(p)))] = m.confusion[e][p];
    conf[std::string(to_string(static_cast<HitType>(e)))] = std::move(row);
  }
  j["confusion"] = std::move(conf);
  j["counts"] = {{"hit_type_correct", m.hit_type_correct},
                 {"positives", m.positives},
                 {"faq_direct_questions", m.faq_questions},
                 {"rag_questions_with_chunks", m.rag_questions},
                 {"expected_chunks", m.expected_chunks},
                 {"expected_chunks_in_context", m.chunks_in_context},
                 {"keyword_questions", m.keyword_questions},
                 {"keywords", m.keywords},
                 {"keywords_found", m.keywords_found},
                 {"direct_answers", m.directs},
                 {"false_direct_answers", m.false_directs},
                 {"missed_direct_answers", m.missed_directs},
                 {"scope_questions", m.scope_questions},
                 {"wrong_scopes", m.wrong_scopes},
                 {"no_evidence_answers", m.no_evidence_answers},
                 {"correct_refusals", m.correct_refusals},
                 {"false_refusals", m.false_refusals},
                 {"errors", m.errors}};
  return j;
}

ordered_json hit_json(const LegHit& h) {
  return {{"id", h.id},
          {"fused", h.fused},
          {"cosine", h.cosine},
          {"bm25", h.bm25 ? ordered_json(*h.bm25) : ordered_json(nullptr)},
          {"cosine_rank", h.cosine_rank ? ordered_json(*h.cosine_rank) : ordered_json(nullptr)},
          {"bm25_rank", h.bm25_rank ? ordered_json(*h.bm25_rank) : ordered_json(nullptr)}};
}

ordered_json result_json(const ChainQuestion& q, const ChainResult& r) {
  const Execution& e = r.execution;
  ordered_json j;
  j["id"] = q.id;
  j["split"] = std::string(to_string(q.split));
  j["question"] = q.question;
  j["history"] = q.history;
  j["expected"] = {{"hit_type", std::string(to_string(q.expected_hit_type))},
                   {"faq_id", q.expected_faq_id ? ordered_json(*q.expected_faq_id) : ordered_json(nullptr)},
                   {"chunk_ids", q.expected_chunk_ids},
                   {"keywords", q.keywords},
                   {"category", std::string(to_string(q.category))},
                   {"prefer_table", q.prefer_table}};
  j["route"] = r.route;
  j["route_reason"] = r.route_reason;
  j["intent"] = r.intent;
  j["decision_policy"] = r.decision_policy;
  j["decision_score"] = r.decision_score;
  j["plan_reason"] = r.plan_reason;
  j["predicted_category"] = r.predicted_category;
  j["threshold_band"] = r.band.id;
  j["effective_sources"] = r.effective_sources;
  {
    const ExecutionFilters& f = r.filters;
    ordered_json fj = ordered_json::object();
    if (!f.date_from.empty()) fj["date_from"] = f.date_from;
    if (!f.date_to.empty()) fj["date_to"] = f.date_to;
    if (f.department) fj["department"] = *f.department;
    if (!f.tags.empty()) fj["tags"] = f.tags;
    if (f.path_prefix) fj["path_prefix"] = *f.path_prefix;
    if (f.is_signed) fj["is_signed"] = *f.is_signed;
    j["filters"] = std::move(fj);
  }
  j["query"] = e.query;
  j["rewrite"] = r.rewrite ? ordered_json(*r.rewrite) : ordered_json(nullptr);
  j["rewrite_by"] = r.rewrite ? ordered_json(r.rewrite_by) : ordered_json(nullptr);
  j["error"] = r.error.empty() ? ordered_json(nullptr) : ordered_json(r.error);
  j["hit_type"] = std::string(to_string(r.predicted));
  j["hit_type_correct"] = r.hit_type_correct;
  j["reasons"] = e.reasons;
  if (e.faq_direct) {
    const FaqDirectDecision& d = *e.faq_direct;
    j["faq_direct"] = {{"candidate", d.has_candidate ? ordered_json(d.faq_id) : ordered_json(nullptr)},
                       {"score", d.score},
                       {"exact", d.exact},
                       {"threshold", d.threshold},
                       {"exact_only", d.exact_only},
                       {"answered", d.answered}};
  } else {
    j["faq_direct"] = nullptr;
  }
  ordered_json fh = ordered_json::array(), dh = ordered_json::array(), ctx = ordered_json::array();
  for (std::size_t i = 0; i < e.faq_hits.size() && i < 5; ++i) fh.push_back(hit_json(e.faq_hits[i]));
  for (std::size_t i = 0; i < e.doc_hits.size() && i < 5; ++i) dh.push_back(hit_json(e.doc_hits[i]));
  for (const ContextItem& c : e.contexts)
    ctx.push_back({{"kind", c.kind},
                   {"id", c.id},
                   {"chunk_ids", c.chunk_ids},
                   {"score", c.score},
                   {"chars", c.chars},
                   {"truncated", c.truncated}});
  j["faq_hits"] = std::move(fh);
  j["doc_hits"] = std::move(dh);
  j["contexts"] = std::move(ctx);
  j["faq_rank"] = r.faq_rank ? ordered_json(*r.faq_rank) : ordered_json(nullptr);
  ordered_json ranks = ordered_json::array();
  for (const auto& x : r.chunk_ranks) ranks.push_back(x ? ordered_json(*x) : ordered_json(nullptr));
  j["chunk_ranks"] = std::move(ranks);
  j["chunks_in_context"] = r.chunks_in_context;
  j["keywords_found"] = r.keywords_found;
  j["false_direct"] = r.false_direct;
  j["wrong_scope"] = r.wrong_scope;
  j["missed_direct"] = r.missed_direct;
  j["timing"] = {{"prepare_us", static_cast<double>(r.prepare_ns) / 1e3},
                 {"analyze_us", static_cast<double>(r.analyze_ns) / 1e3},
                 {"execute_us", static_cast<double>(e.timings.total_ns) / 1e3}};
  return j;
}

struct StageSamples {
  std::string name;
  std::vector<double> us;
};

std::vector<StageSamples> stage_samples(const ChainReport& r) {
  std::vector<StageSamples> s = {{"prepare", {}}, {"analyze", {}}, {"query", {}},
                                 {"faq", {}},     {"doc", {}},     {"context", {}},
                                 {"execute", {}}, {"chain", {}}};
  for (const ChainResult& x : r.results) {
    if (!x.error.empty()) continue;
    const ExecutionTimings& t = x.execution.timings;
    const bool retrieval = x.route == "retrieval";
    s[0].us.push_back(static_cast<double>(x.prepare_ns) / 1e3);
    if (retrieval) {
      s[1].us.push_back(static_cast<double>(x.analyze_ns) / 1e3);
      s[2].us.push_back(static_cast<double>(t.query_ns) / 1e3);
      s[3].us.push_back(static_cast<double>(t.faq_ns) / 1e3);
      s[4].us.push_back(static_cast<double>(t.doc_ns) / 1e3);
      s[5].us.push_back(static_cast<double>(t.context_ns) / 1e3);
      s[6].us.push_back(static_cast<double>(t.total_ns) / 1e3);
    }
    s[7].us.push_back(static_cast<double>(x.prepare_ns + x.analyze_ns + t.total_ns) / 1e3);
  }
  return s;
}

const char* kDefinitions[][2] = {
    {"hit-type accuracy", "questions whose hit type equals the expected one (faq_direct also needs the expected FAQ) / questions"},
    {"positive", "a question whose expected hit type is faq_direct, or rag with expected chunks"},
    {"evidence recall@k", "per positive: faq_direct → 1 if the expected FAQ is among the first k FAQ hits; rag → expected chunks whose section is among the first k document hits / expected chunks; averaged over positives"},
    {"FAQ hit@k", "faq_direct questions whose expected FAQ is among the first k FAQ hits / faq_direct questions"},
    {"document recall@k", "the rag half of evidence recall@k, averaged over rag questions with expected chunks"},
    {"MRR@10", "1 / rank of the expected FAQ (faq_direct) or of the first expected section (rag) within the first 10 hits, else 0; averaged"},
    {"context recall", "expected chunks that reached the final context / expected chunks (rag questions)"},
    {"keyword coverage", "keywords found verbatim in the answer or context texts / keywords, averaged over positives with keywords"},
    {"false-direct rate", "FAQ answers given directly that are wrong (not a faq_direct question, or another FAQ) / FAQ answers given directly"},
    {"missed-direct rate", "faq_direct questions not answered directly / faq_direct questions"},
    {"no-evidence rate", "questions answered no_evidence / questions"},
    {"correct refusals", "no_evidence questions answered no_evidence / no_evidence questions"},
    {"false refusals", "positives answered no_evidence / positives"},
    {"latency", "nearest-rank p50 / p95 of per-question wall time in µs, one thread; prepare = Planner::prepare, analyze = Planner::analyze, execute = execute_plan (query, faq, doc, context stages), chain = all three"},
};

}  // namespace

std::string chain_report_json(const ChainReport& r, bool pretty) {
  ordered_json j;
  j["schema_version"] = 1;
  j["report"] = "qaplan core-chain evaluation";
  j["qaplan_version"] = QAPLAN_VERSION_STRING;
  j["dataset"] = {{"name", r.dataset_name}, {"version", r.dataset_version}, {"sha256", r.dataset_sha256}};
  j["knowledge_base"] = {{"version", r.kb_version},
                         {"faq_sha256", r.kb_faq_sha256},
                         {"docs_sha256", r.kb_docs_sha256},
                         {"faqs", r.kb_faqs},
                         {"chunks", r.kb_chunks},
                         {"sections", r.kb_sections}};
  j["vectors"] = {{"model", "local-tfidf"},
                  {"faq_dimensions", r.faq_dimensions},
                  {"doc_dimensions", r.doc_dimensions},
                  {"note", "built-in offline TF-IDF embedder fitted on each collection; exact "
                           "sparse cosine; a lexical proxy, not a semantic embedding"}};
  j["config"] = {{"origin", r.config_origin}, {"sha256", r.config_sha256}, {"model", r.model}};
  j["eval_config"] = {{"name", r.eval_config_name}, {"sha256", r.eval_config_sha256}};
  j["analysis"] = "Planner::analyze: a follow-up is searched as its rewrite; variants and filters "
                 "as the analysis gives them (no `now`: relative dates set no filter)";
  ordered_json defs = ordered_json::object();
  for (const auto& d : kDefinitions) defs[d[0]] = d[1];
  j["definitions"] = std::move(defs);
  j["metrics"] = {{"test", metrics_json(r.test)}, {"dev", metrics_json(r.dev)}, {"all", metrics_json(r.all)}};
  ordered_json cats = ordered_json::object();
  for (const auto& [c, m] : r.test_by_category) cats[c] = metrics_json(m);
  ordered_json cats_all = ordered_json::object();
  for (const auto& [c, m] : r.all_by_category) cats_all[c] = metrics_json(m);
  j["by_category"] = {{"test", std::move(cats)}, {"all", std::move(cats_all)}};
  nlohmann::json turns, turns_all;
  for (const auto& [t, m] : r.test_by_turn) turns[t] = metrics_json(m);
  for (const auto& [t, m] : r.all_by_turn) turns_all[t] = metrics_json(m);
  j["by_turn"] = {{"test", std::move(turns)}, {"all", std::move(turns_all)}};
  ordered_json reg = ordered_json::array();
  for (const RegressionCheck& c : r.regression)
    reg.push_back({{"metric", c.name},
                   {"baseline", c.baseline},
                   {"tolerance", c.tolerance},
                   {"current", opt_num(c.current)},
                   {"higher_is_better", c.higher_is_better},
                   {"regressed", c.regressed}});
  j["regression"] = {{"baseline", r.baseline_key},
                     {"gated", r.regression_note.empty()},
                     {"failed", r.regression_failed},
                     {"checks", std::move(reg)}};
  if (!r.regression_note.empty()) j["regression"]["note"] = r.regression_note;
  ordered_json wi = ordered_json::array();
  for (const WhatIf& w : r.what_ifs)
    wi.push_back({{"parameter", w.parameter},
                  {"from", w.from},
                  {"to", w.to},
                  {"dev", metrics_json(w.dev)},
                  {"test", metrics_json(w.test)}});
  j["what_if"] = std::move(wi);
  ordered_json qs = ordered_json::array();
  for (const ChainResult& res : r.results) qs.push_back(result_json(r.set->questions[res.question], res));
  j["questions"] = std::move(qs);
  ordered_json lat = ordered_json::object();
  for (const StageSamples& s : stage_samples(r))
    lat[s.name] = {{"samples", s.us.size()},
                   {"p50_us", opt_num(internal::nearest_rank_percentile(s.us, 50))},
                   {"p95_us", opt_num(internal::nearest_rank_percentile(s.us, 95))}};
  j["timing"] = {{"stages", std::move(lat)}, {"total_ms", r.total_ms}};
  return j.dump(pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::strict) + "\n";
}

namespace {

// The title, what was run and on what: dataset, knowledge base, vectors, config, analysis.
void chain_md_header(const ChainReport& r, std::string& md) {
  md += "# Core-chain evaluation — " + r.dataset_version + " on " + r.kb_version + "\n\n";
  md += "Every labelled question goes through `Planner::prepare` (route → intent → plan) and "
        "`execute_plan` over the knowledge base (FAQ and document collections, BM25 + local-tfidf "
        "cosine + RRF, FAQ direct answers, context limits); the outcome is judged against its "
        "labels. Definitions are at the end.\n\n";
  md += "| | |\n|---|---|\n";
  md += "| dataset | `" + cell(r.dataset_name) + "` (" + r.dataset_version + ", SHA-256 `" +
        r.dataset_sha256.substr(0, 16) + "…`), " + std::to_string(r.all.questions) +
        " questions: " + std::to_string(r.dev.questions) + " dev, " +
        std::to_string(r.test.questions) + " test |\n";
  md += "| knowledge base | " + r.kb_version + ": " + std::to_string(r.kb_faqs) + " FAQs, " +
        std::to_string(r.kb_chunks) + " chunks in " + std::to_string(r.kb_sections) +
        " sections (faq SHA-256 `" + r.kb_faq_sha256.substr(0, 16) + "…`, docs `" +
        r.kb_docs_sha256.substr(0, 16) + "…`) |\n";
  md += "| vectors | `local-tfidf`, the built-in offline TF-IDF embedder (" +
        std::to_string(r.faq_dimensions) + " FAQ / " + std::to_string(r.doc_dimensions) +
        " document dimensions), exact cosine: a lexical proxy, not a semantic embedding |\n";
  md += "| config | `" + cell(r.config_origin) + "` (SHA-256 `" + r.config_sha256.substr(0, 16) +
        "…`), model " + cell(r.model) + " |\n";
  md += "| analysis | `Planner::analyze` on every retrieval question: a follow-up is searched as "
        "its rewrite, with the variants and filters the analysis derives (no `now` is given, so "
        "relative dates set no filter) |\n\n";
}

// Every metric on test, dev and all.
void chain_md_summary(const ChainReport& r, std::string& md) {
  auto row = [&](const std::string& label, auto&& f) {
    md += "| " + label + " | " + f(r.test) + " | " + f(r.dev) + " | " + f(r.all) + " |\n";
  };
  md += "## Summary\n\n| metric | test | dev | all |\n|---|---|---|---|\n";
  row("hit-type accuracy", [](const ChainMetrics& m) {
    return rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions);
  });
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    row("evidence recall@" + std::to_string(kChainKs[k]), [k](const ChainMetrics& m) {
      return pct_of(m.evidence_recall(k), m.positives, "positives");
    });
  for (std::size_t k : {std::size_t{0}, std::size_t{2}})
    row("FAQ hit@" + std::to_string(kChainKs[k]), [k](const ChainMetrics& m) {
      return rate_text(m.faq_hit(k), static_cast<std::size_t>(m.faq_hits[k]), m.faq_questions);
    });
  for (std::size_t k : {std::size_t{0}, std::size_t{2}})
    row("document recall@" + std::to_string(kChainKs[k]), [k](const ChainMetrics& m) {
      return pct_of(m.doc_recall(k), m.rag_questions, "rag questions");
    });
  row("MRR@10 (FAQ / documents)", [](const ChainMetrics& m) {
    return internal::num_or(m.faq_mrr(), "%.3f") + " / " + internal::num_or(m.doc_mrr(), "%.3f") +
           " (" + std::to_string(m.faq_questions) + " / " + std::to_string(m.rag_questions) + ")";
  });
  row("wrong scope (evidence outside the searched sources)", [](const ChainMetrics& m) {
    return rate_text(m.wrong_scope_rate(), m.wrong_scopes, m.scope_questions);
  });
  row("context recall", [](const ChainMetrics& m) {
    return rate_text(m.context_recall(), m.chunks_in_context, m.expected_chunks);
  });
  row("keyword coverage", [](const ChainMetrics& m) {
    return pct_of(m.keyword_coverage(), m.keyword_questions, "questions") + ", " +
           count_text(m.keywords_found, m.keywords) + " keywords";
  });
  row("false-direct rate", [](const ChainMetrics& m) {
    return rate_text(m.false_direct_rate(), m.false_directs, m.directs);
  });
  row("missed-direct rate", [](const ChainMetrics& m) {
    return rate_text(m.missed_direct_rate(), m.missed_directs, m.expected[1]);
  });
  row("no-evidence rate", [](const ChainMetrics& m) {
    return rate_text(m.no_evidence_rate(), m.no_evidence_answers, m.questions);
  });
  row("correct refusals", [](const ChainMetrics& m) {
    return rate_text(m.correct_refusal_rate(), m.correct_refusals, m.expected[3]);
  });
  row("false refusals", [](const ChainMetrics& m) {
    return rate_text(m.false_refusal_rate(), m.false_refusals, m.positives);
  });
  md += "\n";
}

// The gated metrics against their baseline.
void chain_md_regression(const ChainReport& r, std::string& md) {
  md += "## Regression gate (" + std::string(r.regression.empty() ? "none" : "test split") + ")\n\n";
  if (!r.regression_note.empty()) {
    md += "Not gated: " + cell(r.regression_note) + ".\n\n";
  } else if (r.regression.empty()) {
    md += "No metric is gated.\n\n";
  } else {
    md += std::string("Baseline and tolerances from `") + cell(r.eval_config_name) +
          "` (baseline `" + cell(r.baseline_key) + "`: measured with router model " +
          cell(r.model) + "); a metric regresses when it is worse than the baseline by more than its tolerance. "
          "Result: **" + (r.regression_failed ? "FAILED" : "passed") + "**.\n\n";
    md += "| metric | baseline | tolerance | current | better | status |\n|---|---|---|---|---|---|\n";
    for (const RegressionCheck& c : r.regression)
      md += "| " + c.name + " | " + internal::num_text(c.baseline) + " | " +
            internal::num_text(c.tolerance) + " | " + internal::num_or(c.current, "%.4f") + " | " +
            (c.higher_is_better ? "higher" : "lower") + " | " +
            (c.regressed ? "**regressed**" : "ok") + " |\n";
    md += "\n";
  }
}

// The confusion of expected and predicted hit types.
void chain_md_hit_types(const ChainReport& r, std::string& md) {
  md += "## Hit types (test)\n\nRows: expected; columns: what the chain did.\n\n"
        "| expected \\ got | direct_answer | faq_direct | rag | no_evidence | total |\n"
        "|---|---|---|---|---|---|\n";
  for (std::size_t e = 0; e < 4; ++e) {
    md += "| " + std::string(to_string(static_cast<HitType>(e)));
    for (std::size_t p = 0; p < 4; ++p) md += " | " + std::to_string(r.test.confusion[e][p]);
    md += " | " + std::to_string(r.test.expected[e]) + " |\n";
  }
  md += "\n";
}

// Evidence recall per category.
void chain_md_by_category(const ChainReport& r, std::string& md) {
  md += "## Evidence recall by category (test)\n\n![evidence recall@k by category](recall-by-category.svg)\n\n";
  md += "| category | positives | recall@1 | recall@3 | recall@5 | recall@10 | hit-type accuracy |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const auto& [c, m] : r.test_by_category) {
    md += "| " + c + " | " + std::to_string(m.positives);
    for (std::size_t k = 0; k < kChainKs.size(); ++k)
      md += " | " + internal::pct_or(m.evidence_recall(k));
    md += " | " + rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions) + " |\n";
  }
  md += "\n";
}

// Follow-ups against single turns.
void chain_md_by_turn(const ChainReport& r, std::string& md) {
  md += "## Follow-ups and single turns (test)\n\nA follow-up (a question with history) is searched "
        "as its rewrite; this is the rewrite's effect on the whole chain.\n\n"
        "| turn | questions | positives | recall@1 | recall@5 | recall@10 | hit-type accuracy |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const auto& [t, m] : r.test_by_turn) {
    md += "| " + t + " | " + std::to_string(m.questions) + " | " + std::to_string(m.positives);
    for (std::size_t k : {std::size_t{0}, std::size_t{2}, std::size_t{3}})
      md += " | " + internal::pct_or(m.evidence_recall(k));
    md += " | " + rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions) + " |\n";
  }
  md += "\n";
}

// FAQ direct answers per threshold band.
void chain_md_bands(const ChainReport& r, std::string& md) {
  // FAQ direct answers per threshold band.
  struct BandRow {
    double threshold = 0;
    std::size_t questions = 0, directs = 0, false_directs = 0, expected = 0, missed = 0;
  };
  std::map<std::string, BandRow> bands;
  for (const ChainResult& x : r.results) {
    const ChainQuestion& q = r.set->questions[x.question];
    if (q.split != Split::kTest || x.route != "retrieval" || x.band.id.empty()) continue;
    BandRow& b = bands[x.band.id];
    b.threshold = x.band.value;
    ++b.questions;
    b.directs += x.predicted == HitType::kFaqDirect;
    b.false_directs += x.false_direct;
    b.expected += q.expected_hit_type == HitType::kFaqDirect;
    b.missed += x.missed_direct;
  }
  md += "## FAQ direct answers by threshold band (test)\n\nA band is the config key that set the "
        "plan's `faq_direct_threshold` (`exact_only`: plans that only answer exact matches).\n\n"
        "| band | threshold | retrieval questions | direct answers | false directs | faq_direct "
        "questions | missed |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [id, b] : bands)
    md += "| " + id + " | " + (id == "exact_only" ? std::string("exact match") : internal::num_text(b.threshold)) +
          " | " + std::to_string(b.questions) + " | " + std::to_string(b.directs) + " | " +
          count_text(b.false_directs, b.directs) + " | " + std::to_string(b.expected) + " | " +
          count_text(b.missed, b.expected) + " |\n";
  md += "\n";
}

// The same questions with one default changed.
void chain_md_what_ifs(const ChainReport& r, std::string& md) {
  md += "## What-ifs (the first step against missing evidence: widen the pool)\n\nThe same questions with "
        "one default changed (a new Planner from an edited copy of the config).\n\n"
        "| change | split | evidence recall@5 | context recall | keyword coverage | hit-type accuracy |\n"
        "|---|---|---|---|---|---|\n";
  auto wrow = [&](const std::string& change, const char* split, const ChainMetrics& m) {
    md += "| " + change + " | " + split + " | " + pct_of(m.evidence_recall(2), m.positives, "positives") +
          " | " + rate_text(m.context_recall(), m.chunks_in_context, m.expected_chunks) + " | " +
          pct_of(m.keyword_coverage(), m.keyword_questions, "questions") + " | " +
          rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions) + " |\n";
  };
  wrow("current config", "test", r.test);
  for (const WhatIf& w : r.what_ifs)
    wrow("`" + w.parameter + "` " + internal::num_text(w.from) + " → " + internal::num_text(w.to),
         "test", w.test);
  md += "\n";
}

// Per-stage latency percentiles.
void chain_md_latency(const ChainReport& r, std::string& md) {
  md += "## Latency (timing: differs between runs)\n\n![latency distribution](latency.svg)\n\n"
        "| stage | samples | p50 µs | p95 µs |\n|---|---|---|---|\n";
  for (const StageSamples& s : stage_samples(r))
    md += "| " + s.name + " | " + std::to_string(s.us.size()) + " | " +
          internal::num_or(internal::nearest_rank_percentile(s.us, 50), "%.1f") + " | " +
          internal::num_or(internal::nearest_rank_percentile(s.us, 95), "%.1f") + " |\n";
  md += "\n";
}

// Every test question with a wrong hit type.
void chain_md_wrong(const ChainReport& r, std::string& md) {
  md += "## Wrong outcomes (test)\n\n";
  std::string rows;
  std::size_t wrong = 0;
  for (const ChainResult& x : r.results) {
    const ChainQuestion& q = r.set->questions[x.question];
    if (q.split != Split::kTest || x.hit_type_correct) continue;
    ++wrong;
    std::string detail;
    if (!x.error.empty()) detail = x.error;
    if (x.execution.faq_direct && x.execution.faq_direct->has_candidate) {
      const FaqDirectDecision& d = *x.execution.faq_direct;
      detail += "FAQ " + d.faq_id + " score " + internal::num_text(d.score) +
                (d.exact_only ? " (exact only)" : " vs " + internal::num_text(d.threshold));
    }
    if (q.expected_faq_id) detail += "; expected " + *q.expected_faq_id;
    rows += "| " + q.id + " | " + cell(q.question) + " | " + std::string(to_string(q.expected_hit_type)) +
            " | " + std::string(to_string(x.predicted)) + " | " + cell(x.plan_reason.empty() ? x.route_reason : x.plan_reason) +
            " | " + cell(detail) + " |\n";
  }
  if (wrong == 0) {
    md += "None.\n\n";
  } else {
    md += std::to_string(wrong) + " of " + std::to_string(r.test.questions) + " test questions.\n\n"
          "| id | question | expected | got | plan reason | FAQ decision |\n|---|---|---|---|---|---|\n" +
          rows + "\n";
  }
}

// What each metric means.
void chain_md_definitions(const ChainReport& /*r*/, std::string& md) {
  md += "## Definitions\n\n";
  for (const auto& d : kDefinitions) md += "- **" + std::string(d[0]) + "**: " + d[1] + ".\n";
  md += "- Rates show their counts as (numerator/denominator); averages show how many questions "
        "they average over (n = …); \"n/a\" means the denominator is 0.\n";
}

}  // namespace

std::string chain_report_markdown(const ChainReport& r) {
  std::string md;
  for (auto* section : {chain_md_header, chain_md_summary, chain_md_regression, chain_md_hit_types,
                        chain_md_by_category, chain_md_by_turn, chain_md_bands, chain_md_what_ifs,
                        chain_md_latency, chain_md_wrong, chain_md_definitions})
    section(r, md);
  return md;
}

std::vector<std::pair<std::string, std::string>> chain_report_charts(const ChainReport& r) {
  BarChart bars;
  bars.title = "Evidence recall@k by category (test, " + r.dataset_version + ")";
  bars.y_label = "evidence recall";
  bars.y_max = 1.0;
  for (std::size_t k : kChainKs) bars.series.push_back("recall@" + std::to_string(k));
  for (const auto& [c, m] : r.test_by_category) {
    if (m.positives == 0) continue;
    BarChart::Group g;
    g.label = c;
    g.note = "n = " + std::to_string(m.positives);
    for (std::size_t k = 0; k < kChainKs.size(); ++k) g.values.push_back(m.evidence_recall(k).value_or(NAN));
    bars.groups.push_back(std::move(g));
  }
  LineChart lat;
  lat.title = "Latency distribution per question (all " + std::to_string(r.all.questions) + " questions)";
  lat.x_label = "microseconds (one thread)";
  lat.y_label = "share of questions at or below";
  lat.y_min = 0;
  lat.y_max = 1;
  for (const StageSamples& s : stage_samples(r)) {
    if (s.name != "prepare" && s.name != "analyze" && s.name != "execute" && s.name != "chain")
      continue;
    std::vector<double> v = s.us;
    std::sort(v.begin(), v.end());
    ChartSeries ser;
    ser.name = s.name + " (n = " + std::to_string(v.size()) + ")";
    ser.step = true;
    for (std::size_t i = 0; i < v.size(); ++i)
      ser.points.emplace_back(v[i], static_cast<double>(i + 1) / static_cast<double>(v.size()));
    lat.series.push_back(std::move(ser));
  }
  // A few slow outliers would squash the body of the distribution: the axis ends at twice the
  // chain's p95 (slower questions sit on the right edge).
  for (const StageSamples& s : stage_samples(r))
    if (s.name == "chain")
      if (auto p95 = internal::nearest_rank_percentile(s.us, 95)) {
        lat.x_max = 2 * *p95;
        lat.x_label = "microseconds per question, one thread (axis cut at 2 × chain p95 = " +
                      internal::num_or(2 * *p95, "%.0f") + " µs)";
      }
  lat.x_min = 0;
  return {{"recall-by-category.svg", render_bar_chart(bars)}, {"latency.svg", render_line_chart(lat)}};
}

}  // namespace qaplan
