// Metrics of the frozen retrieval benchmark on a hand-computed fixture (the definitions in
// metrics.hpp).
#include "qaplan/eval/metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace qaplan {
namespace {

constexpr int kIrr = -1;  // a hit whose section is not relevant

JudgedQuery q(std::size_t sections, std::vector<JudgedHit> ranking) {
  return JudgedQuery{sections, std::move(ranking)};
}

// Five queries, threshold 0.5 (A = relevant section 0, B = relevant section 1):
//   Q1 + {A,B}: 0.9 A | 0.6 irr | 0.4 B | 0.3 A      (4th hit is outside the top 3)
//   Q2 + {A}:   0.7 irr | 0.55 A | 0.5 A
//   Q3 + {A}:   0.45 irr | 0.3 irr | 0.2 irr | 0.1 A
//   Q4 − :      0.8 irr | 0.2 irr
//   Q5 − :      0.49 irr
std::vector<JudgedQuery> judged_fixture() {
  return {q(2, {{0.9, 0}, {0.6, kIrr}, {0.4, 1}, {0.3, 0}}),
          q(1, {{0.7, kIrr}, {0.55, 0}, {0.5, 0}}),
          q(1, {{0.45, kIrr}, {0.3, kIrr}, {0.2, kIrr}, {0.1, 0}}),
          q(0, {{0.8, kIrr}, {0.2, kIrr}}), q(0, {{0.49, kIrr}})};
}

std::vector<QueryOutcome> outcomes(const std::vector<JudgedQuery>& qs, double t) {
  std::vector<QueryOutcome> out;
  for (const auto& x : qs) out.push_back(evaluate_query(x, t));
  return out;
}

TEST(EvaluateQuery, PerQueryCountsAndFlags) {
  const auto qs = judged_fixture();
  const auto o = outcomes(qs, 0.5);
  // Q1: top1 {A} → 1 section; top3 {A,B} → 2; first relevant at rank 1; returned 0.9, 0.6
  // (0.4 < 0.5) → 2 returned, 1 relevant, accepted sections {A} → misses B → review.
  EXPECT_EQ(o[0].raw_sections_at_1, 1u);
  EXPECT_EQ(o[0].raw_sections_at_3, 2u);
  EXPECT_EQ(o[0].first_relevant_rank, 1u);
  EXPECT_EQ(o[0].returned, 2u);
  EXPECT_EQ(o[0].relevant_returned, 1u);
  EXPECT_EQ(o[0].accepted_sections, 1u);
  EXPECT_EQ(o[0].accepted, (std::vector<bool>{true, true, false}));
  EXPECT_TRUE(o[0].review_missing_section);
  EXPECT_FALSE(o[0].review_negative_returned);
  // Q2: 0.5 >= 0.5 is accepted (inclusive) → 3 returned, 2 relevant chunks, 1 distinct section.
  EXPECT_EQ(o[1].raw_sections_at_1, 0u);
  EXPECT_EQ(o[1].first_relevant_rank, 2u);
  EXPECT_EQ(o[1].returned, 3u);
  EXPECT_EQ(o[1].relevant_returned, 2u);
  EXPECT_EQ(o[1].accepted_sections, 1u);
  EXPECT_FALSE(o[1].needs_review());
  // Q3: the relevant hit is 4th → not in the top 3; nothing returned → review.
  EXPECT_EQ(o[2].raw_sections_at_3, 0u);
  EXPECT_EQ(o[2].first_relevant_rank, 0u);
  EXPECT_EQ(o[2].returned, 0u);
  EXPECT_TRUE(o[2].review_missing_section);
  // Q4: negative returning 0.8 → review; Q5: nothing returned → fine.
  EXPECT_EQ(o[3].returned, 1u);
  EXPECT_TRUE(o[3].review_negative_returned);
  EXPECT_EQ(o[4].returned, 0u);
  EXPECT_FALSE(o[4].needs_review());
}

TEST(Summarize, EveryMetricOnTheFixture) {
  const auto o = outcomes(judged_fixture(), 0.5);
  const RetrievalMetrics m = summarize(o);
  EXPECT_EQ(m.queries, 5u);
  EXPECT_EQ(m.positives, 3u);
  EXPECT_EQ(m.negatives, 2u);
  // Raw Recall@1 = (1/2 + 0 + 0) / 3 = 1/6.
  EXPECT_DOUBLE_EQ(*m.raw_recall_at_1, 1.0 / 6.0);
  // Raw Recall@3 = (2/2 + 1/1 + 0) / 3 = 2/3.
  EXPECT_DOUBLE_EQ(*m.raw_recall_at_3, 2.0 / 3.0);
  // Raw MRR@3 = (1/1 + 1/2 + 0) / 3 = 0.5.
  EXPECT_DOUBLE_EQ(*m.raw_mrr_at_3, 0.5);
  // Accepted Recall@3 = (1/2 + 1/1 + 0) / 3 = 0.5.
  EXPECT_DOUBLE_EQ(*m.accepted_recall_at_3, 0.5);
  // Evidence precision: returned 2 + 3 + 0 + 1 + 0 = 6, relevant 1 + 2 = 3 → 0.5.
  EXPECT_EQ(m.returned_chunks, 6u);
  EXPECT_EQ(m.relevant_returned_chunks, 3u);
  EXPECT_DOUBLE_EQ(*m.evidence_precision, 0.5);
  // Supported positives: Q1, Q2 → 2/3; false reject: Q3 → 1/3; OOD rejection: Q5 → 1/2.
  EXPECT_EQ(m.supported_positives, 2u);
  EXPECT_DOUBLE_EQ(*m.supported_positive_rate, 2.0 / 3.0);
  EXPECT_EQ(m.rejected_positives, 1u);
  EXPECT_DOUBLE_EQ(*m.false_reject_rate, 1.0 / 3.0);
  EXPECT_EQ(m.rejected_negatives, 1u);
  EXPECT_DOUBLE_EQ(*m.ood_rejection, 0.5);
  EXPECT_EQ(m.review_cases, 3u);  // Q1, Q3, Q4
}

TEST(Summarize, RawMetricsIgnoreThresholdAndPrecisionIsNullWhenNothingReturned) {
  const auto o = outcomes(judged_fixture(), 10.0);  // rejects everything
  const RetrievalMetrics m = summarize(o);
  EXPECT_DOUBLE_EQ(*m.raw_recall_at_3, 2.0 / 3.0);  // unchanged: before threshold
  EXPECT_DOUBLE_EQ(*m.accepted_recall_at_3, 0.0);
  EXPECT_FALSE(m.evidence_precision.has_value());
  EXPECT_DOUBLE_EQ(*m.false_reject_rate, 1.0);
  EXPECT_DOUBLE_EQ(*m.ood_rejection, 1.0);
  EXPECT_DOUBLE_EQ(*m.supported_positive_rate, 0.0);
}

TEST(Summarize, EmptyGroupsAreNull) {
  // Only a negative: every positive-averaged metric is null, OOD rejection is 0/1.
  const std::vector<QueryOutcome> o{evaluate_query(q(0, {{0.9, kIrr}}), 0.0)};
  const RetrievalMetrics m = summarize(o);
  EXPECT_FALSE(m.raw_recall_at_1.has_value());
  EXPECT_FALSE(m.raw_mrr_at_3.has_value());
  EXPECT_FALSE(m.supported_positive_rate.has_value());
  EXPECT_FALSE(m.false_reject_rate.has_value());
  EXPECT_DOUBLE_EQ(*m.ood_rejection, 0.0);
  EXPECT_DOUBLE_EQ(*m.evidence_precision, 0.0);  // 0 relevant of 1 returned
}

TEST(EvaluateQuery, OutOfRangeSectionIsNotRelevantAndNanNeverAccepted) {
  const auto o = evaluate_query(q(1, {{0.9, 5}, {std::nan(""), 0}}), 0.0);
  EXPECT_EQ(o.raw_sections_at_3, 1u);  // the NaN hit is still ranked 2nd with section A
  EXPECT_EQ(o.first_relevant_rank, 2u);
  EXPECT_EQ(o.returned, 1u);
  EXPECT_EQ(o.relevant_returned, 0u);
}

TEST(Percentile, NearestRank) {
  // Sorted 1..5: p50 → rank ceil(2.5) = 3 → 3; p95 → rank ceil(4.75) = 5 → 5.
  const std::vector<double> v{5, 1, 4, 2, 3};
  EXPECT_EQ(*nearest_rank_percentile(v, 50), 3.0);
  EXPECT_EQ(*nearest_rank_percentile(v, 95), 5.0);
  EXPECT_EQ(*nearest_rank_percentile(v, 0), 1.0);
  EXPECT_EQ(*nearest_rank_percentile(v, 100), 5.0);
  // 1..20: p95 → rank 95 * 20 / 100 = 19 exactly (not 20 from 0.95 * 20 = 19.000000000000004).
  std::vector<double> w;
  for (int i = 20; i >= 1; --i) w.push_back(i);
  EXPECT_EQ(*nearest_rank_percentile(w, 95), 19.0);
  EXPECT_EQ(*nearest_rank_percentile(w, 50), 10.0);
  EXPECT_FALSE(nearest_rank_percentile(std::vector<double>{}, 50).has_value());
  const LatencySummary s = summarize_latency(w);
  EXPECT_EQ(s.samples, 20u);
  EXPECT_EQ(*s.p50_ms, 10.0);
  EXPECT_EQ(*s.p95_ms, 19.0);
}

}  // namespace
}  // namespace qaplan
