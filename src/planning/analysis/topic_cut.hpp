#pragma once
// Where a fragment's replacement of the previous question's topic ends (ellipsis.cpp's last
// step): after the leading words it stands for, and before the time words closing the run.
#include <cstdint>
#include <optional>
#include <string_view>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// Where the topic's leading words the fragment stands for end (普通员工一类城市住宿标准 + 经理级别
/// → after 普通员工; 猫咪|绝|育|手术 + 狗狗 → after 猫咪), counting a run of lone characters as one
/// word (狗|狗, 华|为 of 华|为|手机: a name ICU does not know); nullopt: the whole topic is replaced —
/// when the cut would split such a run, or when the topic is a word and a name of three or more
/// lone characters (厦门|鼓|浪|屿 + 曾厝垵: a place for a place; a two-character run is as often a
/// word's head, 空调|加|氟).
std::optional<std::uint32_t> modifier_end(std::string_view prev_text, const Span& topic,
                                          std::string_view frag, const PhraseReader& reader);

/// Where a replaced run ends before the time words closing it (梅西|今年 + C罗呢 → C罗今年): a time
/// word is when the question asks, no part of the item the fragment stands for — unless the
/// fragment says a time itself.
std::uint32_t before_time_words(std::string_view prev_text, std::uint32_t begin, std::uint32_t end,
                                std::string_view frag);

}  // namespace qaplan::internal
