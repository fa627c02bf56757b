#include "planning/analysis/rewrite_turn.hpp"

// Fragments that name more than one item, or another case of what a query asked: where they go
// in the previous question (docs/rewrite.md, "Constructions the dev rows lack").
#include <algorithm>

#include "common/utf8.hpp"

namespace qaplan::internal::rewriting {

// A bare noun after an answer to a query that asked no question (出差补贴标准 + 国内出差每天补贴
// 100元，海外… + 港澳) names another case of what was asked: the noun, then the query (港澳出差补贴
// 标准) — not the noun spliced into the answer's clause.
// The answer gave the cases it knows in clauses of their own (国内…，海外…) and the noun is none
// of them.
std::optional<Step> case_of_asked(const TurnView& t, std::string_view frag) {
  if (t.h.prev_is_question || t.h.prev_at != 0 || t.h.window.size() < 2) return std::nullopt;
  const std::string_view answer = t.h.window[0];
  // A predicate (还是慢, 不行) is no case.
  if (answer.find(',') == std::string_view::npos || answer.find(frag) != std::string_view::npos ||
      opens_with_adverb(frag))
    return std::nullopt;
  const std::string_view query = trim_end(t.h.window[1]);
  if (query.empty() || !names_only(query) || count_code_points(query) > 12 ||
      query.find(frag) != std::string_view::npos || ascii_text(query))
    return std::nullopt;
  const std::vector<std::string>& asks = t.lex.config().rewrite.question_words;
  for (const std::string& q : asks)
    if (!q.empty() && static_cast<unsigned char>(q[0]) >= 0x80 && query.find(q) != std::string_view::npos)
      return std::nullopt;
  // A query that names one thing (出差补贴标准), not a statement of a trouble (手机很卡).
  const std::vector<Span> runs = t.reader.spans(query);
  if (runs.size() != 1 || runs.front().begin != 0 || has_own_verb(query, t.reader)) return std::nullopt;
  const std::string_view last = last_code_point(frag);
  // A noun of the query's first word's kind takes its place (年假天数 + 病假 → 病假天数).
  if (const std::vector<Token> w = words_of(query);
      !w.empty() && w.front().end < query.size() && count_code_points(w.front().text(query)) >= 2 &&
      last == last_code_point(w.front().text(query)))
    return Step{std::string(frag) + std::string(query.substr(w.front().end)), "ellipsis:asked"};
  // A comma where the noun ends in the query's first character (海外,外派津贴标准): run together
  // they read as a character doubled at a seam.
  const bool seam = !last.empty() && static_cast<unsigned char>(last[0]) >= 0xE0 && query.starts_with(last);
  return Step{seam ? std::string(frag) + "," + std::string(query) : join(frag, query), "ellipsis:asked"};
}

// Two items of one kind (one head: 培训协议 / 保密协议, 病假 / 事假) joined by 和 / 跟 / 与, asked
// about with 呢, are asked about together: both take the place of the topic that opens the
// question, and the question stays (劳动合同要保存几年 + 那培训协议和保密协议呢 → 培训协议和保密协议
// 要保存几年). Items of two kinds (举办时间和参加人数) are aspects of the topic, not in its place.
std::optional<Step> pair_in_place(const TurnView& t, std::string_view frag,
                                  const std::vector<Span>& spans) {
  if (spans.size() != 2 || t.h.newest_stated() || t.h.topic()->begin != 0) return std::nullopt;
  const std::string_view gap = trim_end(slice(frag, spans[0].end, spans[1].begin));
  const Span& topic = *t.h.topic();
  const std::string_view a = slice(frag, spans[0].begin, spans[0].end);
  const std::string_view b = slice(frag, spans[1].begin, spans[1].end);
  const std::string_view head = last_code_point(a);
  if ((gap != "和" && gap != "跟" && gap != "与") || head.empty() || head != last_code_point(b) ||
      trim_end(t.h.prev_text.substr(topic.end)).empty() || spans[1].end != trim_end(frag).size())
    return std::nullopt;
  // Things of the topic's kind: its head (病假 / 事假 of 年假), or as long a name as the topic's
  // (培训协议 of 劳动合同); 男生和女生 of 员工宿舍 qualify it, in no place of it.
  const std::string_view named = slice(t.h.prev_text, topic.begin, topic.end);
  const std::size_t n = count_code_points(named);
  if (head != last_code_point(named) && (count_code_points(a) < n || count_code_points(b) < n))
    return std::nullopt;
  return Step{join(join(std::string(t.h.prev_text.substr(0, topic.begin)), frag),
                   t.h.prev_text.substr(topic.end)),
              "ellipsis:pair"};
}

}  // namespace qaplan::internal::rewriting
