// eval-chain's metrics: per-question results accumulated into rates, and the metric table that
// names them for gates, baselines and reports.
#include "qaplan/eval/chain_eval.hpp"

#include <algorithm>
#include <cmath>

namespace qaplan {
namespace {

std::optional<double> ratio(double num, std::size_t den) {
  if (den == 0) return std::nullopt;
  return num / static_cast<double>(den);
}

}  // namespace

void accumulate(ChainMetrics& m, const ChainQuestion& q, const ChainResult& r) {
  const auto e = static_cast<std::size_t>(q.expected_hit_type);
  const auto p = static_cast<std::size_t>(r.predicted);
  ++m.questions;
  ++m.expected[e];
  ++m.confusion[e][p];
  m.hit_type_correct += r.hit_type_correct;
  m.errors += !r.error.empty();
  bool positive = false;
  if (q.expected_hit_type == HitType::kFaqDirect && q.expected_faq_id) {
    positive = true;
    ++m.faq_questions;
    for (std::size_t k = 0; k < kChainKs.size(); ++k) {
      const double hit = r.faq_rank && *r.faq_rank <= kChainKs[k] ? 1.0 : 0.0;
      m.faq_hits[k] += hit;
      m.evidence_recall_sum[k] += hit;
    }
    if (r.faq_rank && *r.faq_rank <= 10) m.faq_rr_sum += 1.0 / static_cast<double>(*r.faq_rank);
  } else if (q.expected_hit_type == HitType::kRag && !q.expected_chunk_ids.empty()) {
    positive = true;
    ++m.rag_questions;
    const double n = static_cast<double>(q.expected_chunk_ids.size());
    std::size_t best = 0;
    for (const auto& rank : r.chunk_ranks)
      if (rank && (best == 0 || *rank < best)) best = *rank;
    for (std::size_t k = 0; k < kChainKs.size(); ++k) {
      std::size_t found = 0;
      for (const auto& rank : r.chunk_ranks) found += rank && *rank <= kChainKs[k];
      m.doc_recall_sum[k] += static_cast<double>(found) / n;
      m.evidence_recall_sum[k] += static_cast<double>(found) / n;
    }
    if (best > 0 && best <= 10) m.doc_rr_sum += 1.0 / static_cast<double>(best);
    m.expected_chunks += q.expected_chunk_ids.size();
    m.chunks_in_context += r.chunks_in_context;
  }
  if (positive) {
    ++m.positives;
    if (!q.keywords.empty()) {
      ++m.keyword_questions;
      m.keyword_coverage_sum +=
          static_cast<double>(r.keywords_found) / static_cast<double>(q.keywords.size());
      m.keywords += q.keywords.size();
      m.keywords_found += r.keywords_found;
    }
    m.false_refusals += r.predicted == HitType::kNoEvidence;
  }
  if (r.predicted == HitType::kFaqDirect) {
    ++m.directs;
    m.false_directs += r.false_direct;
  }
  m.missed_directs += r.missed_direct;
  m.scope_questions += r.scope_judged;
  m.wrong_scopes += r.wrong_scope;
  m.no_evidence_answers += r.predicted == HitType::kNoEvidence;
  m.correct_refusals +=
      q.expected_hit_type == HitType::kNoEvidence && r.predicted == HitType::kNoEvidence;
}

std::optional<double> ChainMetrics::hit_type_accuracy() const {
  return ratio(static_cast<double>(hit_type_correct), questions);
}
std::optional<double> ChainMetrics::evidence_recall(std::size_t k) const {
  return ratio(evidence_recall_sum[k], positives);
}
std::optional<double> ChainMetrics::faq_hit(std::size_t k) const {
  return ratio(faq_hits[k], faq_questions);
}
std::optional<double> ChainMetrics::doc_recall(std::size_t k) const {
  return ratio(doc_recall_sum[k], rag_questions);
}
std::optional<double> ChainMetrics::faq_mrr() const { return ratio(faq_rr_sum, faq_questions); }
std::optional<double> ChainMetrics::doc_mrr() const { return ratio(doc_rr_sum, rag_questions); }
std::optional<double> ChainMetrics::evidence_mrr() const {
  return ratio(faq_rr_sum + doc_rr_sum, positives);
}
std::optional<double> ChainMetrics::context_recall() const {
  return ratio(static_cast<double>(chunks_in_context), expected_chunks);
}
std::optional<double> ChainMetrics::keyword_coverage() const {
  return ratio(keyword_coverage_sum, keyword_questions);
}
std::optional<double> ChainMetrics::false_direct_rate() const {
  return ratio(static_cast<double>(false_directs), directs);
}
std::optional<double> ChainMetrics::wrong_scope_rate() const {
  return ratio(static_cast<double>(wrong_scopes), scope_questions);
}
std::optional<double> ChainMetrics::missed_direct_rate() const {
  return ratio(static_cast<double>(missed_directs), expected[1]);
}
std::optional<double> ChainMetrics::no_evidence_rate() const {
  return ratio(static_cast<double>(no_evidence_answers), questions);
}
std::optional<double> ChainMetrics::correct_refusal_rate() const {
  return ratio(static_cast<double>(correct_refusals), expected[3]);
}
std::optional<double> ChainMetrics::false_refusal_rate() const {
  return ratio(static_cast<double>(false_refusals), positives);
}

namespace {

struct MetricDef {
  std::string_view name;
  bool higher_is_better;
  std::optional<double> (*get)(const ChainMetrics&);
};

#define QAPLAN_K_METRIC(prefix, fn, k)                                          \
  MetricDef {                                                                   \
    prefix #k, true, [](const ChainMetrics& m) { return m.fn(k_index(k)); } \
  }

constexpr std::size_t k_index(std::size_t k) {
  for (std::size_t i = 0; i < kChainKs.size(); ++i)
    if (kChainKs[i] == k) return i;
  return 0;
}

const std::vector<MetricDef>& metric_defs() {
  static const std::vector<MetricDef> defs = {
      {"hit_type_accuracy", true, [](const ChainMetrics& m) { return m.hit_type_accuracy(); }},
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 1),
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 3),
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 5),
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 10),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 1),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 3),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 5),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 10),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 1),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 3),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 5),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 10),
      {"evidence_mrr_at_10", true, [](const ChainMetrics& m) { return m.evidence_mrr(); }},
      {"faq_mrr_at_10", true, [](const ChainMetrics& m) { return m.faq_mrr(); }},
      {"doc_mrr_at_10", true, [](const ChainMetrics& m) { return m.doc_mrr(); }},
      {"context_recall", true, [](const ChainMetrics& m) { return m.context_recall(); }},
      {"keyword_coverage", true, [](const ChainMetrics& m) { return m.keyword_coverage(); }},
      {"false_direct_rate", false, [](const ChainMetrics& m) { return m.false_direct_rate(); }},
      {"wrong_scope_rate", false, [](const ChainMetrics& m) { return m.wrong_scope_rate(); }},
      {"missed_direct_rate", false, [](const ChainMetrics& m) { return m.missed_direct_rate(); }},
      {"no_evidence_rate", false, [](const ChainMetrics& m) { return m.no_evidence_rate(); }},
      {"correct_refusal_rate", true,
       [](const ChainMetrics& m) { return m.correct_refusal_rate(); }},
      {"false_refusal_rate", false, [](const ChainMetrics& m) { return m.false_refusal_rate(); }},
  };
  return defs;
}
#undef QAPLAN_K_METRIC

}  // namespace

std::optional<double> ChainMetrics::get(std::string_view name) const {
  for (const MetricDef& d : metric_defs())
    if (d.name == name) return d.get(*this);
  return std::nullopt;
}

std::optional<bool> metric_higher_is_better(std::string_view name) {
  for (const MetricDef& d : metric_defs())
    if (d.name == name) return d.higher_is_better;
  return std::nullopt;
}

}  // namespace qaplan
