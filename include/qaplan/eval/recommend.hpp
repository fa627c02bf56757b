#pragma once
/// `qaplan recommend` (docs/evaluation.md): merges a
/// calibration report (`qaplan calibrate`), a core-chain evaluation (`qaplan eval-chain`) and an
/// intent-policy report (`qaplan eval-policy`) into one decision per runtime parameter —
/// `apply_candidate_after_review` or `keep_current` — with the reason and the config diff it
/// would make. It never edits the config.
///
/// Decision rules, in order (the first that applies decides; settings from the eval config):
///  1. gate_failed — the intent-policy report has a failed critical sample, or the evaluation's
///     regression gate failed: fix routing, intent and source first (the tuning table only
///     applies once the intent policy and the core chain pass). Every parameter keeps its value.
///  2. too_few_samples — fewer than `min_band_samples` dev samples (or `min_band_positives` good
///     ones) behind the candidate; for model_min_score fewer than `min_band_samples` dev rows, or
///     no candidate at all (model off).
///  3. no_improvement — the candidate equals the current value, or on test it does not do better
///     (FAQ thresholds: gain = more correct direct answers + fewer false ones; model_min_score:
///     more correct intents; the pool what-ifs: more expected chunks in the context without a
///     lower hit-type accuracy), or it breaks the false-direct ceiling on test.
///  4. within_noise — the test gain is smaller than max(`min_gain`, ⌈`noise_rate` × test
///     samples⌉).
///  5. otherwise apply_candidate_after_review, with the diff.
/// Latency (the seed's "P95 超门禁") is reported against `latency_p95_budget_us` and never
/// changes a value by itself (its figures sit under "timing").
///
/// The three reports must describe the same dataset and config: dataset and config SHA-256 of
/// the calibration and the evaluation must agree with each other and with the config file whose
/// diff is produced (kInvalidInput otherwise).
#include <optional>
#include <string>
#include <vector>

#include "qaplan/eval/bench.hpp"  // NamedText
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

struct Recommendation {
  std::string parameter;  ///< config key, e.g. "[retrieval_strategy.defaults] faq_direct_threshold"
  std::string symptom;    ///< the seed's row: "误直出 (false direct answers)", "漏召回 …", …
  std::optional<double> current;
  std::optional<double> candidate;
  std::string action;       ///< "apply_candidate_after_review" | "keep_current"
  std::string reason_code;  ///< gate_failed, too_few_samples, no_improvement, within_noise, improved
  std::string reason;       ///< one sentence with the numbers
  std::string diff;         ///< the hunk for this parameter ("" when kept)
};

struct RecommendReport {
  std::string calibration_name, evaluation_name, policy_name, config_name;
  std::string dataset_version, dataset_sha256, config_sha256;
  bool policy_gate_failed = false;
  std::string policy_summary;  ///< "critical failed 0/57; route 100.0 % (40/40), …"
  bool evaluation_gate_failed = false;
  std::string evaluation_summary;
  std::vector<Recommendation> items;
  std::string config_diff;  ///< unified diff of every applied item ("" when none)
  std::optional<double> chain_p95_us;  ///< timing: the evaluation's p95 chain latency
  double latency_budget_us = 0;
};

/// Builds the recommendations. `config_file` is the rules file the diff is made against (its
/// bytes; `name` is shown in the diff header). Errors: kInvalidInput naming the report and field
/// (malformed or mismatched reports, a parameter whose line cannot be found in the config).
QAPLAN_API Result<RecommendReport> recommend(const NamedText& calibration,
                                             const NamedText& evaluation,
                                             const NamedText& policy,
                                             const NamedText& config_file,
                                             const ChainEvalConfig& settings);

/// report.json (deterministic apart from "timing"), report.md.
QAPLAN_API std::string recommend_report_json(const RecommendReport& r, bool pretty = true);
QAPLAN_API std::string recommend_report_markdown(const RecommendReport& r);

}  // namespace qaplan
