#include "planning/analysis/rewrite_turn.hpp"

// More of the previous question (还有呢, 还有其他的吗) and examples of the set it asked for (哪些费用
// 不能报销 + 举个例子): the question asked again, with the turn's word for "other" or the set in
// front (docs/rewrite.md).
#include <algorithm>

#include "common/utf8.hpp"

namespace qaplan::internal::rewriting {

// A word for "other" (别的, 其他的): what else there is, no thing of its own.
bool other_word(std::string_view w) {
  for (std::string_view other : {"别的", "其他的", "其他", "其它的", "其它", "另外的"})
    if (w == other) return true;
  return false;
}

namespace {

// What a turn opening with an existential 还有 (there still is) asks after it, without a closing
// particle and a word for "other": "" when it asks only for more (还有吗, 还有别的吗). Not 其他的呢
// alone, which asks about the others (the rest of a set), not for more.
std::string_view after_more(std::string_view said) {
  constexpr std::string_view kMore = "还有";
  if (!said.starts_with(kMore)) return said;
  std::string_view rest = trim_start(said.substr(kMore.size()));
  rest = trim_end(rest);
  for (std::string_view end : {"吗", "呢", "啊", "呀"})
    if (rest.ends_with(end)) rest = trim_end(rest.substr(0, rest.size() - end.size()));
  return other_word(rest) ? std::string_view() : rest;
}

// The word for "other" a turn of more says (还有其他的吗 → 其他, 还有别的吗 → 别的), "" for none.
std::string_view said_other(std::string_view said) {
  std::string_view rest = trim_end(said.substr(std::string_view("还有").size()));
  for (std::string_view end : {"吗", "呢", "啊", "呀"})
    if (rest.ends_with(end)) rest = trim_end(rest.substr(0, rest.size() - end.size()));
  if (rest != "别的" && rest.ends_with("的")) rest.remove_suffix(std::string_view("的").size());
  return rest;
}

// The question asked again for more (`more`) with the turn's "other" kept where it belongs: in
// front of a question opening with 哪 (还有其他哪些情况可以申请调岗), else in the place of 什么 or
// of 哪 and its classifier, asking yes or no (还需要别的资料吗, 还需要办其他手续吗).
std::optional<std::string> with_other(std::string_view asked, std::string more,
                                      std::string_view other) {
  if (asked.starts_with("哪")) return "还有" + std::string(other) + std::string(asked);
  constexpr std::string_view kWhat = "什么";
  if (const std::size_t at = more.find(kWhat); at != std::string::npos)
    return more.replace(at, kWhat.size(), other) + "吗";
  // 哪 with its classifier (哪些, 哪种) goes like 什么: 还需要办其他手续吗.
  constexpr std::string_view kWhich = "哪";
  if (const std::size_t at = more.find(kWhich); at != std::string::npos) {
    const std::string_view unit = std::string_view(more).substr(at + kWhich.size(), 3);
    if (unit.size() == 3 && std::string_view("些种个类家款项位样条").find(unit) != std::string_view::npos)
      return more.replace(at, kWhich.size() + unit.size(), other) + "吗";
  }
  return std::nullopt;
}

// A request for examples (举个例子, 举几个例子, 比如呢).
bool asks_examples(std::string_view turn) {
  const bool give =
      turn.find("举") != std::string_view::npos && turn.find("例") != std::string_view::npos;
  return give || turn.starts_with("比如") || turn.starts_with("例如") || turn.starts_with("比方");
}

}  // namespace

// 1e'. Examples asked after a question of which things do something (哪些费用不能报销 + 举个例子):
// they are examples of those things, the set the question named — "不能报销的费用" — not of the
// noun alone (费用举个例子) or of the answer.
std::optional<Step> examples_step(const TurnView& t) {
  if (!asks_examples(t.text)) return std::nullopt;
  // The question right before, or before its answer.
  for (std::size_t k = 0; k < std::min<std::size_t>(2, t.h.window.size()); ++k) {
    const std::string_view asked = trim_end(t.h.window[k]);
    std::size_t opener = 0;
    for (std::string_view w : {"哪些", "哪类", "哪种", "什么样的"})
      if (asked.starts_with(w)) opener = w.size();
    if (opener == 0) continue;
    const std::vector<Span> spans = t.reader.spans(asked);
    if (spans.empty() || spans.front().begin != opener) return std::nullopt;
    // The things: the phrase after the question word, up to a modal or a negation it may hold
    // (费用|不能报销: the reader kept 不能 in the phrase).
    std::string_view things = slice(asked, spans.front().begin, spans.front().end);
    for (const Token& w : words_of(things)) {
      const std::string_view x = w.text(things);
      const bool modal = x == "不能" || x == "不" || x == "可以" || x == "能" || x == "需要" ||
                         x == "要" || x == "不用" || x == "必须" || x == "都";
      if (modal && w.begin > 0) {
        things = things.substr(0, w.begin);
        break;
      }
    }
    std::string_view act = trim_start(asked.substr(opener + things.size()));
    for (std::string_view end : {"吗", "呢"})
      if (act.ends_with(end)) act.remove_suffix(end.size());
    if (act.empty() || count_code_points(things) < 2) return std::nullopt;
    return Step{std::string(act) + "的" + std::string(things) + std::string(t.text),
                "examples_of_set"};
  }
  return std::nullopt;
}

// 1f. "What else" (还有呢, 还有吗, 还有别的吗) after a question word's question asks it again for
// more: 还 after its topic (离职需要办哪些手续 + 还有呢 → 离职还需要办哪些手续).
std::optional<Step> more_of_step(const TurnView& t) {
  const std::string_view said = t.text;
  if (!after_more(said).empty() || !t.h.prev_is_question ||
      !t.h.topic() || !asks_wh(t.h.prev_scan, t.h.prev, t.lex.ids()))
    return std::nullopt;
  const std::string_view asked = trim_end(t.h.prev_text);
  const std::string_view head = asked.substr(0, std::min<std::size_t>(t.h.subject_end,
                                                                      asked.size()));
  const std::string_view rest = trim_start(asked.substr(head.size()));
  std::string more(asked);
  if (!rest.empty() && !rest.starts_with("还")) more = std::string(head) + "还" + std::string(rest);
  if (const std::string_view other = said.starts_with("还有") ? said_other(said) : ""; !other.empty())
    if (auto out = with_other(asked, more, other))
      return Step{std::move(*out), "more_of_question:other"};
  return Step{std::move(more), "more_of_question"};
}

}  // namespace qaplan::internal::rewriting
