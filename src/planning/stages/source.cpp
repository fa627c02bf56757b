#include "planning/stages/source.hpp"

namespace qaplan::internal {

std::optional<std::string> suggest_source(const ScannedQuery& q, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  const auto& sources = lex.config().sources;
  std::size_t best = sources.size();
  int best_hits = 0;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    if (!q.has(ids.source[s])) continue;
    int hits = 0;
    for (const CueHit& h : q.hits) hits += h.list == ids.source[s] ? 1 : 0;
    if (hits > best_hits) {  // strict: ties keep the source listed first
      best_hits = hits;
      best = s;
    }
  }
  if (best == sources.size()) return std::nullopt;
  return sources[best].name;
}

std::optional<std::string> effective_source(const std::optional<std::string>& source_filter,
                                            const std::optional<std::string>& suggested_source) {
  return source_filter ? source_filter : suggested_source;
}

}  // namespace qaplan::internal
