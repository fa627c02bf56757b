#pragma once
/// Dev-only threshold calibration of the frozen policy benchmark (seed 001, issue 3 item 8).
///
/// A hit is accepted when its score is >= the threshold; a query's returned set is the accepted
/// hits among its top 3 (kReturnedTopK). Candidate thresholds are 0 and, for every score observed
/// in a dev query's top 3, `std::nextafter(score, +inf)` — the smallest threshold that rejects
/// that score. The chosen threshold maximises
///   (supported positive rate + negative rejection rate) / 2
/// and ties prefer, in order: higher negative rejection rate, higher supported positive rate,
/// fewer returned chunks (summed over dev), higher threshold. Comparisons are exact (integer
/// cross-multiplication), never floating-point approximations.
///
/// The function only ever sees the rankings it is given; the bench runner passes the dev split
/// alone and ranks the test split only after the threshold is frozen. Pure and thread-safe.
#include <cstddef>
#include <span>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/eval/metrics.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One evaluated candidate threshold (a row of the report's calibration table).
struct ThresholdCandidate {
  double threshold = 0.0;
  std::size_t supported_positives = 0;  ///< positives with >= 1 relevant section returned
  std::size_t rejected_negatives = 0;   ///< negatives with nothing returned
  std::size_t returned_chunks = 0;      ///< returned hits summed over every dev query
  double supported_positive_rate = 0.0;
  double negative_rejection_rate = 0.0;
  double objective = 0.0;  ///< (supported_positive_rate + negative_rejection_rate) / 2
};

/// The frozen threshold and every candidate evaluated, in ascending threshold order
/// (duplicates removed).
struct Calibration {
  double threshold = 0.0;
  std::size_t chosen_index = 0;  ///< index of the chosen row in `candidates`
  std::size_t positives = 0;
  std::size_t negatives = 0;
  std::vector<ThresholdCandidate> candidates;
};

/// Chooses a threshold from the dev rankings alone.
/// Errors (kInvalidInput): dev has no positive query or no negative query (the objective is
/// undefined), or a top-3 score is NaN or infinite.
QAPLAN_API Result<Calibration> calibrate_threshold(std::span<const JudgedQuery> dev);

}  // namespace qaplan
