#pragma once
// A fragment that says where to or from (寄到乌鲁木齐, 去上海, 从机场): the previous question asked
// with that place in the place of its own.
#include <optional>
#include <string>
#include <string_view>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// 顺丰寄一公斤到北京多少钱 + 那寄到乌鲁木齐呢 → 顺丰寄一公斤到乌鲁木齐多少钱: the fragment ends in
/// 到 / 去 / 往 / 从 / 至 and a place; the question holds that word once, before content words
/// and then what it asks — those words (as many as the place has) give way. Nullopt otherwise.
std::optional<std::string> redirected(std::string_view prev, std::string_view frag,
                                      const PhraseReader& reader);

}  // namespace qaplan::internal
