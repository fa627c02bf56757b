#pragma once
/// The values the planning stages hand to each other and to the host:
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

/// Intents: "FAQ_QUERY", "KNOWLEDGE_QUERY", "FOLLOW_UP".
enum class Intent { kFaqQuery, kKnowledgeQuery, kFollowUp };
QAPLAN_API std::string_view to_string(Intent intent) noexcept;
QAPLAN_API Result<Intent> parse_intent(std::string_view s);

/// Question categories (risk labels): "default", "pricing", "compliance",
/// "troubleshooting", "summary".
enum class QuestionCategory { kDefault, kPricing, kCompliance, kTroubleshooting, kSummary };
QAPLAN_API std::string_view to_string(QuestionCategory c) noexcept;
QAPLAN_API Result<QuestionCategory> parse_question_category(std::string_view s);

/// "direct_answer" | "retrieval".
enum class Route { kDirectAnswer, kRetrieval };
QAPLAN_API std::string_view to_string(Route r) noexcept;

/// Why a message is answered directly (its dialogue act), or "needs_retrieval":
/// "greeting", "thanks", "goodbye", "acknowledgement", "chit_chat" (small talk and questions about
/// the assistant itself), "handoff" (asks for a person), "out_of_scope" (asks for a service the
/// knowledge base does not offer), "unclear" (emoji, punctuation, a lone character),
/// "source_boundary" (about a source the scenario does not allow), "needs_retrieval".
enum class RouteReason {
  kGreeting,
  kThanks,
  kGoodbye,
  kAcknowledgement,
  kChitChat,
  kHandoff,
  kOutOfScope,
  kUnclear,
  kSourceBoundary,
  kNeedsRetrieval,
};
QAPLAN_API std::string_view to_string(RouteReason r) noexcept;
QAPLAN_API Result<RouteReason> parse_route_reason(std::string_view s);

/// Who decided a stage's outcome: the config's rules, the model (in the grey zone the rules leave
/// open), or nobody (a default). "rule" | "model" | "default".
enum class DecidedBy { kRule, kModel, kDefault };
QAPLAN_API std::string_view to_string(DecidedBy d) noexcept;

/// How the gateway arrived at the final intent:
/// "rule_only"        no usable model candidate (model off, or its score below model_min_score),
///                    or a weak fallback rule the model merely agrees with;
/// "rule_model_agree" a rule (not the fallback) and the model name the same intent
///                    (confidence = agree_score, 0.99);
/// "model_override"   a weak rule (below weak_rule_below) and a model at or above model_min_score
///                    disagree: the model's intent, confidence = the model's score;
/// "conflict"         a strong rule and a confident model disagree: the rule's intent,
///                    confidence = conflict_final_score (0.68);
/// "model_failed"     the model raised an error or ran out of time: the rule stands, recorded.
enum class DecisionPolicy { kRuleOnly, kRuleModelAgree, kModelOverride, kConflict, kModelFailed };
QAPLAN_API std::string_view to_string(DecisionPolicy p) noexcept;
QAPLAN_API Result<DecisionPolicy> parse_decision_policy(std::string_view s);

/// A validated, normalized question (text stage).
struct NormalizedQuery {
  std::string text;     ///< NFKC_Casefold, trimmed, whitespace collapsed (UTF-8)
  int query_units = 0;  ///< Han characters + ASCII alphanumeric runs (short-query rule)
};

/// The route stage's decision.
struct RouteDecision {
  Route route = Route::kRetrieval;
  RouteReason reason = RouteReason::kNeedsRetrieval;
  std::string detail;  ///< what decided it: the matched phrase, the model's act, the source
  std::string reply;   ///< [route.replies] text for direct answers, empty for retrieval
  DecidedBy decided_by = DecidedBy::kDefault;
  double score = 0.0;  ///< the model's probability when decided_by = model, else 0
};

/// One candidate decision (from the rules, or from a model).
struct IntentCandidate {
  Intent intent = Intent::kKnowledgeQuery;
  double score = 0.0;
  std::string rule_id;                     ///< the deciding rule, or the model's name
  std::vector<std::string> matched_rules;  ///< every rule whose conditions held, in config order
  bool requires_rewrite = false;           ///< FOLLOW_UP: rewrite with history before retrieval
  std::optional<std::string> suggested_source;
  /// A rule held but its unless_contains_any vetoed it (这个 / 它 with nothing to refer to): the
  /// fallback is a deliberate judgement, not a blank, so a model may not override it.
  bool vetoed = false;
};

/// The final intent decision.
struct IntentResult {
  Intent intent = Intent::kKnowledgeQuery;
  double rule_score = 0.0;  ///< strength of the rule candidate (diagnostic)
  double confidence = 0.0;  ///< decision score after rule/model arbitration; drives plan guards
  bool requires_rewrite = false;
  std::optional<std::string> suggested_source;
  DecisionPolicy decision_policy = DecisionPolicy::kRuleOnly;
  std::vector<std::string> matched_rules;
  IntentCandidate rule_candidate;
  std::optional<IntentCandidate> model_candidate;  ///< empty with the model off
  std::string model_error;  ///< why the model failed (policy model_failed), else empty
};

}  // namespace qaplan
