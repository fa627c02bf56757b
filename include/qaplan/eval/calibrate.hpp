#pragma once
/// Dev-only threshold calibration of the frozen policy benchmark.
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
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

/// The calibration table as an SVG line chart (svg.hpp): threshold → supported positive rate,
/// negative rejection rate and the objective, with the chosen threshold marked. `method` and
/// `score_name` label the chart ("rrf", "rrf score").
QAPLAN_API std::string calibration_curve_svg(const Calibration& calibration,
                                             std::string_view method,
                                             std::string_view score_name);

// ---------------------------------------------------------------------------------------------
// FAQ direct-answer thresholds (docs/evaluation.md)
// ---------------------------------------------------------------------------------------------
//
// A question that reached the FAQ leg has one direct candidate (executor.hpp) with a direct
// score in [0, 1]. Under threshold t it is answered directly when score >= t. The answer is
// correct when the question should be answered directly with exactly that FAQ ("good"), else it
// is a false direct answer (误直出); a good candidate below t is a missed direct answer (漏直出).
//
// Calibration (dev only): the candidate thresholds are the grid min_threshold, min_threshold +
// step, …, 1 (rounded to 6 decimals) plus the current value. A threshold is feasible when its
// false-direct rate — false / (correct + false) — is at most `ceiling` (no direct answer at all
// is feasible). The chosen threshold maximises correct direct answers among feasible ones; ties
// prefer the threshold nearest the current value, then the higher one (so an uninformative band
// keeps its value). Counts are compared exactly.

/// One question's direct candidate.
struct DirectSample {
  double score = 0.0;  ///< the direct score, [0, 1] (1 for an exact match)
  bool good = false;   ///< answering this candidate directly is right
};

/// What a threshold does to a set of samples.
struct DirectCurvePoint {
  double threshold = 0.0;
  std::size_t correct = 0;       ///< good samples with score >= threshold
  std::size_t false_direct = 0;  ///< other samples with score >= threshold
  std::size_t missed = 0;        ///< good samples below the threshold
  bool feasible = true;          ///< false-direct rate within the ceiling
  /// false / (correct + false); nullopt when nothing is answered directly.
  std::optional<double> false_direct_rate() const;
};

QAPLAN_API DirectCurvePoint evaluate_direct_threshold(std::span<const DirectSample> samples,
                                                      double threshold, double ceiling = 1.0);

/// The dev curve and the chosen candidate of one band.
struct DirectCalibration {
  std::size_t samples = 0;
  std::size_t positives = 0;  ///< good samples
  double current = 0.0;
  double ceiling = 0.0;
  std::vector<DirectCurvePoint> curve;  ///< ascending threshold
  std::size_t chosen_index = 0;
  std::size_t current_index = 0;
  double threshold = 0.0;  ///< the candidate
};

/// Calibrates one band. Errors (kInvalidInput): a score outside [0, 1] or NaN, a grid step not
/// in (0, 0.5], min_threshold or current outside [0, 1], ceiling outside [0, 1].
QAPLAN_API Result<DirectCalibration> calibrate_direct_threshold(
    std::span<const DirectSample> dev, double current, double ceiling, double grid_step,
    double min_threshold);

}  // namespace qaplan
