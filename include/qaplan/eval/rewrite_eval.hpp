#pragma once
/// The rewrite evaluation behind `qaplan eval-rewrite` (docs/eval-rewrite.md): retrieval with and
/// without the analysis stage's rewrite and variants, on two collections.
///
///  - **follow-ups** (eval_sets/chain/followups-v1.jsonl, pinned by the registry beside it):
///    elliptical follow-ups with their history, retrieved over the knowledge base
///    (eval_sets/kb) by the plan executor (executor.hpp);
///  - **benchmark** (the frozen single-turn set of `qaplan bench`,
///    eval_sets/policy-retrieval-v1.json, pinned by eval_sets/fingerprints.json): its grounded
///    queries, retrieved over the in-scope chunks by the benchmark's hybrid (local-tfidf cosine
///    and BM25, both untruncated, RRF k 60). A single-turn question is not rewritten; only the
///    variants (glossary, hooks) can change anything there.
///
/// Arms, per question (every arm searches with the same Preparation's plan and scope):
///  - `raw`: the question as typed (normalized), no variants;
///  - `rewrite`: the analysis stage's rewrite only (`QueryAnalysis::rewrite.query`) — the
///    history is used to rewrite, never searched;
///  - `rewrite_variants`: what execute_plan(prep, analysis) searches without the analysis'
///    filters — the rewrite plus the glossary and hook variants (`execution_inputs`; a rewritten
///    fragment as typed is no path), each path adding its cosine and BM25 lists to one RRF, hits
///    deduplicated by parent (section). Variants are forced on (`use_query_variants = true` in every plan of
///    the evaluation planner) so the arm shows what variants add even where the shipped plan
///    leaves them off; each row records whether the shipped plan would have used them;
///  - `full` (follow-ups only): the `full_question` a person wrote, prepared on its own (no
///    history) and searched as it is — the ceiling.
///
/// Metrics (k ∈ {1, 5, 10}), each with its counts:
///  - an evidence item is an expected chunk (found when its section is among the first k
///    document hits) or the expected FAQ (found when among the first k FAQ hits); benchmark:
///    a relevant (source, section);
///  - Recall@k of a question = found items / items; macro-averaged over questions;
///  - MRR@10 = 1 / the best rank of any item within 10 (0 when none); averaged;
///  - cost ledger totals per arm: model calls, retrieval calls (paths × collections searched),
///    variant paths, hook failures, rejected variants;
///  - the gate: Recall@5(rewrite) / Recall@5(full) on the follow-ups ≥ `min_ratio` (0.90);
///    a ceiling of 0 fails the gate (nothing to compare with).
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

#include "qaplan/eval/bench.hpp"  // NamedText
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/export.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One labelled follow-up of followups-v1.jsonl.
struct FollowupQuestion {
  std::string id;
  std::vector<std::string> history;  ///< 1–3 earlier user turns, oldest first
  std::string question;              ///< the elliptical follow-up
  std::string full_question;         ///< the same question written out in full
  std::vector<std::string> expected_chunk_ids;
  std::optional<std::string> expected_faq_id;
  std::string family;  ///< pronoun | ellipsis | comparison | continuation | conditional
};

/// The families a follow-up may carry (README of eval_sets/chain).
inline constexpr std::string_view kFollowupFamilies[] = {"pronoun", "ellipsis", "comparison",
                                                         "continuation", "conditional"};

struct FollowupSet {
  std::string name;        ///< file name
  std::string version;     ///< registry version, e.g. "followups-1"
  std::string kb_version;  ///< the KB version its labels refer to
  std::string sha256;      ///< canonical fingerprint
  std::vector<FollowupQuestion> questions;
};

/// Parses followups JSONL strictly (exact fields, non-blank strings, 1–3 history turns, at least
/// one evidence item, a known family, unique ids) and then verifies it against the chain
/// registry (chain_eval.hpp `verify_chain_file`). Errors: kInvalidInput naming file:line and the
/// field; kFingerprintMismatch (unregistered file or other hash).
QAPLAN_API Result<FollowupSet> load_followup_set(const NamedText& file, const NamedText& registry);

/// Reads `file` and fingerprints.json beside it, then load_followup_set. Errors: kIo, as above.
QAPLAN_API Result<FollowupSet> read_followup_set(const std::filesystem::path& file);

/// Arms, in report order.
enum class RewriteArm { kRaw, kRewrite, kRewriteVariants, kFull };
inline constexpr std::size_t kRewriteArmCount = 4;
QAPLAN_API std::string_view to_string(RewriteArm arm) noexcept;
inline constexpr std::array<std::size_t, 3> kRewriteKs = {1, 5, 10};

/// Cost-ledger totals (analysis.hpp CostLedger, summed).
struct LedgerTotals {
  long model_calls = 0, retrieval_calls = 0, variant_paths = 0, hook_failures = 0,
       variants_rejected = 0;
};

/// One arm of one question.
struct ArmOutcome {
  bool ran = false;    ///< false: the arm does not apply (full on the benchmark)
  std::string query;   ///< the main query searched
  std::vector<std::string> variants;  ///< other paths searched with it
  std::string hit_type;  ///< follow-ups: the execution's hit type ("" on the benchmark)
  std::string error;     ///< the arm could not run (counted as nothing found)
  /// Per evidence item (RewriteRow::items order): its 1-based rank, nullopt when not retrieved.
  std::vector<std::optional<std::size_t>> ranks;
  LedgerTotals cost;
};

/// One question with every arm.
struct RewriteRow {
  std::string collection;  ///< "followups" | "benchmark"
  std::string id;
  std::string family;      ///< follow-up family, "single_turn" on the benchmark
  std::string question;
  std::vector<std::string> history;
  std::string full_question;  ///< "" on the benchmark
  std::vector<std::string> items;  ///< evidence items: "faq:<id>", "chunk:<id>", "section:<source>/<section>"
  std::string intent;        ///< of the question's Preparation ("" for a direct answer)
  bool rewritten = false;
  std::string rewrite_by;
  std::vector<std::string> rewrite_reasons;
  std::vector<std::string> variant_kinds;  ///< the analysis paths, in order
  bool shipped_plan_variants = false;      ///< the shipped config's plan has use_query_variants
  std::array<ArmOutcome, kRewriteArmCount> arms;
};

/// Recall@k and MRR of one group under one arm.
struct ArmMetrics {
  std::size_t questions = 0;
  std::size_t items = 0;
  std::array<std::size_t, kRewriteKs.size()> items_found{};  ///< micro counts
  std::array<double, kRewriteKs.size()> recall_sum{};         ///< macro sums
  double rr_sum = 0.0;
  std::size_t errors = 0;
  LedgerTotals cost;
  std::optional<double> recall(std::size_t k_index) const;
  std::optional<double> mrr() const;
};

/// Recall@k of one row under one arm (found items / items), and its reciprocal rank within 10.
QAPLAN_API double row_recall(const RewriteRow& row, RewriteArm arm, std::size_t k);
QAPLAN_API double row_reciprocal_rank(const RewriteRow& row, RewriteArm arm);

/// Metrics of one collection: per arm overall and per family.
struct CollectionMetrics {
  std::array<ArmMetrics, kRewriteArmCount> all;
  std::map<std::string, std::array<ArmMetrics, kRewriteArmCount>> by_family;
  /// Questions the analysis stage rewrote (overall and per family): a follow-up the planner
  /// does not classify as one is searched as typed.
  std::size_t rewritten = 0;
  std::map<std::string, std::size_t> rewritten_by_family;
};

struct RewriteEvalOptions {
  double min_ratio = 0.90;  ///< gate: Recall@5(rewrite) / Recall@5(full)
};

/// The whole evaluation.
struct RewriteEvalReport {
  std::string followups_name, followups_version, followups_sha256;
  std::string kb_version, kb_faq_sha256, kb_docs_sha256;
  std::string bench_name, bench_version, bench_dataset_sha256, bench_corpus_sha256;
  std::size_t bench_scoped_chunks = 0;
  std::string config_sha256, model;
  RewriteEvalOptions options;
  std::vector<RewriteRow> rows;  ///< follow-ups (file order), then benchmark (file order)
  CollectionMetrics followups, benchmark;
  std::optional<double> ratio;  ///< Recall@5 rewrite / full on the follow-ups
  bool gate_passed = false;
  double total_ms = 0.0;  ///< timing
};

/// Runs both collections. `bench` may be null (follow-ups only). Errors: kInvalidConfig
/// (config), kFingerprintMismatch (labels of another KB version), kInvalidInput (an unknown id
/// in the labels, a benchmark label out of scope), kInternal.
QAPLAN_API Result<RewriteEvalReport> run_eval_rewrite(const Config& config,
                                                      std::string_view config_sha256,
                                                      const KbIndex& kb, const FollowupSet& set,
                                                      const NamedText* bench_dataset,
                                                      const NamedText* bench_registry,
                                                      const RewriteEvalOptions& options = {});

/// report.json (deterministic apart from "timing") and report.md.
QAPLAN_API std::string rewrite_report_json(const RewriteEvalReport& r, bool pretty = true);
QAPLAN_API std::string rewrite_report_markdown(const RewriteEvalReport& r);

}  // namespace qaplan
