#pragma once
// A short answer to the other side's question (你最喜欢吃什么水果 + 芒果; 你想吃米饭还是面条 + 面条):
// the question, said back by the one who answers, with the answer in the slot it asked about
// (我最喜欢吃芒果, 我想吃面条) (docs/rewrite.md#answers-to-a-question).
#include <optional>
#include <string>
#include <string_view>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// `question` (its last clause: 好啊，你想看哪部 → 你想看哪部) with `answer` in the slot it asks
/// about — a choice of `[rewrite] alternative_markers` (A还是B), else a word of `answer_slots`
/// (什么, 哪, 几) with what it asks for after it — and its addressee (`addressee_words`: 你, 您,
/// 你们) turned into the speaker (我, 我们). Nullopt when the question has no such slot, or asks
/// with a slot word but addresses no one (劳动合同要签几年 is the user's own question, not one
/// put to the user).
std::optional<std::string> fill_answer(std::string_view question, std::string_view answer,
                                       const PhraseReader& reader);

/// Bytes of the word of `words` that `text` opens with, on ICU's word boundary or inside a first
/// word glued from function characters (你想, 我是); 0 when none.
std::size_t opening_word(std::string_view text, const std::vector<std::string>& words,
                         const PhraseReader& reader);

}  // namespace qaplan::internal
