#pragma once
/// The values the planning stages hand to each other and to the host (seed 000 names):
/// `RouteDecision` (route stage), `IntentCandidate` / `IntentResult` (intent stage and gateway),
/// the enums they use, and `NormalizedQuery` (text stage). Every enum has `to_string` and a
/// `parse_*` reading the same spelling table, so TOML, JSON and the CLI agree.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// Intents (seed 000 §05): "FAQ_QUERY", "KNOWLEDGE_QUERY", "FOLLOW_UP".
enum class Intent { kFaqQuery, kKnowledgeQuery, kFollowUp };
QAPLAN_API std::string_view to_string(Intent intent) noexcept;
QAPLAN_API Result<Intent> parse_intent(std::string_view s);

/// Question categories (risk labels, seed 000 §06): "default", "pricing", "compliance",
/// "troubleshooting", "summary".
enum class QuestionCategory { kDefault, kPricing, kCompliance, kTroubleshooting, kSummary };
QAPLAN_API std::string_view to_string(QuestionCategory c) noexcept;
QAPLAN_API Result<QuestionCategory> parse_question_category(std::string_view s);

/// "direct_answer" | "retrieval".
enum class Route { kDirectAnswer, kRetrieval };
QAPLAN_API std::string_view to_string(Route r) noexcept;

/// "greeting" | "handoff" | "out_of_scope" | "source_boundary" | "needs_retrieval".
enum class RouteReason { kGreeting, kHandoff, kOutOfScope, kSourceBoundary, kNeedsRetrieval };
QAPLAN_API std::string_view to_string(RouteReason r) noexcept;

/// How the gateway arrived at the final intent: "rule_only".
enum class DecisionPolicy { kRuleOnly };
QAPLAN_API std::string_view to_string(DecisionPolicy p) noexcept;

/// A validated, normalized question (text stage).
struct NormalizedQuery {
  std::string text;     ///< NFKC_Casefold, trimmed, whitespace collapsed (UTF-8)
  int query_units = 0;  ///< Han characters + ASCII alphanumeric runs (short-query rule)
};

/// The route stage's decision.
struct RouteDecision {
  Route route = Route::kRetrieval;
  RouteReason reason = RouteReason::kNeedsRetrieval;
  std::string detail;  ///< what decided it: the matched phrase or the out-of-bounds source
  std::string reply;   ///< [route.replies] text for direct answers, empty for retrieval
};

/// One candidate decision (from the rules, or from a model).
struct IntentCandidate {
  Intent intent = Intent::kKnowledgeQuery;
  double score = 0.0;
  std::string rule_id;                     ///< the deciding rule ("default_knowledge" for fallback)
  std::vector<std::string> matched_rules;  ///< every rule whose conditions held, in config order
  bool requires_rewrite = false;           ///< FOLLOW_UP: rewrite with history before retrieval
  std::optional<std::string> suggested_source;
};

/// The final intent decision (seed 000 §05 IntentResult).
struct IntentResult {
  Intent intent = Intent::kKnowledgeQuery;
  double rule_score = 0.0;  ///< strength of the rule candidate (diagnostic)
  double confidence = 0.0;  ///< decision score after rule/model arbitration; drives plan guards
  bool requires_rewrite = false;
  std::optional<std::string> suggested_source;
  DecisionPolicy decision_policy = DecisionPolicy::kRuleOnly;
  std::vector<std::string> matched_rules;
  IntentCandidate rule_candidate;
  std::optional<IntentCandidate> model_candidate;  ///< empty until an intent model is plugged in
};

}  // namespace qaplan
