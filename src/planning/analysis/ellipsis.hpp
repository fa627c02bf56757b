#pragma once
// An elliptical fragment (那竞业协议呢, 周末的呢, 3001呢, what about Shanghai) put in the place of the
// matching part of the previous question: the parallel item, the 的-modifier, the identifier's
// digits, the English noun phrase.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// Where in `prev` the fragment's parallel item lies: the fragment's last word (its head) equals a
/// word of `prev`, or both are two or more characters ending in the same character (早餐 / 午餐);
/// the item is as many words as the fragment, ending at that word, within one run of content words.
std::optional<std::pair<std::size_t, std::size_t>> parallel_item(std::string_view prev,
                                                                 std::string_view frag,
                                                                 const PhraseReader& reader);

/// A fragment ending in 的 (海外的, 周末的) in the place of the previous question's parallel item or
/// 的-modifier, or in front of a one-word topic; with the rule's reason. Nullopt: no safe place.
std::optional<std::pair<std::string, const char*>> modifier_substitute(std::string_view prev,
                                                                       const Span& topic,
                                                                       std::string_view frag,
                                                                       const PhraseReader& reader);

/// Digits in place of an identifier's digits (VPN-1001 + 3001 → VPN-3001).
std::optional<std::string> renumbered(std::string_view prev, std::string_view frag);

/// English ellipsis: the fragment in the place of the previous question's matching noun phrase.
std::optional<std::string> english_substitute(std::string_view prev, std::string_view frag,
                                              const PhraseReader& reader);

/// Where an elliptical fragment of one run of content words goes (step 4 of the rewrite): its
/// text and rule, or `no_place` — a modifier whose head ICU cut (大|会议|室) is not spliced at a
/// guess; the caller falls back to the anchor and the turn. `asks_ne`: the turn ended in 呢.
struct Placed {
  std::string text;
  const char* how = "";
  bool no_place = false;
};
Placed fragment_in_place(std::string_view prev, std::string_view prev_text, const Span& topic,
                         std::string_view frag, const std::vector<Span>& spans,
                         const PhraseReader& reader, bool asks_ne);

}  // namespace qaplan::internal
