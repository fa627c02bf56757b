#pragma once
// Stage — intent: the rule candidate. [[intent.rules]] are tried in config order; the first rule
// whose conditions all hold decides the intent and its rule_score; every matching rule is listed
// in matched_rules. No rule → the `default_knowledge` fallback (KNOWLEDGE_QUERY, 0.60).
// FOLLOW_UP rules require history, so a question without history is never a follow-up.
#include <optional>
#include <string>

#include "planning/lexicon.hpp"

namespace qaplan::internal {

/// The rule candidate for a question. `has_history`: the request carried earlier turns;
/// `suggested_source`: the source the question's keywords suggest (carried in the candidate).
IntentCandidate classify_intent(const ScannedQuery& q, bool has_history,
                                std::optional<std::string> suggested_source, const Lexicon& lex);

}  // namespace qaplan::internal
