#pragma once
/// The plan: `build_retrieval_plan()` turns an IntentResult into an immutable RetrievalPlan —
/// the [retrieval_strategy.defaults], then every [[retrieval_strategy.patches]] entry in config
/// order whose condition holds (shipped order, docs/config.md: intent → short query → decision
/// score → category → table). `reason` is the fired patches' tags joined by "_"; which patch
/// changed what is recorded in a separate PlanTrace, never in the plan.
///
/// The patchable part of the plan is `PlanKnobs`, described once by `kPlanKnobs`: the config
/// reader, validation, patch application, JSON output and the tests all loop over that table,
/// so adding a knob is two edits — a member here and a row in the table.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// The 13 plan fields that [retrieval_strategy.defaults] sets and patches change. Used as the
/// defaults in Config and as the knobs of a RetrievalPlan.
struct PlanKnobs {
  bool run_faq = true;               ///< search the FAQ collection
  bool run_doc = true;               ///< search the document collection
  int faq_top_k = 20;                ///< FAQ candidates
  int doc_top_k = 20;                ///< document candidates
  bool rerank = true;                ///< rerank candidates afterwards
  double faq_direct_threshold = 0.72;  ///< FAQ answered directly at or above this score
  int final_context_top_n = 4;       ///< contexts handed to the answer model
  double min_context_score = 0.30;   ///< contexts below this relevance are dropped
  int max_context_chars = 6000;      ///< all contexts together
  int max_context_doc_chars = 1500;  ///< one document context
  bool use_query_variants = false;   ///< the rewrite stage generates query variants
  bool prefer_table = false;         ///< prefer table / list / field evidence
  bool faq_direct_exact_only = false;  ///< only an exact FAQ match may be answered directly
  friend bool operator==(const PlanKnobs&, const PlanKnobs&) = default;
};

/// What values a knob takes; derived from its member's type.
enum class KnobKind {
  kFlag,   ///< bool; patches may only `set` it
  kCount,  ///< int > 0
  kUnit,   ///< double in [0, 1]
};

/// One row of the knob table.
struct KnobInfo {
  std::string_view name;  ///< the spelling in TOML, JSON and traces
  std::variant<bool PlanKnobs::*, int PlanKnobs::*, double PlanKnobs::*> member;

  constexpr KnobKind kind() const noexcept { return static_cast<KnobKind>(member.index()); }
};

/// Every knob, in output order.
inline constexpr std::array<KnobInfo, 13> kPlanKnobs{{
    {"run_faq", &PlanKnobs::run_faq},
    {"run_doc", &PlanKnobs::run_doc},
    {"faq_top_k", &PlanKnobs::faq_top_k},
    {"doc_top_k", &PlanKnobs::doc_top_k},
    {"rerank", &PlanKnobs::rerank},
    {"faq_direct_threshold", &PlanKnobs::faq_direct_threshold},
    {"final_context_top_n", &PlanKnobs::final_context_top_n},
    {"min_context_score", &PlanKnobs::min_context_score},
    {"max_context_chars", &PlanKnobs::max_context_chars},
    {"max_context_doc_chars", &PlanKnobs::max_context_doc_chars},
    {"use_query_variants", &PlanKnobs::use_query_variants},
    {"prefer_table", &PlanKnobs::prefer_table},
    {"faq_direct_exact_only", &PlanKnobs::faq_direct_exact_only},
}};

/// Index into kPlanKnobs.
using KnobId = std::uint8_t;

/// The knob called `name`, if any.
QAPLAN_API std::optional<KnobId> find_knob(std::string_view name) noexcept;
/// A knob's value as a number (flags 0/1).
QAPLAN_API double get_knob(const PlanKnobs& k, KnobId id) noexcept;
/// Sets a knob from a number (flags: non-zero = true; counts: truncated).
QAPLAN_API void set_knob(PlanKnobs& k, KnobId id, double value) noexcept;
/// "" when `value` is valid for the knob's kind, else the reason ("must be an integer", …).
QAPLAN_API std::string check_knob_value(KnobId id, double value);

/// How a patch changes a knob: "set", "at_least" (raise to ≥), "at_most" (lower to ≤).
enum class PatchOp { kSet, kAtLeast, kAtMost };
QAPLAN_API std::string_view to_string(PatchOp op) noexcept;

/// The seed's 17 fields: the 13 knobs plus four derived from the question. Immutable: only
/// build_retrieval_plan() makes one.
class RetrievalPlan {
 public:
  const PlanKnobs& knobs() const noexcept { return knobs_; }
  QuestionCategory question_category() const noexcept { return question_category_; }
  double intent_rule_score() const noexcept { return intent_rule_score_; }
  double intent_decision_score() const noexcept { return intent_decision_score_; }
  /// Fired patch tags joined by "_" ("default" when none fired).
  const std::string& reason() const noexcept { return reason_; }

  friend bool operator==(const RetrievalPlan&, const RetrievalPlan&) = default;

 private:
  friend struct PlanBuilder;
  PlanKnobs knobs_;
  QuestionCategory question_category_ = QuestionCategory::kDefault;
  double intent_rule_score_ = 0;
  double intent_decision_score_ = 0;
  std::string reason_;
};

/// One knob change made by a fired patch (values as numbers; flags are 0/1).
struct PlanChange {
  KnobId knob = 0;
  PatchOp op = PatchOp::kSet;
  double value = 0;   ///< the patch's operand
  double before = 0;  ///< knob value before the patch
  double after = 0;   ///< knob value after (equal to before when the bound already held)
  friend bool operator==(const PlanChange&, const PlanChange&) = default;
};

struct FiredPatch {
  std::string id;
  std::string tag;
  std::vector<PlanChange> changes;
  friend bool operator==(const FiredPatch&, const FiredPatch&) = default;
};

/// Which patches fired, in order, and what each changed.
struct PlanTrace {
  std::vector<FiredPatch> fired;
  friend bool operator==(const PlanTrace&, const PlanTrace&) = default;
};

struct PlanResult {
  RetrievalPlan plan;
  PlanTrace trace;
};

/// What the plan rules look at besides the intent.
struct PlanSignals {
  int query_units = 0;
  QuestionCategory category = QuestionCategory::kDefault;
  bool prefer_table = false;
};

struct RetrievalStrategyConfig;

/// Builds the plan. Error kInvalidInput when `route` is a direct answer: direct answers never
/// get a plan (a direct-answer result passed in is a caller bug, surfaced early).
QAPLAN_API Result<PlanResult> build_retrieval_plan(const RouteDecision& route,
                                                   const IntentResult& intent,
                                                   const PlanSignals& signals,
                                                   const RetrievalStrategyConfig& strategy);

}  // namespace qaplan
