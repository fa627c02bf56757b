#pragma once
// Stage — gateway: arbitrates between the rule candidate and a model candidate
// (the built-in classifier's or a host IntentModel's). Policies, [intent_gateway] numbers:
//   no model candidate, or its score < model_min_score     → rule_only (confidence = rule score)
//   model error / timeout                                  → model_failed (the rule stands)
//   weak rule (< weak_rule_below), different intent        → model_override (model's intent
//                                                            and score)
//   weak rule, same intent                                 → rule_only (a fallback agreeing is
//                                                            no corroboration)
//   strong rule, same intent                               → rule_model_agree (agree_score)
//   strong rule, different intent                          → conflict (rule's intent,
//                                                            conflict_final_score)
//   `override_min` set, model FOLLOW_UP at ≥ it            → model_override: the follow-up
//                                                            rules are silent on a turn with
//                                                            history and no topic of its own
//                                                            (需要提前几天 after 年假怎么申请),
//                                                            or the head is near-sure of one
//                                                            that names a topic (分几个等级);
//                                                            whether a turn needs its history
//                                                            is what the dependent head was
//                                                            trained for
#include <optional>
#include <string_view>

#include "qaplan/planning/config.hpp"
#include "qaplan/planning/types.hpp"

namespace qaplan::internal {

IntentResult decide_intent(IntentCandidate rule, std::optional<IntentCandidate> model,
                           std::string_view model_error, const GatewayConfig& g,
                           std::optional<double> override_min = std::nullopt);

}  // namespace qaplan::internal
