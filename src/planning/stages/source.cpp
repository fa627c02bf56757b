#include "planning/stages/source.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace qaplan::internal {
namespace {

// Keyword hits per source: distinctive ones (or, without any, the domain lexicon's per-source
// terms), and generic ones (the host's KB uses the word across its sources), with the first text
// of each.
struct KeywordCounts {
  std::vector<int> strong, weak;
  std::vector<std::string> text;
};

KeywordCounts count_keywords(const ScannedQuery& q, const Lexicon& lex,
                             const DomainSourceEvidence* domain) {
  const LexiconIds& ids = lex.ids();
  const std::size_t n = lex.config().sources.size();
  KeywordCounts k{std::vector<int>(n, 0), std::vector<int>(n, 0), std::vector<std::string>(n)};
  for (const CueHit& h : q.hits)
    for (std::size_t s = 0; s < n; ++s) {
      if (h.list != ids.source[s]) continue;
      std::string t = q.query.text.substr(h.begin, h.end - h.begin);
      const bool generic = domain && std::find(domain->generic.begin(), domain->generic.end(), t) !=
                                         domain->generic.end();
      ++(generic ? k.weak : k.strong)[s];
      if (k.text[s].empty()) k.text[s] = std::move(t);
    }
  // The host's KB terms speak where the curated keywords are silent (a deployment whose
  // [[sources]] list no keywords of their own); next to a keyword they would only blur it.
  const bool silent = std::all_of(k.strong.begin(), k.strong.end(), [](int x) { return x == 0; }) &&
                      std::all_of(k.weak.begin(), k.weak.end(), [](int x) { return x == 0; });
  if (domain && domain->terms.size() == n && silent)
    for (std::size_t s = 0; s < n; ++s) k.strong[s] = domain->terms[s];
  return k;
}

// P(source) from the model, per config source (0 without a model).
std::vector<double> source_probs(const ModelVerdict& model, std::size_t n) {
  std::vector<double> p(n, 0.0);
  if (!model.on()) return p;
  const HeadOutput& head = model.head(Head::kSource);
  for (std::size_t i = 0; i < kMaxLabels; ++i)
    if (int s = model.map->source[i]; s >= 0) p[static_cast<std::size_t>(s)] = head.probs[i];
  return p;
}

std::size_t argmax(const std::vector<double>& p) {
  return static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
}

std::string prob(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", p);
  return buf;
}

// `seed` plus the likeliest other sources until their probabilities cover [model] source_cover;
// empty when that takes more than max_source_candidates (no useful scope).
std::vector<std::size_t> cover(std::vector<std::size_t> seed, const std::vector<double>& p,
                               const ModelConfig& m) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[a] > p[b]; });
  double mass = 0;
  for (std::size_t s : seed) mass += p[s];
  for (std::size_t s : order) {
    if (mass >= m.source_cover) break;
    if (std::find(seed.begin(), seed.end(), s) != seed.end()) continue;
    seed.push_back(s);
    mass += p[s];
  }
  if (mass < m.source_cover || seed.size() > static_cast<std::size_t>(m.max_source_candidates))
    return {};
  return seed;
}

SourceDecision hard(const Config& c, std::size_t s, DecidedBy by, double score, std::string why) {
  SourceDecision d;
  d.scope.value = c.sources[s].name;
  d.scope.decided_by = by;
  d.scope.score = score;
  d.scope.detail = std::move(why);
  return d;
}

SourceDecision soft(const Config& c, const std::vector<std::size_t>& cands, std::string why) {
  SourceDecision d;
  for (std::size_t s : cands) d.candidates.push_back(c.sources[s].name);
  d.scope.detail = std::move(why) + (cands.empty() ? " → every source" : " → candidates");
  return d;
}

}  // namespace

SourceDecision decide_source(const ScannedQuery& q, const ModelVerdict& model, const Lexicon& lex,
                             const DomainSourceEvidence* domain) {
  const Config& c = lex.config();
  const ModelConfig& mc = c.model;
  const std::size_t n = c.sources.size();
  if (n == 0) return {};
  const KeywordCounts k = count_keywords(q, lex, domain);
  const std::vector<double> p = source_probs(model, n);
  // A model trained for other sources (the shipped one beside a host's [[sources]]) is no
  // witness here.
  const bool witness = model.on() && std::any_of(model.map->source.begin(),
                                                 model.map->source.end(),
                                                 [](int s) { return s >= 0; });
  const std::size_t top = argmax(p);
  const std::string model_says =
      witness ? "model " + c.sources[top].name + " " + prob(p[top]) : "no model source";
  const int best = *std::max_element(k.strong.begin(), k.strong.end());
  if (best > 0) {
    std::vector<std::size_t> tied;
    for (std::size_t s = 0; s < n; ++s)
      if (k.strong[s] == best) tied.push_back(s);
    // Two independent witnesses make a hard scope: the words and the model that read the whole
    // question. Words alone (no model) are all there is.
    if (!witness && tied.size() == 1) {
      SourceDecision d = hard(c, tied[0], DecidedBy::kRule, 0,
                              k.text[tied[0]].empty() ? "domain terms" : k.text[tied[0]]);
      d.keyword = !k.text[tied[0]].empty();
      return d;
    }
    if (std::find(tied.begin(), tied.end(), top) != tied.end() && p[top] >= mc.source_agree_score) {
      SourceDecision d = hard(c, top, DecidedBy::kRule, p[top],
                              k.text[top].empty() ? "domain terms" : k.text[top]);
      d.keyword = !k.text[top].empty();
      return d;
    }
    const std::string words =
        tied.size() == 1 ? "keyword " + c.sources[tied[0]].name + " " +
                               (k.text[tied[0]].empty() ? "(domain terms)" : k.text[tied[0]])
                         : std::string("keyword tie");
    if (!witness) return soft(c, tied, words);
    return soft(c, cover(tied, p, mc), words + " unconfirmed, " + model_says);
  }
  std::vector<std::size_t> generic;
  for (std::size_t s = 0; s < n; ++s)
    if (k.weak[s] > 0) generic.push_back(s);
  if (witness && p[top] >= mc.source_min_score)
    return hard(c, top, DecidedBy::kModel, p[top], generic.empty() ? "" : "with a generic keyword");
  if (!generic.empty())
    return soft(c, witness ? cover(generic, p, mc) : std::vector<std::size_t>{},
                "generic keyword " + k.text[generic[0]] + ", " + model_says);
  if (!witness) return {};
  return soft(c, cover({}, p, mc), "no keyword, " + model_says);
}

std::optional<std::string> suggest_source(const ScannedQuery& q, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  const auto& sources = lex.config().sources;
  std::vector<int> hits(sources.size(), 0);
  for (const CueHit& h : q.hits)
    for (std::size_t s = 0; s < sources.size(); ++s) hits[s] += h.list == ids.source[s];
  const auto it = std::max_element(hits.begin(), hits.end());
  if (it == hits.end() || *it == 0) return std::nullopt;
  return sources[static_cast<std::size_t>(it - hits.begin())].name;
}

std::optional<std::string> effective_source(const std::optional<std::string>& source_filter,
                                            const std::optional<std::string>& suggested_source) {
  return source_filter ? source_filter : suggested_source;
}

}  // namespace qaplan::internal
