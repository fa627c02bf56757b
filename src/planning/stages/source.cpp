#include "planning/stages/source.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "planning/stages/domain.hpp"

namespace qaplan::internal {
namespace {

// One allocation for a detail string of several pieces (most questions get a soft decision and
// its detail: chained + allocated once per piece, which showed in the plan's p50).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::size_t n = 0;
  for (std::string_view p : parts) n += p.size();
  std::string s;
  s.reserve(n);
  for (std::string_view p : parts) s += p;
  return s;
}

// What the question says about one source: its distinctive keyword hits (or, without any
// keyword in the question, the domain lexicon's distinctive terms), its generic keyword hits (the
// host's KB uses the word across its sources), the first keyword's text, and the model's P.
struct Tally {
  int strong = 0, weak = 0, terms = 0;
  double p = 0;
  std::string_view text;  // a view of the question
};
using Tallies = std::vector<Tally>;  // parallel to Config::sources

void tally(const ScannedQuery& q, const Lexicon& lex, const ModelVerdict& model,
           const DomainSourceEvidence* domain, Tallies& t) {
  const LexiconIds& ids = lex.ids();
  const std::size_t n = lex.config().sources.size();
  t.assign(n, Tally{});
  bool silent = true;
  for (const CueHit& h : q.hits)
    for (std::size_t s = 0; s < n; ++s) {
      if (h.list != ids.source[s]) continue;
      const std::string_view w = std::string_view(q.query.text).substr(h.begin, h.end - h.begin);
      const bool generic = domain && std::find(domain->generic.begin(), domain->generic.end(), w) !=
                                         domain->generic.end();
      ++(generic ? t[s].weak : t[s].strong);
      if (t[s].text.empty()) t[s].text = w;
      silent = false;
    }
  // The host's KB terms speak where the curated keywords are silent (a deployment whose
  // [[sources]] list no keywords of their own); next to a keyword they only name rivals.
  if (domain && domain->terms.size() == n)
    for (std::size_t s = 0; s < n; ++s) {
      t[s].terms = domain->terms[s];
      if (silent) t[s].strong = domain->terms[s];
    }
  if (model.on()) {
    const HeadOutput& head = model.head(Head::kSource);
    for (std::size_t i = 0; i < kMaxLabels; ++i)
      if (int s = model.map->source[i]; s >= 0) t[static_cast<std::size_t>(s)].p = head.probs[i];
  }
}

// Sources other than `chosen` the question also names, by a distinctive keyword or a term the
// host's KB uses in that source alone (研发岗位入职发什么笔记本: 入职 hr, 笔记本 it). A question
// that straddles two collections is answered in either; scoping it to one hides the other.
std::vector<std::size_t> rivals(const Tallies& t, std::size_t chosen) {
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < t.size(); ++s)
    if (s != chosen && (t[s].strong > 0 || t[s].terms > 0)) out.push_back(s);
  return out;
}

std::size_t argmax(const Tallies& t) {
  return static_cast<std::size_t>(
      std::max_element(t.begin(), t.end(),
                       [](const Tally& a, const Tally& b) { return a.p < b.p; }) -
      t.begin());
}

// "0.97": two decimals without printf (a soft decision spells it out for every such question).
std::string prob(double p) {
  const long v = std::lround(std::clamp(p, 0.0, 1.0) * 100);
  std::string s = v >= 100 ? "1.00" : "0.00";
  if (v < 100) {
    s[2] = static_cast<char>('0' + v / 10);
    s[3] = static_cast<char>('0' + v % 10);
  }
  return s;
}

// `seed` plus the likeliest other sources until their probabilities cover [model] source_cover;
// empty when that takes more than max_source_candidates (no useful scope).
std::vector<std::size_t> cover(std::vector<std::size_t> seed, const Tallies& t,
                               const ModelConfig& m) {
  double mass = 0;
  for (std::size_t s : seed) mass += t[s].p;
  // Add the likeliest source not yet in, until covered: a handful of picks, no sort.
  while (mass < m.source_cover && seed.size() < t.size()) {
    std::size_t next = t.size();
    for (std::size_t s = 0; s < t.size(); ++s)
      if (std::find(seed.begin(), seed.end(), s) == seed.end() &&
          (next == t.size() || t[s].p > t[next].p))
        next = s;
    seed.push_back(next);
    mass += t[next].p;
    if (seed.size() > static_cast<std::size_t>(m.max_source_candidates)) return {};
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

// `why` is the detail's pieces, joined once (most questions end here; a string per piece showed
// in the plan's p50).
SourceDecision soft(const Config& c, const std::vector<std::size_t>& cands,
                    std::initializer_list<std::string_view> why) {
  SourceDecision d;
  d.candidates.reserve(cands.size());
  for (std::size_t s : cands) d.candidates.push_back(c.sources[s].name);
  std::size_t n = 0;
  for (std::string_view p : why) n += p.size();
  d.scope.detail.reserve(n + 16);
  for (std::string_view p : why) d.scope.detail += p;
  d.scope.detail += cands.empty() ? std::string_view(" → every source") : kScopeWidenedToCandidates;
  return d;
}

// The chosen source and its rivals are the candidates, likeliest first (none when they are more
// than max_source_candidates: the question names too much to narrow).
SourceDecision straddle(const Config& c, std::size_t chosen, std::vector<std::size_t> rv,
                        const Tallies& t, const ModelConfig& m) {
  std::string why = cat({c.sources[chosen].name, " named, also ", c.sources[rv[0]].name});
  for (std::size_t i = 1; i < rv.size(); ++i) why += "/" + c.sources[rv[i]].name;
  rv.insert(rv.begin(), chosen);
  std::stable_sort(rv.begin() + 1, rv.end(), [&](auto a, auto b) { return t[a].p > t[b].p; });
  if (rv.size() > static_cast<std::size_t>(m.max_source_candidates)) rv.clear();
  return soft(c, rv, {why});
}

}  // namespace

SourceDecision decide_source(const ScannedQuery& q, const ModelVerdict& model, const Lexicon& lex,
                             const DomainSourceEvidence* domain) {
  const Config& c = lex.config();
  const ModelConfig& mc = c.model;
  const std::size_t n = c.sources.size();
  if (n == 0) return {};
  thread_local Tallies scratch;  // per-thread: no allocation per question once warm
  tally(q, lex, model, domain, scratch);
  const Tallies& t = scratch;
  // A model trained for other sources (the shipped one beside a host's [[sources]]) is no
  // witness here.
  const bool witness = model.on() && std::any_of(model.map->source.begin(), model.map->source.end(),
                                                 [](int s) { return s >= 0; });
  const std::size_t top = argmax(t);
  // Only the candidate cases spell out what the model said: ", model admin 0.97".
  const std::string pr = witness ? prob(t[top].p) : std::string();
  const std::string_view says = witness ? ", model " : ", no model source";
  const std::string_view says_source = witness ? std::string_view(c.sources[top].name) : "";
  const std::string_view says_p = witness ? " " : "";
  auto named = [&](std::size_t s) {
    return t[s].text.empty() ? std::string("domain terms") : std::string(t[s].text);
  };
  const int best = std::max_element(t.begin(), t.end(), [](const Tally& a, const Tally& b) {
                     return a.strong < b.strong;
                   })->strong;
  if (best > 0) {
    std::vector<std::size_t> tied;
    for (std::size_t s = 0; s < n; ++s)
      if (t[s].strong == best) tied.push_back(s);
    // Two independent witnesses make a hard scope: the words and the model that read the whole
    // question. Words alone (no model) are all there is.
    const bool agreed = witness && std::find(tied.begin(), tied.end(), top) != tied.end() &&
                        t[top].p >= mc.source_agree_score;
    if ((!witness && tied.size() == 1) || agreed) {
      const std::size_t s = agreed ? top : tied[0];
      if (auto rv = rivals(t, s); !rv.empty()) return straddle(c, s, std::move(rv), t, mc);
      SourceDecision d = hard(c, s, DecidedBy::kRule, agreed ? t[s].p : 0, named(s));
      d.keyword = !t[s].text.empty();
      return d;
    }
    const bool one = tied.size() == 1;
    const std::string_view w1 = one ? "keyword " : "keyword tie";
    const std::string_view w2 = one ? std::string_view(c.sources[tied[0]].name) : "";
    const std::string_view w3 = one ? " " : "";
    const std::string_view w4 = !one                      ? ""
                                : t[tied[0]].text.empty() ? "(domain terms)"
                                                          : t[tied[0]].text;
    if (!witness) return soft(c, tied, {w1, w2, w3, w4});
    return soft(c, cover(std::move(tied), t, mc),
                {w1, w2, w3, w4, " unconfirmed", says, says_source, says_p, pr});
  }
  std::vector<std::size_t> generic;
  for (std::size_t s = 0; s < n; ++s)
    if (t[s].weak > 0) generic.push_back(s);
  if (witness && t[top].p >= mc.source_min_score) {
    if (auto rv = rivals(t, top); !rv.empty()) return straddle(c, top, std::move(rv), t, mc);
    return hard(c, top, DecidedBy::kModel, t[top].p,
                generic.empty() ? "" : "with a generic keyword");
  }
  if (!generic.empty())
    return soft(c, witness ? cover(generic, t, mc) : std::vector<std::size_t>{},
                {"generic keyword ", t[generic[0]].text, says, says_source, says_p, pr});
  if (!witness) return {};
  return soft(c, cover({}, t, mc), {"no keyword", says, says_source, says_p, pr});
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

bool scenario_allows(const ScenarioConfig& scenario, const std::string& source) {
  return std::find(scenario.allowed_sources.begin(), scenario.allowed_sources.end(), source) !=
         scenario.allowed_sources.end();
}

SourceDecision source_of_turn(const NormalizedQuery& turn, const Lexicon& lex,
                              const DomainReader* reader) {
  const ScannedQuery q = lex.scan(turn);
  DomainView d;
  if (reader) d = reader->read(q, lex);
  return decide_source(q, ModelVerdict{}, lex, reader ? &d.sources : nullptr);
}

namespace {

// Turn `i` of `history` decided by its words, then — when they make a hard scope and a model is
// loaded — again with the model's verdict on that turn (and the turn before as its context), as
// its own plan was. One scan and one domain read serve both.
// Nullopt when its words suggest no source.
std::optional<SourceDecision> decide_turn(const std::vector<NormalizedQuery>& history,
                                          std::size_t i, const Lexicon& lex,
                                          const DomainReader* reader, HistoryModel model) {
  const ScannedQuery q = lex.scan(history[i]);
  DomainView d;
  if (reader) d = reader->read(q, lex);
  const DomainSourceEvidence* domain = reader ? &d.sources : nullptr;
  SourceDecision words = decide_source(q, ModelVerdict{}, lex, domain);
  if (!words.scope.value && words.candidates.empty()) return std::nullopt;
  // Only a hard scope can be too narrow; the model is asked about that turn alone.
  if (!words.scope.value || !model.model) return words;
  const std::string_view previous = i > 0 ? std::string_view(history[i - 1].text) : "";
  ModelVerdict v;
  v.map = model.labels;
  model.model->predict(history[i].text, previous, v.out);
  return decide_source(q, v, lex, domain);
}

}  // namespace

void carry_history_source(const std::vector<NormalizedQuery>& history, const Lexicon& lex,
                          const DomainReader* reader, HistoryModel model,
                          SourceDecision& source) {
  std::optional<SourceDecision> carried;
  for (std::size_t i = history.size(); i-- > 0 && !carried;)
    carried = decide_turn(history, i, lex, reader, model);
  if (carried) {
    source.scope = std::move(carried->scope);
    source.scope.detail = source.scope.detail.empty() ? "carried from history"
                                                      : "carried from history: " + source.scope.detail;
    source.candidates = std::move(carried->candidates);
  } else if (source.scope.decided_by == DecidedBy::kModel || !source.candidates.empty()) {
    source.scope = {};
    source.scope.detail = "fragment's model source dropped (follow-up)";
    source.candidates.clear();
  }
}

namespace {

// The turn is its source keyword and ellipsis markers alone (那年假呢, VPN呢, 合同呢): the keyword
// takes the place of the history's topic rather than adding to it.
bool keyword_fragment(const ScannedQuery& q, const Lexicon& lex) {
  const std::vector<bool> covered = cue_coverage(q, {lex.ids().ellipsis_marker}, lex.ids().source);
  std::string_view said = core_text(q.content());
  if (said.ends_with("呢")) said.remove_suffix(std::string_view("呢").size());
  return covered_only(q, covered, q.content_begin, q.content_begin + said.size());
}

}  // namespace

void share_scope_with_history(const ScannedQuery& q, const std::vector<NormalizedQuery>& history,
                              const Lexicon& lex, const DomainReader* reader,
                              SourceDecision& source) {
  if (!source.scope.value || keyword_fragment(q, lex)) return;
  // The history's words alone: whether they name another source, not how narrowly (no model).
  std::optional<SourceDecision> carried;
  for (std::size_t i = history.size(); i-- > 0 && !carried;) {
    SourceDecision words = source_of_turn(history[i], lex, reader);
    if (words.scope.value || !words.candidates.empty()) carried = std::move(words);
  }
  if (!carried) return;
  std::vector<std::string> theirs = std::move(carried->candidates);
  if (carried->scope.value) theirs.insert(theirs.begin(), *carried->scope.value);
  const std::string& own = *source.scope.value;
  if (theirs.empty() || std::find(theirs.begin(), theirs.end(), own) != theirs.end()) return;
  std::string names;
  for (const std::string& s : theirs) names += (names.empty() ? "" : ", ") + s;
  source.candidates = {own};
  for (std::string& s : theirs) source.candidates.push_back(std::move(s));
  source.scope.detail = "follow-up keyword " + own +
                        (source.scope.detail.empty() ? "" : " " + source.scope.detail) +
                        ", history " + names + std::string(kScopeWidenedToCandidates);
  source.scope.value.reset();
  source.scope.decided_by = DecidedBy::kRule;
}

std::vector<std::string> effective_sources_of(const std::optional<std::string>& effective,
                                              std::vector<std::string> candidates,
                                              const ScenarioConfig& scenario, const Config& c) {
  if (effective) return {*effective};
  std::vector<std::string> out;
  for (std::string& s : candidates)
    if (scenario_allows(scenario, s)) out.push_back(std::move(s));
  if (out.empty() && scenario.allowed_sources.size() < c.sources.size()) out = scenario.allowed_sources;
  return out;
}

std::optional<std::vector<std::string>> fallback_sources_of(
    const std::optional<std::string>& source_filter, const std::vector<std::string>& effective,
    const ScenarioConfig& scenario, const Config& c) {
  if (source_filter || effective.empty()) return std::nullopt;
  const bool whole = scenario.allowed_sources.size() >= c.sources.size();
  const auto outside = [&](const std::string& s) {
    return std::find(effective.begin(), effective.end(), s) == effective.end();
  };
  const bool wider = whole ? std::any_of(c.sources.begin(), c.sources.end(),
                                         [&](const SourceConfig& s) { return outside(s.name); })
                           : std::any_of(scenario.allowed_sources.begin(),
                                         scenario.allowed_sources.end(), outside);
  if (!wider) return std::nullopt;
  return whole ? std::vector<std::string>{} : scenario.allowed_sources;
}

}  // namespace qaplan::internal
