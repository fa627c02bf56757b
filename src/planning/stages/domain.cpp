#include "planning/stages/domain.hpp"

#include <algorithm>

#include "planning/model/fold.hpp"

namespace qaplan::internal {
namespace {

// Inside a longer hit (信用 inside 信用卡): the longer term speaks for both. Hits come by begin,
// shorter first, so one pass decides: a hit is inside a longer one when an earlier-starting hit
// reaches its end, or the next hit starts where it does (and is longer). A long question has
// dozens of overlapping hits; comparing every pair showed in the plan's p50.
void mark_contained(const std::vector<DomainLexicon::Hit>& hits, std::vector<char>& inside) {
  inside.assign(hits.size(), 0);
  std::uint32_t reach = 0;  // furthest end of the hits that start before hits[i]
  std::uint32_t group = 0;  // furthest end of the hits that start where hits[i - 1] does
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (i > 0 && hits[i].begin != hits[i - 1].begin) {
      reach = std::max(reach, group);
      group = 0;
    }
    group = std::max(group, hits[i].end);
    const bool longer_same_start = i + 1 < hits.size() && hits[i + 1].begin == hits[i].begin;
    inside[i] = reach >= hits[i].end || longer_same_start;
  }
}

// The texts of the question's hits of the lists `in` accepts, into `out` (per-thread scratch at
// the caller: this runs for every question, and its allocations showed in the plan's p50).
template <class In>
void hit_texts(const ScannedQuery& q, In&& in, std::vector<std::string_view>& out) {
  out.clear();
  for (const CueHit& c : q.hits)
    if (in(c.list)) out.push_back(std::string_view(q.query.text).substr(c.begin, c.end - c.begin));
}

// `words` folded as the lexicon's terms are, once (not once per term), empty ones left out.
std::vector<std::string> folded(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto* words : {&a, &b})
    for (const std::string& raw : *words) {
      char buf[kMaxFoldBytes];
      if (const std::string_view w = fold_for_model(raw, buf); !w.empty()) out.emplace_back(w);
    }
  return out;
}

// True when `term` holds one of the folded `words` (on word boundaries, as a cue would be found).
bool holds_any(std::string_view term, const std::vector<std::string>& words) {
  for (const std::string& w : words) {
    for (std::size_t at = term.find(w); at != std::string_view::npos; at = term.find(w, at + 1))
      if (at_word_boundaries(term, static_cast<std::uint32_t>(at),
                             static_cast<std::uint32_t>(at + w.size())))
        return true;
  }
  return false;
}

// True when the KB holds the keyword as a term no source has most of (员工, 系统): it does not
// tell the sources apart. Terms are folded, so the keyword is too.
bool generic_in_kb(const DomainLexicon& domain, std::string_view keyword, double below) {
  char buf[kMaxFoldBytes];
  const std::string_view k = fold_for_model(keyword, buf);
  thread_local std::vector<DomainLexicon::Hit> hits;
  domain.scan(k, hits);
  for (const DomainLexicon::Hit& h : hits)
    if (h.begin == 0 && h.end == k.size()) return domain.term_share(h.term) < below;
  return false;
}

// The config source index of each of the lexicon's sources (-1 when the config has none).
std::vector<int> map_sources(const DomainLexicon& domain, const Config& config) {
  std::vector<int> map;
  for (const std::string& name : domain.sources()) {
    const auto it = std::find_if(config.sources.begin(), config.sources.end(),
                                 [&](const SourceConfig& s) { return s.name == name; });
    map.push_back(it == config.sources.end() ? -1 : static_cast<int>(it - config.sources.begin()));
  }
  return map;
}

}  // namespace

DomainReader::DomainReader(DomainLexicon lexicon, const Config& config)
    : lexicon_(std::move(lexicon)) {
  const std::vector<int> map = map_sources(lexicon_, config);
  const std::vector<std::string> asking =
      folded(config.route.evidence.interrogatives, config.rewrite.question_words);
  roles_.resize(lexicon_.term_count());
  for (std::uint32_t t = 0; t < roles_.size(); ++t) {
    const int src = lexicon_.term_source(t);
    Role& r = roles_[t];
    r.source = src >= 0 && static_cast<std::size_t>(src) < map.size()
                   ? map[static_cast<std::size_t>(src)]
                   : -1;
    // Only a term that tells the KB's sources apart anchors (a KB without sources: any term):
    // 提供, 完成, 手机 are in every KB and in every polite thank-you too.
    r.anchors = src >= 0 || lexicon_.sources().empty();
    const std::string_view text = lexicon_.term_text(t);
    r.asks = holds_any(text, asking);
  }
  if (std::count_if(map.begin(), map.end(), [](int s) { return s >= 0; }) < 2) return;
  for (const SourceConfig& s : config.sources)
    for (const std::string& k : s.keywords)
      if (generic_in_kb(lexicon_, k, config.domain.generic_share)) generic_.push_back(k);
  std::sort(generic_.begin(), generic_.end());
  generic_.erase(std::unique(generic_.begin(), generic_.end()), generic_.end());
}

// The content is read folded, as the lexicon's terms are: a Traditional question and its
// Simplified form name the same terms.
DomainView DomainReader::read(const ScannedQuery& q, const Lexicon& lex) const {
  DomainView v;
  v.sources.terms.assign(lex.config().sources.size(), 0);
  const LexiconIds& ids = lex.ids();
  thread_local std::vector<std::string_view> keywords;
  hit_texts(
      q,
      [&](std::uint32_t l) {
        return std::find(ids.source.begin(), ids.source.end(), l) != ids.source.end();
      },
      keywords);
  for (std::string_view k : keywords)
    if (std::binary_search(generic_.begin(), generic_.end(), k, std::less<>()))
      v.sources.generic.push_back(k);
  char buf[kMaxFoldBytes];
  const std::string_view text = fold_for_model(q.content(), buf);
  thread_local std::vector<DomainLexicon::Hit> hits;
  thread_local std::vector<char> inside;
  lexicon_.scan(text, hits);
  mark_contained(hits, inside);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const Role& r = roles_[hits[i].term];
    if (inside[i] || r.asks) continue;
    const std::string_view term = text.substr(hits[i].begin, hits[i].end - hits[i].begin);
    if (v.term.empty() && r.anchors) v.term = lexicon_.term_text(hits[i].term);
    // A configured keyword already counts for its source; the lexicon adds the KB's own words.
    if (r.source >= 0 && std::find(keywords.begin(), keywords.end(), term) == keywords.end())
      ++v.sources.terms[static_cast<std::size_t>(r.source)];
  }
  return v;
}

}  // namespace qaplan::internal
