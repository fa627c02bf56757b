#pragma once
// An object a turn leaves out after its verb (一天喝几杯 after 你每天喝咖啡吗, 为啥很少看了 after
// 你还看NBA吗, 推荐几本吧 after 你看小说吗): where it goes back, found by characters where ICU glues
// the verb to its neighbours (还看, 不学, 喝了).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qaplan::internal {

class PhraseReader;

/// Where an object goes in a turn that closes with its verb: after the verb, its result (读完) and
/// 过, before a closing 了 and one final particle (不喝了 → 不喝咖啡了, 吃完了吗 → 吃完火锅了吗).
/// `verb_end` is set to where the verb itself ends (before the result and the aspect).
std::size_t object_slot(std::string_view turn, std::size_t* verb_end = nullptr);

/// `turn` with `object` at byte `at`, when the word break reads the object whole there (春晚 before
/// 了 reads 春|晚了: nullopt).
std::optional<std::string> with_object_at(std::string_view turn, std::size_t at, std::string_view object);

/// 一天喝几杯 after 你每天喝咖啡吗 + 每天都喝: the turn's verb is the one the history's `topic` was
/// the object of (in a turn of `window`), and it has no object of its own. The topic goes back
/// after the verb, its aspect and its count, as the object it was (一天喝几杯咖啡, 下次带我去大理呗,
/// 读完红楼梦了没); nullopt otherwise, or after an aspect with no count (爬了多久).
std::optional<std::string> object_after_verb(const std::vector<std::string_view>& window,
                                             std::string_view topic, std::string_view frag,
                                             const PhraseReader& reader);

}  // namespace qaplan::internal
