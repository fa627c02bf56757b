#include "planning/stages/domain.hpp"

#include <algorithm>

#include "planning/model/fold.hpp"

namespace qaplan::internal {
namespace {

// Inside a longer hit (信用 inside 信用卡): the longer term speaks for both.
bool contained(const std::vector<DomainLexicon::Hit>& hits, const DomainLexicon::Hit& h) {
  return std::any_of(hits.begin(), hits.end(), [&](const DomainLexicon::Hit& o) {
    return o.begin <= h.begin && o.end >= h.end && o.end - o.begin > h.end - h.begin;
  });
}

// The texts of the question's hits of `lists`.
std::vector<std::string_view> hit_texts(const ScannedQuery& q, const std::vector<std::uint32_t>& lists) {
  std::vector<std::string_view> out;
  for (const CueHit& c : q.hits)
    if (std::find(lists.begin(), lists.end(), c.list) != lists.end())
      out.push_back(std::string_view(q.query.text).substr(c.begin, c.end - c.begin));
  return out;
}

// A KB "term" holding a question word (几天, 多少钱) is the KB's phrasing, not a topic.
bool asks(std::string_view term, const std::vector<std::string_view>& question_words) {
  return std::any_of(question_words.begin(), question_words.end(),
                     [&](std::string_view w) { return term.find(w) != std::string_view::npos; });
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

}  // namespace

std::vector<int> map_domain_sources(const DomainLexicon& domain, const Config& config) {
  std::vector<int> map;
  for (const std::string& name : domain.sources()) {
    const auto it = std::find_if(config.sources.begin(), config.sources.end(),
                                 [&](const SourceConfig& s) { return s.name == name; });
    map.push_back(it == config.sources.end() ? -1
                                             : static_cast<int>(it - config.sources.begin()));
  }
  return map;
}

// The content is read folded, as the lexicon's terms are: a Traditional question and its
// Simplified form name the same terms.
DomainView read_domain(const ScannedQuery& q, const DomainLexicon& domain,
                       const std::vector<int>& source_map, const Lexicon& lex) {
  DomainView v;
  v.sources.terms.assign(lex.config().sources.size(), 0);
  const std::vector<std::string_view> keywords = hit_texts(q, lex.ids().source);
  const std::vector<std::string_view> question_words =
      hit_texts(q, {lex.ids().ev_interrogative, lex.ids().question_word});
  const bool judge_generic =
      std::count_if(source_map.begin(), source_map.end(), [](int s) { return s >= 0; }) >= 2;
  if (judge_generic)
    for (std::string_view k : keywords)
      if (generic_in_kb(domain, k, lex.config().domain.generic_share))
        v.sources.generic.emplace_back(k);
  char buf[kMaxFoldBytes];
  const std::string_view text = fold_for_model(q.content(), buf);
  thread_local std::vector<DomainLexicon::Hit> hits;
  domain.scan(text, hits);
  for (const DomainLexicon::Hit& h : hits) {
    if (contained(hits, h)) continue;
    const std::string_view term = text.substr(h.begin, h.end - h.begin);
    if (asks(term, question_words)) continue;
    const int src = domain.term_source(h.term);
    // Only a term that tells the KB's sources apart anchors (a KB without sources: any term):
    // 提供, 完成, 手机 are in every KB and in every polite thank-you too.
    if (v.term.empty() && (src >= 0 || domain.sources().empty())) v.term = term;
    // A configured keyword already counts for its source; the lexicon adds the KB's own words.
    const bool keyword = std::find(keywords.begin(), keywords.end(), term) != keywords.end();
    if (!keyword && src >= 0 && static_cast<std::size_t>(src) < source_map.size() &&
        source_map[static_cast<std::size_t>(src)] >= 0)
      ++v.sources.terms[static_cast<std::size_t>(source_map[static_cast<std::size_t>(src)])];
  }
  return v;
}

}  // namespace qaplan::internal
