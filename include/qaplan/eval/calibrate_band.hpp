#pragma once
/// `qaplan calibrate` (docs/evaluation.md): candidates for the
/// FAQ direct-answer thresholds, one per threshold band, and for [intent_gateway]
/// model_min_score — chosen on the dev split only, frozen, then scored on test.
///
/// FAQ direct thresholds. Every dev question of the chain set goes through prepare +
/// execute_plan; a question that reached the FAQ leg with a candidate is a sample (its direct
/// score, and whether answering that FAQ directly is right: the question is faq_direct and the
/// candidate is the expected FAQ). Samples are grouped by the plan's threshold band — the config
/// key that set its faq_direct_threshold (chain_eval.hpp ThresholdBand: "defaults" = 0.72,
/// "intent_faq" = 0.64, "short_query" = 0.78, "intent_follow_up" / "medium_decision_score" =
/// 0.82, "category_pricing" = 0.84, "category_compliance" / "low_decision_score" = 0.86) — so each
/// candidate is a new value for exactly one key. Plans with faq_direct_exact_only are reported
/// as the band "exact_only" (no threshold applies). Each band is calibrated with
/// calibrate_direct_threshold (calibrate.hpp) under the false-direct ceiling of the eval config;
/// the test split is run only after every candidate is frozen and is scored at the current value
/// and at the candidate. Bands interact (a question's band is the key that bound its threshold),
/// so candidates are evaluated one band at a time, the others unchanged.
///
/// model_min_score. With [model] enabled, the router data's rows that carry an intent label
/// (eval_sets/router, fingerprinted) are prepared with model_min_score set to each grid value
/// (0.50, 0.51, …, 0.99 and the current value; a new Planner per value); a row is correct when it
/// is routed to retrieval with the labelled intent. The candidate maximises dev accuracy; ties
/// prefer the value nearest the current one, then the higher. Test rows are scored at both
/// values after the candidate is frozen. With the model off there is no candidate and the report
/// says why.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qaplan/eval/calibrate.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// The candidate of one threshold band.
struct BandCandidate {
  ThresholdBand band;        ///< id, tag, op, current value
  std::string config_key;    ///< "[retrieval_strategy.defaults] faq_direct_threshold", or
                             ///< "[[retrieval_strategy.patches]] category_pricing at_least.faq_direct_threshold"
  std::string decision_bands;  ///< decision-score bands of its dev samples ("high", "high+medium", …)
  DirectCalibration dev;       ///< the dev curve and the candidate
  std::size_t test_samples = 0, test_positives = 0;
  DirectCurvePoint test_current, test_candidate;  ///< test, after freezing
};

/// Exact-only plans: how many samples, and what exact matching did.
struct ExactOnlySummary {
  std::size_t dev_samples = 0, dev_positives = 0, dev_exact = 0, dev_exact_correct = 0;
  std::size_t test_samples = 0, test_positives = 0, test_exact = 0, test_exact_correct = 0;
};

/// One model_min_score value on a split.
struct ModelScorePoint {
  double threshold = 0.0;
  std::size_t rows = 0;        ///< rows with an intent label
  std::size_t retrieval = 0;   ///< routed to retrieval
  std::size_t correct = 0;     ///< retrieval with the labelled intent
  std::size_t overrides = 0;   ///< decision_policy model_override
  std::size_t correct_overrides = 0;
  std::size_t conflicts = 0;   ///< decision_policy conflict
  std::size_t agreements = 0;  ///< rule_model_agree
  std::optional<double> accuracy() const;
};

struct ModelScoreCalibration {
  bool available = false;
  std::string skipped;      ///< why not available
  std::string data_fingerprint;
  std::string model;
  double current = 0.0;
  std::vector<ModelScorePoint> curve;  ///< dev, ascending
  std::size_t chosen_index = 0, current_index = 0;
  double threshold = 0.0;
  ModelScorePoint test_current, test_candidate;
};

struct CalibrationReport {
  std::string dataset_name, dataset_version, dataset_sha256;
  std::string kb_version, kb_faq_sha256, kb_docs_sha256;
  std::string config_origin, config_sha256, model;
  std::string eval_config_name, eval_config_sha256;
  std::string split = "dev";
  std::size_t split_questions = 0, test_questions = 0;
  std::size_t dev_retrieval = 0, dev_samples = 0;  ///< retrieval questions; with an FAQ candidate
  double ceiling = 0.0;
  double grid_step = 0.0;
  std::vector<BandCandidate> bands;  ///< band id order
  ExactOnlySummary exact_only;
  ModelScoreCalibration model_min_score;
};

/// Runs the calibration. `router_dir`: the router data directory (fingerprints.json and the
/// files it lists); nullopt or a disabled model skips model_min_score. Errors: kInvalidConfig,
/// kInvalidInput (a split without questions, bad data), kFingerprintMismatch, kIo.
QAPLAN_API Result<CalibrationReport> run_calibration(
    const Config& config, std::string_view config_sha256, const KbIndex& kb, const ChainSet& set,
    Split split, const ChainEvalConfig& eval_config,
    const std::optional<std::filesystem::path>& router_dir);

/// report.json (deterministic: no timing), report.md (tables with counts, charts referenced by
/// file name) and the charts ("threshold-<band>.svg", "model-min-score.svg").
QAPLAN_API std::string calibration_report_json(const CalibrationReport& r, bool pretty = true);
QAPLAN_API std::string calibration_report_markdown(const CalibrationReport& r);
QAPLAN_API std::vector<std::pair<std::string, std::string>> calibration_report_charts(
    const CalibrationReport& r);

}  // namespace qaplan
