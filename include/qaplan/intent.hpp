#pragma once
/// Stage — intent: the rule candidate. [[intent.rules]] are tried in config order; the first rule
/// whose conditions all hold decides the intent and its rule_score; every matching rule is listed
/// in matched_rules. No rule → the `default_knowledge` fallback (KNOWLEDGE_QUERY, 0.60).
/// FOLLOW_UP rules require history, so a question without history is never a follow-up.
#include <optional>
#include <string>
#include <vector>

#include "qaplan/config.hpp"
#include "qaplan/export.hpp"
#include "qaplan/lexicon.hpp"

namespace qaplan {

/// One candidate decision (from the rules, or — later — from a model).
struct IntentCandidate {
  Intent intent = Intent::kKnowledgeQuery;
  double score = 0.0;
  std::string rule_id;                     ///< the deciding rule ("default_knowledge" for fallback)
  std::vector<std::string> matched_rules;  ///< every rule whose conditions held, in config order
  bool requires_rewrite = false;           ///< FOLLOW_UP: rewrite with history before retrieval
  std::optional<std::string> suggested_source;
};

/// How the gateway arrived at the final intent.
enum class DecisionPolicy { kRuleOnly };
QAPLAN_API std::string_view to_string(DecisionPolicy p) noexcept;  ///< "rule_only"

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
  std::optional<IntentCandidate> model_candidate;  ///< empty until an IntentModel is plugged in
};

/// The rule candidate for a question. `has_history`: the request carried earlier turns.
QAPLAN_API IntentCandidate classify_intent(const QueryAnalysis& q, bool has_history,
                                           const Lexicon& lex);

}  // namespace qaplan
