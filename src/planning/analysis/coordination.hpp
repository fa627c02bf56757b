#pragma once
// "Which of the two" follow-ups (哪个快一点 after 仲裁和诉讼都能走吗): the question is about the
// pair the history coordinated, not about the previous question's predicate. The pair is read
// off ICU's words: the content words either side of a coordinating conjunction.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planning/analysis/constraints.hpp"

namespace qaplan::internal {

class PhraseReader;

/// True when `turn` asks to choose between things (哪个 / 哪种 / 哪家 …, 两者, 二者) without
/// naming them itself. With `times_too` false, 哪 before a unit of time (哪天, 哪个月, 哪一年) asks
/// when, not which.
bool asks_which(std::string_view turn, bool times_too = true);

/// The pair `text` coordinates, "A和B": the content words before and after the first
/// coordinating conjunction (和 跟 与 及 以及 还是 或 或者). A conjunct stops at a function word,
/// at a verb with its aspect particle (去过) or a lone-character verb (选温泉) and before an
/// adverb that starts the predicate (都能, 也要); items listed before it with 、 belong to the first.
/// 还是 / 或 read as 和; 跟 and 与 are kept. nullopt when nothing is coordinated.
std::optional<std::string> coordinated_pair(std::string_view text, const WordSet& function_words);

/// The two ways a yes-or-no question offers with a repeated modal, "S 可以A(，)也可以B吗"
/// (去园区可以坐班车也可以坐地铁吗 → 去园区坐班车和坐地铁; also 能…也能…): S, then A和B. nullopt
/// unless both ways are short phrases without a question word.
std::optional<std::string> offered_pair(std::string_view question);

/// What the yes-or-no `question` that coordinated `pair` asks both items do (门诊和急诊都能开住院证吗
/// → 开住院证), when a which-question `turn` compares them at it: a verb with its object or manner,
/// two content words after the adverb and modal, none of whose characters the turn says. nullopt
/// for a lone verb (都能签吗) or an adverb of doing both (一起, 同时).
std::optional<std::string> shared_activity(std::string_view question, std::string_view pair,
                                           std::string_view turn, const WordSet& function_words);

/// The pair read as two kinds of a thing `question` named before it in its clause, each item with
/// that thing's head noun (公司耳机可以选有线或蓝牙的吗 → 有线耳机和蓝牙耳机; 工位有固定和共享两种吗,
/// with 共享工位 said in `window` → 固定工位和共享工位). Only when the items close with 的 ending the
/// question, or with a count of kinds (两种, 两类) and a turn names an item with the head. nullopt
/// otherwise, or when an item already ends in the head.
std::optional<std::string> headed_kinds(std::string_view question, std::string_view pair,
                                        const std::vector<std::string_view>& window,
                                        const PhraseReader& reader);

/// `turn` with the pair in front, or in the place of the turn's word for both (两者有啥区别 →
/// A和B有啥区别: 两者 is a pronoun, replaced like 它).
std::string which_of_pair(std::string_view pair, std::string_view turn);

/// Where a turn names both items of a pair: [begin, count_end) the pronoun or count, up to `end`
/// with one noun after the count (两条|线).
struct BothPronoun {
  std::size_t begin = 0, count_end = 0, end = 0;
};

/// 两者, 二者 or 这两个 anywhere in `turn`, or a count of two opening it before a predicate
/// (两个有啥不一样, 这两种哪个好, 两条线差在哪). nullopt when it names no pair (两个人的, 两个以上,
/// 两个月能休完吗).
std::optional<BothPronoun> both_pronoun_at(std::string_view turn);

/// The pronouns that stand for both items of a pair (两者, 二者, 这两个): words a rewrite may
/// replace.
std::span<const std::string_view> both_pronouns();

}  // namespace qaplan::internal
