#include "planning/analysis/rewrite_turn.hpp"

// An English predicate after an English question (docs/rewrite.md): the activity or the thing the
// question asked about, said after the predicate as English says it; else the question whole.
#include "planning/analysis/english_slot.hpp"
#include "planning/analysis/phrases.hpp"

namespace qaplan::internal::rewriting {

// An English predicate after an English question (english_slot.hpp): the activity or the thing it
// asked about after the predicate, else the question whole before it; nullopt for other turns.
std::optional<Step> english_predicate(const TurnView& t, std::string_view frag) {
  // English: a predicate after a how-question (How do I apply for a company credit card? + what
  // are the requirements) asks about that activity, which follows it (… to apply for …).
  if (ascii_text(frag) && t.h.prev_is_question)
    if (const auto act = english_activity(t.h.prev_text))
      return Step{std::string(trim_end(frag)) + " to " + std::string(*act), "activity_after"};
  // …and one after any other question asks about the thing it asked about (Where can I find the
  // travel policy? + Is there an English version? → … for the travel policy): English says it
  // after the predicate, not in front.
  // A choice the question offered (card or pay myself) is no one thing, and why asks about what
  // was done to it (carry over): the question goes whole.
  if (ascii_text(frag) && t.h.prev_is_question && ascii_text(t.h.prev_text) &&
      t.h.prev_text.find(" or ") == std::string_view::npos && !frag.starts_with("why"))
    if (const auto thing = english_thing(t.h.prev_text, false))
      return Step{std::string(trim_end(frag)) + " for " + std::string(*thing), "thing_after"};
  // Else the question whole, then the turn: the Chinese readings below would splice a piece of an
  // English question in front (approves expenses over what's his phone number).
  if (ascii_text(frag) && t.h.prev_is_question && ascii_text(t.h.prev_text)) {
    std::string_view asked = trim_end(t.h.prev_text);
    if (asked.ends_with("?")) asked = trim_end(asked.substr(0, asked.size() - 1));
    return Step{std::string(asked) + " " + std::string(t.text), "topic_prefix",
                "rewrite:fallback:english"};
  }
  return std::nullopt;
}

}  // namespace qaplan::internal::rewriting
