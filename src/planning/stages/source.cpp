#include "planning/stages/source.hpp"

namespace qaplan::internal {

Decided<std::optional<std::string>> suggest_source(const ScannedQuery& q,
                                                   const ModelVerdict& model, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  const auto& sources = lex.config().sources;
  std::vector<int> hits(sources.size(), 0);
  int best_hits = 0;
  for (const CueHit& h : q.hits)
    for (std::size_t s = 0; s < sources.size(); ++s)
      if (h.list == ids.source[s]) best_hits = std::max(best_hits, ++hits[s]);
  // P(source) from the model, per config source (0 without a model).
  std::vector<double> p(sources.size(), 0.0);
  if (model.on()) {
    const HeadOutput& head = model.head(Head::kSource);
    for (std::size_t i = 0; i < kMaxLabels; ++i)
      if (int s = model.map->source[i]; s >= 0) p[static_cast<std::size_t>(s)] = head.probs[i];
  }
  Decided<std::optional<std::string>> d;
  if (best_hits > 0) {
    std::size_t best = sources.size();
    for (std::size_t s = 0; s < sources.size(); ++s)
      if (hits[s] == best_hits && (best == sources.size() || p[s] > p[best])) best = s;
    d.value = sources[best].name;
    d.decided_by = DecidedBy::kRule;
    d.score = p[best];
    for (const CueHit& h : q.hits)
      if (h.list == ids.source[best]) {
        d.detail = q.query.text.substr(h.begin, h.end - h.begin);
        break;
      }
    return d;
  }
  if (model.on()) {
    std::size_t best = 0;
    for (std::size_t s = 1; s < sources.size(); ++s)
      if (p[s] > p[best]) best = s;
    if (!sources.empty() && p[best] >= lex.config().model.source_min_score) {
      d.value = sources[best].name;
      d.decided_by = DecidedBy::kModel;
      d.score = p[best];
    }
  }
  return d;
}

std::optional<std::string> suggest_source(const ScannedQuery& q, const Lexicon& lex) {
  return suggest_source(q, ModelVerdict{}, lex).value;
}

std::optional<std::string> effective_source(const std::optional<std::string>& source_filter,
                                            const std::optional<std::string>& suggested_source) {
  return source_filter ? source_filter : suggested_source;
}

}  // namespace qaplan::internal
