#include "planning/lexicon.hpp"

#include <algorithm>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/matcher.hpp"

namespace qaplan::internal {

struct Lexicon::Impl {
  Config config;
  LexiconIds ids;
  PatternMatcher matcher;
};

Result<Lexicon> Lexicon::create(Config config) {
  if (Status st = config.validate(); !st.ok()) return st.error();
  auto impl = std::make_shared<Impl>();
  LexiconIds& ids = impl->ids;
  auto& m = impl->matcher;
  std::uint32_t next = 0;
  auto add_list = [&](const std::vector<std::string>& words) {
    const std::uint32_t id = next++;
    for (const auto& w : words) m.add(w, id);
    return id;
  };
  const Config& c = config;
  ids.ignore_within = add_list(c.matching.ignore_within);
  ids.greeting = add_list(c.route.greeting);
  ids.politeness = add_list(c.route.politeness);
  ids.handoff = add_list(c.route.handoff);
  ids.handoff_standalone = add_list(c.route.handoff_standalone);
  ids.out_of_scope = add_list(c.route.out_of_scope);
  for (const auto& [name, sc] : c.scenarios) ids.scenario_out_of_scope[name] = add_list(sc.out_of_scope);
  for (const auto& s : c.sources) ids.source.push_back(add_list(s.keywords));
  for (const auto& r : c.intent.rules) {
    ids.intent_contains.push_back(add_list(r.contains_any));
    ids.intent_unless.push_back(add_list(r.unless_contains_any));
  }
  for (const auto& r : c.category.rules) ids.category.push_back(add_list(r.keywords));
  ids.table = add_list(c.category.table_keywords);
  ids.count = next;
  m.build();
  impl->config = std::move(config);
  return Lexicon(std::move(impl));
}

const Config& Lexicon::config() const noexcept { return impl_->config; }
const LexiconIds& Lexicon::ids() const noexcept { return impl_->ids; }

ScannedQuery Lexicon::scan(NormalizedQuery query) const {
  ScannedQuery a;
  a.query = std::move(query);
  const std::uint32_t ignore = impl_->ids.ignore_within;
  std::vector<CueHit> masks;
  impl_->matcher.scan(a.query.text, [&](std::uint32_t list, std::uint32_t b, std::uint32_t e) {
    if (list == ignore) masks.push_back({list, b, e});
    else a.hits.push_back({list, b, e});
  });
  if (!masks.empty()) {
    // A cue inside an ignore_within phrase (这个 in 这个月) is not a cue.
    std::erase_if(a.hits, [&](const CueHit& h) {
      return std::any_of(masks.begin(), masks.end(),
                         [&](const CueHit& k) { return k.begin <= h.begin && h.end <= k.end; });
    });
  }
  a.present.assign((impl_->ids.count + 63) / 64, 0);
  for (const CueHit& h : a.hits) a.present[h.list / 64] |= std::uint64_t{1} << (h.list % 64);
  return a;
}

bool consists_only_of(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists,
                      std::uint32_t required) {
  if (!q.has(required)) return false;
  const std::string& t = q.query.text;
  std::vector<bool> covered(t.size(), false);
  for (const CueHit& h : q.hits)
    if (std::find(lists.begin(), lists.end(), h.list) != lists.end())
      for (std::uint32_t i = h.begin; i < h.end; ++i) covered[i] = true;
  std::size_t i = 0;
  while (i < t.size()) {
    const std::size_t b = i;
    const std::int32_t cp = next_code_point(t, i);
    if (covered[b]) continue;
    // Anything word-like left over is substance: the message says more than the cue words.
    if (cp < 0 || is_word_char(cp)) return false;
  }
  return true;
}

std::string_view core_text(std::string_view text) noexcept {
  // Strip trailing code points that are not letters, digits or ideographs (?, 。, !, ~, emoji).
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t b = end - 1;
    while (b > 0 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80) --b;
    std::size_t i = b;
    const std::int32_t cp = next_code_point(text, i);
    if (cp >= 0 && is_word_char(cp)) break;
    end = b;
  }
  return text.substr(0, end);
}

std::string first_hit_text(const ScannedQuery& q, std::uint32_t list) {
  for (const CueHit& h : q.hits)
    if (h.list == list) return q.query.text.substr(h.begin, h.end - h.begin);
  return {};
}

}  // namespace qaplan::internal
