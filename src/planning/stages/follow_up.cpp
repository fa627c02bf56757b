#include "planning/stages/follow_up.hpp"

#include <algorithm>

#include "planning/stages/intent.hpp"
#include "planning/stages/topic_switch.hpp"

namespace qaplan::internal {
namespace {

// A source keyword in the turn's content, or a KB term of some source: a topic of its own.
bool names_own_topic(const TurnInContext& t) {
  for (std::uint32_t id : t.lex.ids().source)
    if (t.q.has_in_content(id)) return true;
  return std::any_of(t.domain.sources.terms.begin(), t.domain.sources.terms.end(),
                     [](int n) { return n > 0; });
}

// The turn's and the previous turn's words (no model) name disjoint sources.
bool switches_from_previous(const TurnInContext& t) {
  return switches_topic(
      decide_source(t.q, ModelVerdict{}, t.lex, t.reader ? &t.domain.sources : nullptr),
      source_of_turn(t.history.back(), t.lex, t.reader));
}

// The rule candidate of the turn read without its history, naming the rule that made it so.
IntentCandidate standalone(const TurnInContext& t, const char* why) {
  IntentCandidate rule = classify_intent(t.q, false, t.source, t.lex);
  rule.matched_rules.push_back(why);
  return rule;
}

}  // namespace

FollowUpArbitration arbitrate_follow_up(IntentCandidate rule, const TurnInContext& t,
                                        const ModelVerdict& model) {
  const double dependent_min = t.lex.config().model.dependent_min_score;
  FollowUpArbitration a;
  if (rule.intent == Intent::kFollowUp && points_at_own_noun(t.q, t.lex.ids()) &&
      switches_from_previous(t))
    rule = standalone(t, "topic_switch_other_source");
  if (model.on() && rule.intent == Intent::kFollowUp && model.dependent_score() < dependent_min &&
      antecedent_in_turn(t.q, t.lex.ids()))
    rule = standalone(t, "antecedent_in_turn");
  const bool own_topic = names_own_topic(t);
  if (model.on() && rule.intent != Intent::kFollowUp && own_topic &&
      model.dependent_score() >= dependent_min && switches_from_previous(t)) {
    a.model_may_follow = false;
    rule.matched_rules.push_back("topic_switch_other_source");
  }
  a.dependence_open = rule.intent != Intent::kFollowUp &&
                      !t.q.has_in_content(t.lex.ids().topic_switch) && !own_topic;
  a.rule = std::move(rule);
  return a;
}

}  // namespace qaplan::internal
