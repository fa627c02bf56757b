#pragma once
// Stage — follow-up: whether a turn with history continues it. The rules' candidate
// (classify_intent) stands corrected where the turn reads as standalone after all:
//  - a demonstrative before a noun of the turn's own, in a whole question on other sources than
//    the previous turn's, is a topic switch (stages/topic_switch.hpp);
//  - a pronoun whose antecedent stands before it in the turn, where the model too reads the turn
//    as standalone, does not point back.
// Where the rules are silent, the model's dependent head may make the turn a follow-up — unless
// the turn names a topic of its own on other sources than the previous turn's (Is Zoom available
// on company laptops? after a leave question); and a turn that names no topic at all (no source
// keyword or term, no topic-switch cue) is the head's call at [model] open_dependent_min_score.
#include <vector>

#include "planning/lexicon.hpp"
#include "planning/model/model_view.hpp"
#include "planning/stages/domain.hpp"
#include "qaplan/planning/types.hpp"

namespace qaplan::internal {

/// One turn as the follow-up stage reads it. `reader` is null without a domain lexicon; `domain`
/// is its reading of `q` (empty without one); `history` is non-empty.
struct TurnInContext {
  const ScannedQuery& q;
  const std::vector<NormalizedQuery>& history;
  const Lexicon& lex;
  const DomainReader* reader;
  const DomainView& domain;
  const std::optional<std::string>& source;  ///< the turn's scope so far
};

struct FollowUpArbitration {
  IntentCandidate rule;          ///< the rules' candidate, corrected as above
  bool model_may_follow = true;  ///< the dependent head may make the turn a follow-up
  bool dependence_open = false;  ///< the head decides at [model] open_dependent_min_score
  /// The dependent head's score at which its follow-up overrides the rules' standalone reading:
  /// open_dependent_min_score for an open turn, sure_dependent_min_score for one that names a
  /// topic; none after a topic-switch cue or when the head may not follow.
  std::optional<double> override_min;
};

/// `model` is the built-in model's verdict (off when there is none).
FollowUpArbitration arbitrate_follow_up(IntentCandidate rule, const TurnInContext& turn,
                                        const ModelVerdict& model);

}  // namespace qaplan::internal
