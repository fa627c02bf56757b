#include "qaplan/eval/metrics.hpp"

#include "common/percentile.hpp"

#include <algorithm>
#include <cmath>

namespace qaplan {
namespace {

// Distinct relevant sections among `hits` (at most a handful, so a small bitmap is enough).
std::size_t distinct_sections(std::span<const JudgedHit> hits, std::size_t relevant_sections,
                              const std::vector<bool>* mask) {
  std::vector<bool> seen(relevant_sections, false);
  std::size_t n = 0;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (mask != nullptr && !(*mask)[i]) continue;
    const int s = hits[i].relevant_section;
    if (s < 0 || static_cast<std::size_t>(s) >= relevant_sections) continue;
    if (!seen[static_cast<std::size_t>(s)]) {
      seen[static_cast<std::size_t>(s)] = true;
      ++n;
    }
  }
  return n;
}

bool is_relevant(const JudgedHit& h, std::size_t relevant_sections) {
  return h.relevant_section >= 0 &&
         static_cast<std::size_t>(h.relevant_section) < relevant_sections;
}

std::optional<double> ratio(std::size_t num, std::size_t den) {
  if (den == 0) return std::nullopt;
  return static_cast<double>(num) / static_cast<double>(den);
}

}  // namespace

QueryOutcome evaluate_query(const JudgedQuery& query, double threshold) {
  QueryOutcome o;
  o.positive = query.positive();
  o.relevant_sections = query.relevant_sections;
  const std::size_t top = std::min(kReturnedTopK, query.ranking.size());
  const std::span<const JudgedHit> top_hits(query.ranking.data(), top);
  o.raw_sections_at_1 = distinct_sections(top_hits.first(std::min<std::size_t>(1, top)),
                                          query.relevant_sections, nullptr);
  o.raw_sections_at_3 = distinct_sections(top_hits, query.relevant_sections, nullptr);
  o.accepted.assign(top, false);
  for (std::size_t i = 0; i < top; ++i) {
    const JudgedHit& h = top_hits[i];
    if (o.first_relevant_rank == 0 && is_relevant(h, query.relevant_sections))
      o.first_relevant_rank = i + 1;
    if (h.score >= threshold) {  // NaN never passes
      o.accepted[i] = true;
      ++o.returned;
      if (is_relevant(h, query.relevant_sections)) ++o.relevant_returned;
    }
  }
  o.accepted_sections = distinct_sections(top_hits, query.relevant_sections, &o.accepted);
  o.review_missing_section = o.positive && o.accepted_sections < o.relevant_sections;
  o.review_negative_returned = !o.positive && o.returned > 0;
  return o;
}

RetrievalMetrics summarize(std::span<const QueryOutcome> outcomes) {
  RetrievalMetrics m;
  m.queries = outcomes.size();
  double r1 = 0, r3 = 0, mrr = 0, acc = 0;
  for (const QueryOutcome& o : outcomes) {
    m.returned_chunks += o.returned;
    m.relevant_returned_chunks += o.relevant_returned;
    if (o.needs_review()) ++m.review_cases;
    if (o.positive) {
      ++m.positives;
      const double den = static_cast<double>(o.relevant_sections);
      r1 += static_cast<double>(o.raw_sections_at_1) / den;
      r3 += static_cast<double>(o.raw_sections_at_3) / den;
      acc += static_cast<double>(o.accepted_sections) / den;
      if (o.first_relevant_rank > 0) mrr += 1.0 / static_cast<double>(o.first_relevant_rank);
      if (o.accepted_sections > 0) ++m.supported_positives;
      if (o.returned == 0) ++m.rejected_positives;
    } else {
      ++m.negatives;
      if (o.returned == 0) ++m.rejected_negatives;
    }
  }
  if (m.positives > 0) {
    const double p = static_cast<double>(m.positives);
    m.raw_recall_at_1 = r1 / p;
    m.raw_recall_at_3 = r3 / p;
    m.raw_mrr_at_3 = mrr / p;
    m.accepted_recall_at_3 = acc / p;
  }
  m.evidence_precision = ratio(m.relevant_returned_chunks, m.returned_chunks);
  m.supported_positive_rate = ratio(m.supported_positives, m.positives);
  m.false_reject_rate = ratio(m.rejected_positives, m.positives);
  m.ood_rejection = ratio(m.rejected_negatives, m.negatives);
  return m;
}

std::optional<double> nearest_rank_percentile(std::span<const double> values, double p) {
  return internal::nearest_rank_percentile(values, p);
}

LatencySummary summarize_latency(std::span<const double> ranking_ms) {
  LatencySummary s;
  s.samples = ranking_ms.size();
  s.p50_ms = nearest_rank_percentile(ranking_ms, 50);
  s.p95_ms = nearest_rank_percentile(ranking_ms, 95);
  return s;
}

}  // namespace qaplan
