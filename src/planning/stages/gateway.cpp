#include "planning/stages/gateway.hpp"

namespace qaplan::internal {

IntentResult decide_intent(IntentCandidate rule, std::optional<IntentCandidate> model,
                           std::string_view model_error, const GatewayConfig& g,
                           std::optional<double> override_min) {
  IntentResult r;
  r.intent = rule.intent;
  r.rule_score = rule.score;
  r.confidence = rule.score;
  r.suggested_source = rule.suggested_source;
  r.matched_rules = rule.matched_rules;
  if (!model_error.empty()) {
    r.decision_policy = DecisionPolicy::kModelFailed;
    r.model_error = std::string(model_error);
  } else if (override_min && model && model->intent == Intent::kFollowUp &&
             rule.intent != Intent::kFollowUp && model->score >= *override_min) {
    r.decision_policy = DecisionPolicy::kModelOverride;
    r.intent = Intent::kFollowUp;
    r.confidence = model->score;
  } else if (!model || model->score < g.model_min_score) {
    // A model too unsure to count is recorded but changes nothing.
    r.decision_policy = DecisionPolicy::kRuleOnly;
  } else if (rule.score < g.weak_rule_below && rule.vetoed && model->intent != rule.intent) {
    // The fallback was chosen on purpose (an unresolved 它 / 这个): a disagreeing model is a
    // conflict, and the rule's conservative intent stands.
    r.decision_policy = DecisionPolicy::kConflict;
    r.confidence = g.conflict_final_score;
  } else if (rule.score < g.weak_rule_below) {
    // A weak rule is the fallback (default_knowledge): it judged nothing, so a model that names
    // another intent decides, and one that names the same intent corroborates nothing — the
    // low score and its conservative plan stay (帮我分析一下这个问题).
    if (model->intent != rule.intent) {
      r.decision_policy = DecisionPolicy::kModelOverride;
      r.intent = model->intent;
      r.confidence = model->score;
    } else {
      r.decision_policy = DecisionPolicy::kRuleOnly;
    }
  } else if (model->intent == rule.intent && rule.intent == Intent::kFollowUp) {
    // A follow-up the model agrees with is still incomplete until rewritten: it keeps the rule's
    // score and so the decision-score guard (那审批呢 → ..._rule_score_guard; docs/guide.md).
    r.decision_policy = DecisionPolicy::kRuleOnly;
  } else if (model->intent == rule.intent) {
    r.decision_policy = DecisionPolicy::kRuleModelAgree;
    r.confidence = g.agree_score;
  } else {
    r.decision_policy = DecisionPolicy::kConflict;
    r.confidence = g.conflict_final_score;
  }
  r.requires_rewrite = r.intent == Intent::kFollowUp;
  // The candidates are taken by value and moved into the record: prepare() hands over its own.
  r.rule_candidate = std::move(rule);
  r.model_candidate = std::move(model);
  return r;
}

}  // namespace qaplan::internal
