#pragma once
/// Retrieval metrics of the frozen policy benchmark.
///
/// The benchmark judges every query's ranking against section-level relevance: a query lists
/// its relevant sections (source + section title) and a ranked chunk is relevant when its
/// section is one of them. The caller (the bench runner, or a host with its own labels) does
/// that matching and hands over `JudgedQuery` values; everything here is pure arithmetic on
/// them, deterministic and thread-safe (no shared state).
///
/// Definitions (all "top k" are the first k entries of the ranking, best first):
/// - Raw Recall@k (k = 1, 3): per positive query |distinct relevant sections in top k| /
///   |relevant sections|, macro-averaged over positive queries; before any threshold.
/// - Raw MRR@3: per positive query 1 / rank of the first relevant chunk in the top 3, else 0;
///   macro-averaged over positives.
/// - Returned set: the hits among the top 3 whose score is >= the threshold.
/// - Accepted Recall@3: like Raw Recall@3 but over the returned set.
/// - Evidence precision: relevant returned chunks / returned chunks, summed over ALL queries of
///   the split (negatives included); null when nothing at all was returned.
/// - Supported positive rate: positives with >= 1 relevant section returned / positives.
/// - False reject rate: positives with nothing returned / positives.
/// - OOD rejection: negatives with nothing returned / negatives.
/// - Ranking latency p50 / p95: nearest-rank percentiles of per-query ranking milliseconds.
/// Rates over an empty group (no positives, no negatives) are null.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "qaplan/export.hpp"

namespace qaplan {

/// How many ranked hits form the candidate set that a threshold filters (top 3).
inline constexpr std::size_t kReturnedTopK = 3;

/// One ranked hit, reduced to what the metrics need.
struct JudgedHit {
  /// The method's score (cosine, BM25 or fused RRF score). Compared with `>=` to a threshold.
  double score = 0.0;
  /// Index into the query's relevant sections (0 … relevant_sections - 1) when the hit's
  /// (source, section title) is relevant; -1 when it is not relevant.
  int relevant_section = -1;
};

/// One query's ranking with its labels. A query is positive when it has relevant sections.
struct JudgedQuery {
  /// Number of distinct relevant sections (0 for an out-of-corpus / negative query).
  std::size_t relevant_sections = 0;
  /// The method's ranking, best first. Only the first kReturnedTopK entries matter for the
  /// metrics here; longer rankings are fine.
  std::vector<JudgedHit> ranking;

  bool positive() const noexcept { return relevant_sections > 0; }
};

/// What one query did under one threshold.
struct QueryOutcome {
  bool positive = false;
  std::size_t relevant_sections = 0;
  std::size_t raw_sections_at_1 = 0;    ///< distinct relevant sections in the top 1
  std::size_t raw_sections_at_3 = 0;    ///< distinct relevant sections in the top 3
  std::size_t first_relevant_rank = 0;  ///< 1-based rank in the top 3; 0 = none
  std::size_t returned = 0;             ///< hits in the returned set (top 3, score >= threshold)
  std::size_t relevant_returned = 0;    ///< returned hits that are relevant (chunks)
  std::size_t accepted_sections = 0;    ///< distinct relevant sections in the returned set
  /// Per ranking position (first kReturnedTopK at most): whether that hit is returned.
  std::vector<bool> accepted;
  /// Review flag: a positive whose returned set misses any relevant section.
  bool review_missing_section = false;
  /// Review flag: a negative whose returned set is not empty.
  bool review_negative_returned = false;

  bool needs_review() const noexcept { return review_missing_section || review_negative_returned; }
};

/// Applies `threshold` to one query. Never fails; a `relevant_section` outside
/// [0, relevant_sections) counts as not relevant.
QAPLAN_API QueryOutcome evaluate_query(const JudgedQuery& query, double threshold);

/// The seed's metric list for one method on one split. Optional fields are null (nullopt) when
/// their denominator is zero.
struct RetrievalMetrics {
  std::size_t queries = 0;
  std::size_t positives = 0;
  std::size_t negatives = 0;
  std::optional<double> raw_recall_at_1;
  std::optional<double> raw_recall_at_3;
  std::optional<double> raw_mrr_at_3;
  std::optional<double> accepted_recall_at_3;
  std::optional<double> evidence_precision;
  std::optional<double> supported_positive_rate;
  std::optional<double> false_reject_rate;
  std::optional<double> ood_rejection;
  // Counts behind the rates, for reports that show "6/8".
  std::size_t returned_chunks = 0;
  std::size_t relevant_returned_chunks = 0;
  std::size_t supported_positives = 0;
  std::size_t rejected_positives = 0;  ///< positives with nothing returned
  std::size_t rejected_negatives = 0;  ///< negatives with nothing returned
  std::size_t review_cases = 0;        ///< queries with a review flag
};

/// Aggregates per-query outcomes (macro averages over positives, sums over all queries).
QAPLAN_API RetrievalMetrics summarize(std::span<const QueryOutcome> outcomes);

/// Nearest-rank percentile: the value at 1-based rank ceil(p / 100 * n) of the sorted values
/// (rank 1 for p <= 0). `p` in [0, 100]. nullopt for an empty input.
QAPLAN_API std::optional<double> nearest_rank_percentile(std::span<const double> values, double p);

/// p50 / p95 ranking latency in milliseconds (nearest rank); null when there are no samples.
struct LatencySummary {
  std::size_t samples = 0;
  std::optional<double> p50_ms;
  std::optional<double> p95_ms;
};
QAPLAN_API LatencySummary summarize_latency(std::span<const double> ranking_ms);

}  // namespace qaplan
