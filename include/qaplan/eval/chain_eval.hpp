#pragma once
/// Core-chain evaluation (docs/evaluation.md): labelled questions
/// go through the whole chain — Planner::prepare (route → intent → plan) and execute_plan over
/// the shipped knowledge base — and every outcome is judged against its labels.
///
/// Data: eval_sets/chain/chain-v1.jsonl (schema in eval_sets/chain/README.md), pinned by
/// eval_sets/chain/fingerprints.json:
///
///     {"format": "qaplan-chain-fingerprints-1",
///      "files": {"chain-v1.jsonl": {"version": "chain-1", "kb": "kb-1", "sha256": "…"}, …}}
///
/// `sha256` is the SHA-256 of the file's canonical JSON (every line parsed and re-serialised with
/// keys in byte order and no whitespace, as one array in file order); `kb` is the knowledge-base
/// version the labels refer to. A changed file, or labels of another KB version, is
/// kFingerprintMismatch; a new version is a new file name and a new registry entry.
///
/// Analysis: every retrieval question goes through Planner::analyze (no `now`) and is executed
/// with execution_inputs(analysis): a follow-up is searched as its rewrite, with the analysis's
/// variants (when the plan says use_query_variants) and filters.
///
/// Metric definitions (each reported with its counts; a "positive" is a question whose expected
/// hit type is faq_direct or rag; k ∈ {1, 3, 5, 10}):
///  - hit-type accuracy: questions whose hit type equals the expected one / questions.
///  - evidence recall@k: per positive, faq_direct → 1 when the expected FAQ is among the first k
///    FAQ hits, else 0; rag → expected chunks whose section is among the first k document hits /
///    expected chunks; macro-averaged over positives (rag without chunk labels are skipped).
///  - FAQ hit@k (faq_direct questions), document recall@k (rag questions): the two halves.
///  - MRR@10: 1 / rank of the expected FAQ (faq_direct) or of the first expected section (rag)
///    within the first 10 hits, else 0; averaged over the same questions.
///  - context recall: expected chunks that reached the final context / expected chunks
///    (rag questions; micro-averaged).
///  - keyword coverage: keywords found verbatim in the answer or the context texts / keywords,
///    macro-averaged over positives with keywords.
///  - false-direct rate: FAQ answers given directly that are wrong (the expected hit type is not
///    faq_direct, or another FAQ was expected) / FAQ answers given directly.
///  - missed-direct rate: faq_direct questions not answered directly / faq_direct questions.
///  - no-evidence rate: questions answered no_evidence / questions; correct refusals:
///    no_evidence questions answered no_evidence / no_evidence questions; false refusals:
///    positives answered no_evidence / positives.
///  - latency p50 / p95 (nearest rank) per stage: prepare, analyze, query, faq, doc, context,
///    execute, chain (prepare + analyze + execute), in microseconds — timing only.
///
/// Everything but members named "timing" is deterministic.
#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/eval/dataset.hpp"  // Split
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/retrieval/kb.hpp"
#include "qaplan/export.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One labelled question of chain-v1.jsonl.
struct ChainQuestion {
  std::string id;
  std::string question;
  std::vector<std::string> history;
  std::optional<std::string> scenario;
  std::optional<std::string> source_filter;
  HitType expected_hit_type = HitType::kRag;
  std::optional<std::string> expected_faq_id;
  std::vector<std::string> expected_chunk_ids;
  std::vector<std::string> keywords;
  QuestionCategory category = QuestionCategory::kDefault;
  bool prefer_table = false;
  Split split = Split::kDev;
};

struct ChainSet {
  std::string name;        ///< file name
  std::string version;     ///< registry version, e.g. "chain-1"
  std::string kb_version;  ///< the KB version its labels refer to
  std::string sha256;      ///< canonical fingerprint
  std::vector<ChainQuestion> questions;
};

/// SHA-256 of a JSONL file's canonical JSON (see above). Errors: kInvalidInput (malformed line,
/// a number anywhere — the canonical form covers strings, booleans, null, arrays and objects).
QAPLAN_API Result<std::string> canonical_jsonl_sha256(std::string_view text, std::string_view name);

/// Verifies `file` against `registry` and returns its registered (version, kb version, sha256).
/// Errors: kInvalidInput (malformed), kFingerprintMismatch (unregistered file or other hash).
struct RegisteredFile {
  std::string version, kb_version, sha256;
};
QAPLAN_API Result<RegisteredFile> verify_chain_file(const NamedText& file, const NamedText& registry);

/// Parses and verifies chain-v1.jsonl. Errors: kInvalidInput naming file:line and field (unknown
/// or missing fields, wrong types, unknown hit type / category / split, duplicate ids, a
/// faq_direct row without expected_faq_id), kFingerprintMismatch.
QAPLAN_API Result<ChainSet> load_chain_set(const NamedText& file, const NamedText& registry);

/// Reads `file` and the registry fingerprints.json beside it, then load_chain_set (named by file
/// names). Errors: kIo, and as load_chain_set.
QAPLAN_API Result<ChainSet> read_chain_set(const std::filesystem::path& file);

/// Every FAQ and chunk id of the set exists in the knowledge base, and the set's KB version is
/// the KB's. Errors: kInvalidInput naming the question and id; kFingerprintMismatch for another
/// KB version.
QAPLAN_API Status check_chain_against_kb(const ChainSet& set, const KbIndex& kb);

// ---------------------------------------------------------------------------------------------
// Running the chain
// ---------------------------------------------------------------------------------------------

inline constexpr std::array<std::size_t, 4> kChainKs = {1, 3, 5, 10};

/// Which config key set a plan's faq_direct_threshold: the last fired patch that changed it, or
/// the defaults. Plans with faq_direct_exact_only are their own band, "exact_only".
struct ThresholdBand {
  std::string id;       ///< "defaults", a patch id ("category_pricing", …) or "exact_only"
  std::string tag;      ///< the patch's reason tag ("pricing_guard"), "" for defaults/exact_only
  std::string op;       ///< "set" | "at_least" | "at_most" | "" (defaults / exact_only)
  double value = 0.0;   ///< the plan's threshold
};

/// The band of a plan (see ThresholdBand).
QAPLAN_API ThresholdBand threshold_band(const RetrievalPlan& plan, const PlanTrace& trace);

/// The decision-score band: "low" (< 0.70), "medium" (0.70–0.82), "high" (≥ 0.82).
QAPLAN_API std::string_view decision_band(double decision_score) noexcept;

/// One question through the chain, with its judgement.
struct ChainResult {
  std::size_t question = 0;  ///< index into ChainSet::questions
  std::string route;         ///< "direct_answer" | "retrieval" (or "error")
  std::string route_reason;
  std::string intent;           ///< "" for direct answers
  std::string decision_policy;  ///< ""
  double decision_score = 0.0;
  std::string plan_reason;
  std::string predicted_category;
  bool predicted_prefer_table = false;
  std::vector<std::string> effective_sources;
  ThresholdBand band;
  std::optional<std::string> rewrite;  ///< the query searched when it is not the question
  std::string rewrite_by;              ///< the analysis's Rewrite::by
  ExecutionFilters filters;            ///< the analysis's filters the execution applied
  std::string error;                   ///< prepare/execute refused the question
  Execution execution;
  // Judgement.
  HitType predicted = HitType::kNoEvidence;
  bool hit_type_correct = false;
  std::optional<std::size_t> faq_rank;            ///< expected FAQ in faq_hits (1-based)
  std::vector<std::optional<std::size_t>> chunk_ranks;  ///< per expected chunk: its section's rank
  std::size_t chunks_in_context = 0;
  std::size_t keywords_found = 0;
  bool false_direct = false;   ///< answered directly, wrongly
  /// The question has expected evidence and a source scope, and all of that evidence lies in
  /// sources outside `effective_sources`: the scope hides the answer (docs/routing.md).
  bool wrong_scope = false;
  bool scope_judged = false;  ///< expected evidence exists (the denominator of wrong_scope_rate)
  bool missed_direct = false;  ///< expected faq_direct, not answered directly
  std::int64_t prepare_ns = 0;  ///< timing
  std::int64_t analyze_ns = 0;  ///< timing (0 for direct answers)
};

/// Counts and rates of one group of questions (a split, a category). Rates are nullopt when
/// their denominator is 0.
struct ChainMetrics {
  std::size_t questions = 0;
  std::array<std::size_t, 4> expected{};   ///< per expected HitType
  std::array<std::array<std::size_t, 4>, 4> confusion{};  ///< [expected][predicted]
  std::size_t hit_type_correct = 0;
  std::size_t positives = 0;      ///< faq_direct + rag questions with labels
  std::size_t faq_questions = 0;  ///< faq_direct questions
  std::size_t rag_questions = 0;  ///< rag questions with expected chunks
  std::array<double, kChainKs.size()> evidence_recall_sum{}, faq_hits{}, doc_recall_sum{};
  double faq_rr_sum = 0, doc_rr_sum = 0;
  std::size_t expected_chunks = 0, chunks_in_context = 0;
  std::size_t keyword_questions = 0;
  double keyword_coverage_sum = 0;
  std::size_t keywords = 0, keywords_found = 0;
  std::size_t directs = 0, false_directs = 0, missed_directs = 0;
  std::size_t scope_questions = 0, wrong_scopes = 0;
  std::size_t no_evidence_answers = 0, correct_refusals = 0, false_refusals = 0;
  std::size_t errors = 0;

  std::optional<double> hit_type_accuracy() const;
  std::optional<double> evidence_recall(std::size_t k_index) const;
  std::optional<double> faq_hit(std::size_t k_index) const;
  std::optional<double> doc_recall(std::size_t k_index) const;
  std::optional<double> faq_mrr() const;
  std::optional<double> doc_mrr() const;
  std::optional<double> evidence_mrr() const;
  std::optional<double> context_recall() const;
  std::optional<double> keyword_coverage() const;
  std::optional<double> false_direct_rate() const;
  /// Questions with expected evidence whose scope excludes all of it / those questions.
  std::optional<double> wrong_scope_rate() const;
  std::optional<double> missed_direct_rate() const;
  std::optional<double> no_evidence_rate() const;
  std::optional<double> correct_refusal_rate() const;
  std::optional<double> false_refusal_rate() const;

  /// A metric by its report name ("hit_type_accuracy", "evidence_recall_at_5", "faq_hit_at_1",
  /// "doc_recall_at_5", "doc_mrr_at_10", "faq_mrr_at_10", "evidence_mrr_at_10",
  /// "context_recall", "keyword_coverage", "false_direct_rate", "wrong_scope_rate", "missed_direct_rate",
  /// "no_evidence_rate", "correct_refusal_rate", "false_refusal_rate"); nullopt for an unknown
  /// name or an empty denominator.
  std::optional<double> get(std::string_view name) const;
};

/// Whether a larger value of a gateable metric is better; nullopt for an unknown name.
QAPLAN_API std::optional<bool> metric_higher_is_better(std::string_view name);

/// Adds one judged question to `m`.
QAPLAN_API void accumulate(ChainMetrics& m, const ChainQuestion& q, const ChainResult& r);

/// Runs one question through prepare + execute and judges it. Never fails: a refused question
/// is recorded in `error` (and counted wrong).
QAPLAN_API ChainResult run_chain_question(const Planner& planner, const KbIndex& kb,
                                          const ChainSet& set, std::size_t question);

/// The evaluation settings file (eval_sets/chain/eval-config.json): the regression baseline and
/// tolerances, the calibration ceiling and grid, the recommendation rules.
///
///     {"format": "qaplan-chain-eval-config-1",
///      "regression": {"split": "test", "dataset": "chain-1", "kb": "kb-1",
///                     "baselines": {"off": {"<name>": {"baseline": x, "tolerance": t}, …},
///                                   "sha256:<model file>": {…}}},
///      "calibration": {"false_direct_ceiling": 0.1, "grid_step": 0.01, "min_threshold": 0.3},
///      "recommend": {"min_band_samples": 10, "min_band_positives": 3, "min_gain": 2,
///                    "noise_rate": 0.02, "latency_p95_budget_us": 1000}}
struct RegressionMetric {
  std::string name;
  double baseline = 0.0;
  double tolerance = 0.0;  ///< absolute; a worse value by more than this is a regression
};
/// A baseline is measured per router model: the intent model changes routes, sources and
/// thresholds, so one set of figures cannot describe both. The key is "off" ([model] disabled)
/// or "sha256:<hex>" of the model file; a run whose model has no baseline is refused
/// (kInvalidInput) rather than compared with another model's figures.
QAPLAN_API std::string regression_baseline_key(const Config& config);

struct ChainEvalConfig {
  std::string name;     ///< file name
  std::string sha256;   ///< of the file's bytes
  Split regression_split = Split::kTest;
  std::string regression_dataset;  ///< chain set version the baseline was measured on
  std::string regression_kb;       ///< KB version
  std::map<std::string, std::vector<RegressionMetric>> baselines;  ///< per model key
  double false_direct_ceiling = 0.1;
  double grid_step = 0.01;
  double min_threshold = 0.3;
  std::size_t min_band_samples = 10;
  std::size_t min_band_positives = 3;
  std::size_t min_gain = 2;
  double noise_rate = 0.02;
  double latency_p95_budget_us = 1000;
};
/// Strict parse. Errors: kInvalidInput naming the field (unknown metric names included).
QAPLAN_API Result<ChainEvalConfig> parse_chain_eval_config(const NamedText& file);
/// Reads and parses. Errors: kIo, and as parse_chain_eval_config.
QAPLAN_API Result<ChainEvalConfig> read_chain_eval_config(const std::filesystem::path& file);

/// A rules file with the SHA-256 of its bytes (reports pin the config they ran with).
struct RulesFile {
  Config config;
  std::string sha256;
};
/// Reads and parses a rules file (load_config semantics). Errors: kIo, kInvalidConfig.
QAPLAN_API Result<RulesFile> read_rules_file(const std::filesystem::path& path);

/// One metric checked against the baseline.
struct RegressionCheck {
  std::string name;
  double baseline = 0, tolerance = 0;
  std::optional<double> current;
  bool higher_is_better = true;
  bool regressed = false;  ///< worse than baseline by more than the tolerance (or absent)
};

/// A changed default evaluated on the same questions (the seed's "widen the pool" steps).
struct WhatIf {
  std::string parameter;  ///< "[retrieval_strategy.defaults] doc_top_k"
  double from = 0, to = 0;
  ChainMetrics dev, test;
};

/// The whole evaluation.
struct ChainReport {
  std::string dataset_name, dataset_version, dataset_sha256;
  std::string kb_version, kb_faq_sha256, kb_docs_sha256;
  std::size_t kb_faqs = 0, kb_chunks = 0, kb_sections = 0, faq_dimensions = 0, doc_dimensions = 0;
  std::string config_origin, config_sha256, model;
  std::string eval_config_name, eval_config_sha256;
  const ChainSet* set = nullptr;  ///< not owned
  std::vector<ChainResult> results;  ///< dataset order
  ChainMetrics dev, test, all;
  std::map<std::string, ChainMetrics> test_by_category, all_by_category;
  /// "single turn" / "follow-up" (a question with history): what the rewrite is measured on.
  std::map<std::string, ChainMetrics> test_by_turn, all_by_turn;
  std::string baseline_key;                 ///< regression_baseline_key(config)
  std::vector<RegressionCheck> regression;  ///< on ChainEvalConfig::regression_split
  bool regression_failed = false;
  /// Why nothing was gated ("" when the baseline applies): it was measured on another chain set
  /// or KB version (a host's own data) or with another router model. Never compared then.
  std::string regression_note;
  std::vector<WhatIf> what_ifs;
  double total_ms = 0;  ///< timing
};

/// Runs every question with a Planner built from `config` (its `origin` locates the model file),
/// then each what-if (doc_top_k + 4, final_context_top_n + 1 on [retrieval_strategy.defaults])
/// with a Planner built from an edited copy. `config_sha256` is recorded (SHA-256 of the file).
/// Errors: kInvalidConfig (config), kInvalidInput (the baseline names another dataset or KB
/// version than the one evaluated, or has no figures for the config's router model).
QAPLAN_API Result<ChainReport> run_eval_chain(const Config& config, std::string_view config_sha256,
                                              const KbIndex& kb, const ChainSet& set,
                                              const ChainEvalConfig& eval_config);

/// report.json (deterministic apart from "timing" members) and report.md (definitions, tables
/// with counts, the failures, charts referenced by file name).
QAPLAN_API std::string chain_report_json(const ChainReport& r, bool pretty = true);
QAPLAN_API std::string chain_report_markdown(const ChainReport& r);
/// The charts the Markdown embeds: {"recall-by-category.svg", …}, {"latency.svg", …}.
QAPLAN_API std::vector<std::pair<std::string, std::string>> chain_report_charts(const ChainReport& r);

}  // namespace qaplan
