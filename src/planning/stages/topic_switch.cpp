#include "planning/stages/topic_switch.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace qaplan::internal {
namespace {

// The sources a decision names: its scope, else its candidates.
std::vector<std::string> named_sources(const SourceDecision& d) {
  if (d.scope.value) return {*d.scope.value};
  return d.candidates;
}

}  // namespace

// A demonstrative right before a source keyword (这个报销单, 那个vpn), an interrogative, and no
// person pronoun.
bool points_at_own_noun(const ScannedQuery& q, const LexiconIds& ids) {
  if (q.has_in_content(ids.person_pronoun) || !q.has_in_content(ids.ev_interrogative)) return false;
  for (const CueHit& d : q.hits) {
    if (d.list != ids.thing_pronoun) continue;
    for (const CueHit& k : q.hits)
      if (k.begin == d.end &&
          std::find(ids.source.begin(), ids.source.end(), k.list) != ids.source.end())
        return true;
  }
  return false;
}

bool switches_topic(const SourceDecision& turn, const SourceDecision& previous) {
  const std::vector<std::string> mine = named_sources(turn);
  const std::vector<std::string> before = named_sources(previous);
  return !mine.empty() && !before.empty() &&
         std::none_of(mine.begin(), mine.end(), [&](const std::string& s) {
           return std::find(before.begin(), before.end(), s) != before.end();
         });
}

}  // namespace qaplan::internal
