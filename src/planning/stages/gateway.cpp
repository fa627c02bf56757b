#include "planning/stages/gateway.hpp"

namespace qaplan::internal {

IntentResult decide_intent(const IntentCandidate& rule_candidate) {
  IntentResult r;
  r.intent = rule_candidate.intent;
  r.rule_score = rule_candidate.score;
  // rule_only: with no model candidate the rule score is the decision score.
  r.confidence = rule_candidate.score;
  r.requires_rewrite = rule_candidate.requires_rewrite;
  r.suggested_source = rule_candidate.suggested_source;
  r.decision_policy = DecisionPolicy::kRuleOnly;
  r.matched_rules = rule_candidate.matched_rules;
  r.rule_candidate = rule_candidate;
  return r;
}

}  // namespace qaplan::internal
