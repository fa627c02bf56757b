#include "planning/analysis/rewrite_turn.hpp"

#include "common/utf8.hpp"

// A turn opening with 其中 (其中哪家的网点最多, 其中，哪个有最多人) picks from the set the previous
// question named: the topic takes 其中's place as "<topic>中". Glued in front instead, the topic
// and 其中 read as two clauses (快递公司其中哪家…). docs/rewrite.md.
namespace qaplan::internal::rewriting {

namespace {
constexpr std::string_view kAmong = "其中";

// Without a classifier ICU left in front (多少|家|分公司 → 分公司); a word that opens with one stays
// (家具).
std::string_view without_classifier(std::string_view phrase) {
  const std::vector<Token> w = words_of(phrase);
  if (w.size() >= 2 && w.front().single_han && classifier(w.front().text(phrase)))
    return phrase.substr(w[1].begin);
  return phrase;
}

// The set a question asked for: the phrase right after its question word (附近有哪些咖啡店 →
// 咖啡店), else its topic.
std::string_view asked_set(const TurnView& t) {
  if (const auto w = first_hit(t.h.prev_scan, t.lex.ids().question_word); w && t.h.prev_is_question) {
    if (const auto set = phrase_after_question_word(t, *w)) return *set;
    // A word between the question word and the phrase (哪些|是|…): the topic is the set.
    for (const Span& sp : t.h.prev_spans)
      if (sp.begin >= w->end) return t.r.topic_anchor;
  }
  // A question about a pronoun's thing (它们的国籍分别是什么) names no set of its own.
  return t.h.subject_unknown ? std::string_view{} : std::string_view(t.r.topic_anchor);
}

}  // namespace

std::optional<std::string_view> phrase_after_question_word(const TurnView& t, const CueHit& w) {
  const std::vector<Span>& spans = t.h.prev_spans;
  for (std::size_t k = 0; k < spans.size(); ++k)
    if (spans[k].begin >= w.end)
      return spans[k].begin - w.end <= 3
                 ? std::optional(without_classifier(slice(t.h.prev, spans[k].begin, phrase_end(t.h.prev, spans, k))))
                 : std::nullopt;
  return std::nullopt;
}

std::optional<std::string_view> set_asked_for(const TurnView& t) {
  const auto w = first_hit(t.h.prev_scan, t.lex.ids().question_word);
  if (!w || !t.h.prev_is_question || w->end > t.h.prev.size()) return std::nullopt;
  const std::string_view asked = t.h.prev.substr(w->begin);  // the hit may be 哪 alone
  if (!asked.starts_with("哪些") && !asked.starts_with("哪几") && !asked.starts_with("几") &&
      !asked.starts_with("多少"))
    return std::nullopt;
  // 哪 may be the hit alone: the set's phrase comes after 哪些 / 哪几 and a classifier.
  CueHit which = *w;
  if (asked.starts_with("哪些") || asked.starts_with("哪几")) which.end = std::max<std::uint32_t>(w->end, w->begin + 6);
  // A lone character (几条|线) is too little to stand for the things.
  const auto set = phrase_after_question_word(t, which);
  return set && count_code_points(*set) >= 2 ? set : std::nullopt;
}

std::optional<Step> subset_step(const TurnView& t) {
  if (!t.text.starts_with(kAmong) || t.r.topic_anchor.empty()) return std::nullopt;
  std::string_view anchor = asked_set(t);
  // After a request (显示所有导演姓名) the set is what it asked for; after a sort, none is named.
  if (const auto& asked = t.h.request) {
    if (asked->empty()) return Step{std::string(t.question), "subset:sort"};
    anchor = requested_thing(*asked, /*owner=*/true);  // 房间的床型 → 房间中…
  }
  if (anchor.empty()) return Step{std::string(t.question), "no_antecedent:pronoun_subject"};
  const std::string_view rest = trim_start(t.text.substr(kAmong.size()));
  if (rest.empty() || rest.find(anchor) != std::string_view::npos)
    return Step{std::string(t.question), "subset:has_topic"};
  std::string out(anchor);
  if (!anchor.ends_with("中")) out += "中";
  out += rest;
  return Step{std::move(out), "subset"};
}

}  // namespace qaplan::internal::rewriting
