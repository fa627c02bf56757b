#pragma once
// Stage — gateway: arbitrates between the rule candidate and an optional model candidate.
// Today only the rule candidate exists: confidence = rule_score and decision_policy =
// rule_only. IntentResult already carries both candidates so a model can be added without
// changing the types.
#include "qaplan/planning/types.hpp"

namespace qaplan::internal {

IntentResult decide_intent(const IntentCandidate& rule_candidate);

}  // namespace qaplan::internal
