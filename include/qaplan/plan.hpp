#pragma once
/// Stage — plan: build_retrieval_plan() turns an IntentResult into an immutable RetrievalPlan:
/// the [retrieval_strategy.defaults], then every [[retrieval_strategy.patches]] entry in config
/// order whose condition holds (shipped order, from seed 000: intent → short query → decision
/// score → category → table). `reason` is the fired patches' tags joined by "_"; which patch
/// changed what is recorded in a separate PlanTrace, never in the plan.
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/config.hpp"
#include "qaplan/export.hpp"
#include "qaplan/intent.hpp"
#include "qaplan/route.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// The seed's 17 fields, and nothing else. Immutable: only build_retrieval_plan() makes one.
class RetrievalPlan {
 public:
  bool run_faq() const noexcept { return run_faq_; }
  bool run_doc() const noexcept { return run_doc_; }
  int faq_top_k() const noexcept { return faq_top_k_; }
  int doc_top_k() const noexcept { return doc_top_k_; }
  bool rerank() const noexcept { return rerank_; }
  double faq_direct_threshold() const noexcept { return faq_direct_threshold_; }
  int final_context_top_n() const noexcept { return final_context_top_n_; }
  double min_context_score() const noexcept { return min_context_score_; }
  int max_context_chars() const noexcept { return max_context_chars_; }
  int max_context_doc_chars() const noexcept { return max_context_doc_chars_; }
  bool use_query_variants() const noexcept { return use_query_variants_; }
  QuestionCategory question_category() const noexcept { return question_category_; }
  bool prefer_table() const noexcept { return prefer_table_; }
  bool faq_direct_exact_only() const noexcept { return faq_direct_exact_only_; }
  double intent_rule_score() const noexcept { return intent_rule_score_; }
  double intent_decision_score() const noexcept { return intent_decision_score_; }
  const std::string& reason() const noexcept { return reason_; }

  friend bool operator==(const RetrievalPlan&, const RetrievalPlan&) = default;

 private:
  friend struct PlanBuilder;
  bool run_faq_ = true;
  bool run_doc_ = true;
  int faq_top_k_ = 0;
  int doc_top_k_ = 0;
  bool rerank_ = true;
  double faq_direct_threshold_ = 0;
  int final_context_top_n_ = 0;
  double min_context_score_ = 0;
  int max_context_chars_ = 0;
  int max_context_doc_chars_ = 0;
  bool use_query_variants_ = false;
  QuestionCategory question_category_ = QuestionCategory::kDefault;
  bool prefer_table_ = false;
  bool faq_direct_exact_only_ = false;
  double intent_rule_score_ = 0;
  double intent_decision_score_ = 0;
  std::string reason_;
};

/// One field change made by a fired patch (values as numbers; booleans are 0/1).
struct PlanChange {
  PlanField field = PlanField::kDocTopK;
  PatchOp op = PatchOp::kSet;
  double value = 0;   ///< the patch's operand
  double before = 0;  ///< field value before the patch
  double after = 0;   ///< field value after (equal to before when the bound already held)
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

/// Builds the plan. Error kInvalidInput when `route` is a direct answer: direct answers never
/// get a plan (seed 000: a direct-answer result passed in is a caller bug, surfaced early).
QAPLAN_API Result<PlanResult> build_retrieval_plan(const RouteDecision& route,
                                                   const IntentResult& intent,
                                                   const PlanSignals& signals,
                                                   const RetrievalStrategyConfig& strategy);

}  // namespace qaplan
