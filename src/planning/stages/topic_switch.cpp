#include "planning/stages/topic_switch.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

// The sources a decision names: its scope, else its candidates.
std::vector<std::string> named_sources(const SourceDecision& d) {
  if (d.scope.value) return {*d.scope.value};
  return d.candidates;
}

bool pronoun(const CueHit& h, const LexiconIds& ids) {
  return h.list == ids.person_pronoun || h.list == ids.thing_pronoun;
}

bool clause_break(std::int32_t cp) {
  switch (cp) {
    case ',': case '.': case ';': case '?': case '!': case ':': case ' ':
    case 0x3002: case 0xFF0C: case 0xFF1F: case 0xFF01: case 0xFF1B: case 0xFF1A:
      return true;
    default:
      return false;
  }
}

// Markers and connectives before a pronoun are no antecedent (那他们呢, 请问他, 如果他).
bool marker(const CueHit& h, const LexiconIds& ids) {
  return h.list == ids.ellipsis_marker || h.list == ids.condition_marker ||
         h.list == ids.connective || h.list == ids.politeness || pronoun(h, ids);
}

// What a clause holds up to a point: an enumeration comma (房补、探亲机票这些), and how many
// code points no marker covers (对方要求我们先签他们的版本).
struct Before {
  bool listed = false;
  int own = 0;
};

}  // namespace

bool antecedent_in_turn(const ScannedQuery& q, const LexiconIds& ids) {
  // One pass over the content: bytes under a marker first, then the clause state at each pronoun
  // (hits are few, the text is walked once).
  const std::string_view t = q.query.text;
  std::vector<char> marked(t.size(), 0);
  std::vector<const CueHit*> pronouns;
  for (const CueHit& h : q.hits) {
    if (marker(h, ids)) std::fill(marked.begin() + h.begin, marked.begin() + h.end, 1);
    if (pronoun(h, ids) && h.begin >= q.content_begin && h.end <= q.content_end) pronouns.push_back(&h);
  }
  if (pronouns.empty()) return false;
  std::sort(pronouns.begin(), pronouns.end(),
            [](const CueHit* x, const CueHit* y) { return x->begin < y->begin; });
  Before b;
  std::size_t i = q.content_begin;
  for (const CueHit* h : pronouns) {
    while (i < h->begin) {
      const std::size_t here = i;
      const std::int32_t cp = next_code_point(t, i);
      if (clause_break(cp)) b = Before{};
      else if (cp == 0x3001) b.listed = true;
      else if (!marked[here]) ++b.own;
    }
    if (!b.listed && !(h->list == ids.person_pronoun && b.own >= 2)) return false;
  }
  return true;
}

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
