#pragma once
// Which place a fragment of another kind than the topic takes in the previous question (a thing
// after people, a place or a body): kind_slot.cpp.
#include <optional>
#include <string>
#include <string_view>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// The previous question with `frag` in the place of its object, when the question asks what its
/// subject — people or a place — may do with a thing ("S 能|可以 V O 吗": 员工能报销打车费吗 + 那高铁呢
/// → 员工能报销高铁吗) and the fragment names a thing; nullopt otherwise.
std::optional<std::string> object_in_place(std::string_view prev_text, const Span& topic,
                                           std::string_view frag, const PhraseReader& reader);

/// The previous question with `frag` in the place of the thing its owner — people or a body —
/// has (离职员工的邮件 + 那聊天记录呢 → 离职员工的聊天记录); nullopt otherwise.
std::optional<std::string> head_in_place(std::string_view prev_text, const Span& topic,
                                         std::string_view frag, const PhraseReader& reader);

}  // namespace qaplan::internal
