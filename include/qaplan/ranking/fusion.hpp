#pragma once
/// Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009) and per-list dedupe by a
/// parent id.
///
/// Fused score of document d over input lists L_1 … L_n:
///
///     score(d) = Σ_{i : d ∈ L_i}  w_i · (1 / (k + rank_i(d)))
///
/// rank_i(d) is d's 1-based position in L_i (the list's order is taken as given; its scores are
/// only carried along for display). Terms are added in list order starting from 0.0, each one
/// computed exactly as `w_i * (1.0 / (k + rank))` in double, so results are bit-reproducible.
/// Output is sorted by fused score descending, ties by lower `doc` (input order), like the rest of
/// the ranking library.
///
/// The fused score never replaces the per-list scores: every `FusedHit` keeps each list's rank
/// and raw score (e.g. the cosine shown to users) beside it.
///
/// All functions are pure and thread-safe.
#include <cstdint>
#include <optional>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"
#include "qaplan/ranking/types.hpp"

namespace qaplan {

/// RRF parameters.
///
/// | field   | default      | valid range                                                  |
/// |---------|--------------|--------------------------------------------------------------|
/// | k       | 60.0         | finite, > 0                                                  |
/// | weights | empty (= 1)  | empty, or one finite weight ≥ 0 per input list (w_i above)   |
struct RrfOptions {
  double k = 60.0;
  std::vector<double> weights;

  /// Checks the ranges above that do not depend on the number of lists (the weight count is
  /// checked by `fuse_rrf`). Errors: kInvalidConfig naming the field.
  QAPLAN_API Status validate() const;
};

/// One fused document.
struct FusedHit {
  std::uint32_t doc = 0;  ///< position in the collection
  double score = 0.0;     ///< fused RRF score
  /// One entry per input list, in input-list order: d's 1-based rank in that list, or nullopt
  /// when the list does not contain d.
  std::vector<std::optional<std::uint32_t>> ranks;
  /// One entry per input list: the list's own score for d (e.g. cosine, BM25), or nullopt.
  std::vector<std::optional<double>> list_scores;

  friend bool operator==(const FusedHit&, const FusedHit&) = default;
};

/// Fuses `lists` (each best first) by RRF. Every document that occurs in at least one list is in
/// the result (nothing is truncated); an empty input gives an empty result.
/// Errors: kInvalidConfig for invalid `opts`; kInvalidInput when `opts.weights` is non-empty with a size different from
/// `lists.size()`; a document that occurs twice in one list (dedupe first).
QAPLAN_API Result<std::vector<FusedHit>> fuse_rrf(const std::vector<RankedList>& lists,
                                                  const RrfOptions& opts = {});

/// Keeps only the first (best-ranked) entry per parent id, preserving order; `parent_of[doc]`
/// gives a document's parent (e.g. the section or policy it was chunked from). Scores are kept
/// as they are. Errors: kInvalidInput when a doc is outside `parent_of`.
QAPLAN_API Result<RankedList> dedupe_by_parent(const RankedList& list,
                                               const std::vector<std::uint32_t>& parent_of);

}  // namespace qaplan
