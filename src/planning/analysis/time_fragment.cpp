#include "planning/analysis/rewrite_turn.hpp"

// A fragment that only says when (平时呢, 周末呢, 春节期间呢): the previous question asked at that
// time (docs/rewrite.md).
#include <algorithm>
#include <string>
#include <vector>

#include "planning/analysis/answer_fill.hpp"

namespace qaplan::internal::rewriting {

std::optional<Step> time_step(const TurnView& t, std::string_view frag) {
  if (!temporal(frag) && !(t.h.prev_is_question && temporal_phrase(frag))) return std::nullopt;
  // Its time word in its place — one word, or two ICU cut apart (工作|日), or a break (暑假).
  const std::string_view p = t.h.prev_text;
  const std::vector<Token> pw = words_of(p);
  for (std::size_t i = 0; i < pw.size(); ++i)
    for (std::size_t j = std::min(i + 2, pw.size()); j-- > i;)  // the longer first: 中秋|节
      if (const std::string_view w = slice(p, pw[i].begin, pw[j].end);
          temporal(w) || names_a_break(w)) {
        std::string when(frag);  // 中秋节 + 端午 → 端午节, as the history named its holiday
        if (w.ends_with("节") && names_a_break(w.substr(0, w.size() - 3)) && !when.ends_with("节") &&
            names_a_break(when + "节"))
          when += "节";
        return Step{join(join(std::string(p.substr(0, pw[i].begin)), when), p.substr(pw[j].end)),
                    "ellipsis:time"};
      }
  // No time word to replace: after the question's own subject (你孩子|周五几点放学), else first.
  if (!t.h.prev_is_question) return std::nullopt;
  const RewriteConfig& cfg = t.lex.config().rewrite;
  std::size_t at = opening_word(p, cfg.addressee_words, t.reader);
  if (at == 0) at = opening_word(p, cfg.speaker_words, t.reader);
  if (at > 0) at = person_after(p, at, t);
  return Step{join(join(std::string(p.substr(0, at)), frag), p.substr(at)), "ellipsis:time"};
}

}  // namespace qaplan::internal::rewriting
