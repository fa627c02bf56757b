#pragma once
// Fragments that sit beside the topic rather than in its place (ellipsis.cpp asks them first or
// after the parallel item): a place where it is used, a case of it counted or ranked, a version.
#include <optional>
#include <string>
#include <string_view>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// Where the topic is used (公司邮箱怎么登录 + 手机上呢 → 公司邮箱手机上怎么登录); after a question
/// naming a place with 在, a place with 在 takes its place (在北京… + 在上海呢). nullopt: no place.
std::optional<std::string> placed_adjunct(std::string_view prev_text, const Span& topic,
                                          std::string_view frag, const PhraseReader& reader);

/// Whether a word of `text` is a count (超过两天: digits, or numerals with at most a unit after).
bool holds_count(std::string_view text);

/// How a fragment opening with a negation (不满意, 没发票) stands to the previous question: a case of
/// its topic when that question asks whether something can or may be done (课程可以退吗 + 不满意呢
/// → 课程不满意可以退吗; kCaseFirst before a question opening with its modal: 没有社保能办居住证吗),
/// a predicate with no place otherwise (团建必须参加吗 + 不去呢); kNone when its first word is no
/// negation. Never an item in the topic's place: that lost the topic.
enum class Negated { kNone, kCase, kCaseFirst, kPredicate };
Negated negated_case(std::string_view prev_text, std::string_view frag);

/// A fragment of two or three words, six characters at most, that counts or ranks (超过|百万,
/// 第二次|续签, 连续|休|五天): a case of the topic, which goes after it; a count opening it names
/// an item (三|楼, 两种), and a clause or a 的-modifier is none.
bool counted_case(std::string_view frag);

/// A version of the topic in front of it (手机版公司信箱怎么设置) when the question opens with the
/// topic and names no version; nullopt otherwise.
std::optional<std::string> versioned(std::string_view prev_text, const Span& topic,
                                     std::string_view frag, const PhraseReader& reader);

}  // namespace qaplan::internal
