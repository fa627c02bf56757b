#pragma once
// What a pronoun stands for: whom 他 / 她 / 他们 means (a name in the window, the one a who-question
// asked about), which place 那里 / 那边 means, which phrase a demonstrative with its noun (这个系统)
// means, and how much of a demonstrative's noun the antecedent already holds.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// Code points of the longest answer clause read as a name alone (塞尔达王国之泪, 葬送的芙莉莲).
inline constexpr std::size_t kShortAnswer = 8;

/// The verb a who-question asks the doer of (谁演的甄嬛, 这首歌是谁唱的: 演, 唱), one or two
/// characters between 谁 and 的; nullopt for any other question.
std::optional<std::string_view> verb_asked_who_did(std::string_view prev);

/// Whom 他 / 她 / 他们 stands for: the doer an answer names by the who-question's verb, when
/// `answered` (the newest turn answers the previous question: 谁演的甄嬛 + 孙俪演的); else a name in
/// the newest turn; else the one the previous question
/// asked about (公司的DPO是谁 → 公司的DPO); else a noun naming people (`[rewrite] person_heads`:
/// 明星, 新员工) that `question` does not repeat, in the previous question, then in the newest
/// turn; else a name or such a noun in an older turn of the window.
/// Nullopt leaves it to the thing rule (the previous question's most specific phrase).
std::optional<std::string> person_antecedent(const std::vector<std::string_view>& window,
                                             std::string_view prev, const std::vector<Span>& prev_spans,
                                             const ScannedQuery& prev_scan, std::string_view question,
                                             std::string_view pronoun,
                                             const PhraseReader& reader, bool answered);

/// True when the noun phrase `s` names people: two or more characters ending in one of `[rewrite]
/// person_heads` (部门经理, 同事, 客户), not one of `not_person_nouns`.
bool person_phrase(std::string_view s, const PhraseReader& reader);

/// True when `text` names a person: a name ICU does not know or a noun ending in a person head.
bool names_a_person(std::string_view text, const PhraseReader& reader);

/// 那里 / 这里 / 那儿 / 这儿 / 那边 / 这边: a pronoun of place.
bool place_pronoun(std::string_view w);

/// The place such a pronoun stands for: what a where-question asked about (健身房在哪 → 健身房);
/// else the place a turn of the window names after a word of going or being somewhere, newest
/// turn first (在市一院做的 → 市一院, 去了趟西湖 → 西湖, 搬到望京了 → 望京); else the newest turn
/// itself when it is a short answer to a where-question (小区旁边那个游泳馆). `located_first`
/// (the pronoun itself follows such a word: 我也在那边) tries the named place before the asked one.
std::optional<std::string> place_antecedent(const std::vector<std::string_view>& window,
                                            std::string_view prev, bool located_first,
                                            const PhraseReader& reader);

/// What the newest turn answered when the previous question asked for a thing with a word of
/// `[rewrite] answer_slots` (最近在追什么番 + 葬送的芙莉莲，超好看; 哪款啊 + 飞马40，穿着很软): the noun
/// phrase that opens the answer's first clause, two or more characters long; nullopt otherwise.
/// 它 / 这个 then stands for the thing the answer named, not for the question's word.
std::optional<std::string> answered_thing(std::string_view answer, std::string_view prev,
                                          const PhraseReader& reader);

/// What 它 / 这个 / 那个 stands for: the previous question's most specific span (an identifier, a
/// 《title》 or a run looked up in a container first, then the longest; not a modifier or a
/// quantity). `prev_spans` must not be empty.
std::string thing_antecedent(std::string_view prev, const std::vector<Span>& prev_spans,
                             const ScannedQuery& prev_scan, const LexiconIds& ids);

/// A demonstrative with its classifier and a short noun that points back (那部片子, 这个证, 那家公司):
/// [begin, end) of the whole phrase in `turn`, the first such phrase; nullopt otherwise. The noun is
/// one word of one or two characters — a longer one names a topic of its own (那个会议室预订系统) —
/// and no time (这个月, 那天) or person (那个人) word. 个 is left out: 这个 before a word is as often
/// a pronoun before its predicate (这个好玩吗, 那个一年多少钱), 这次 is a time (这次会议), and 哪
/// asks (哪个).
/// `function_words`: the rewriter's word lists (PhraseReader's).
std::optional<std::pair<std::size_t, std::size_t>> pointed_noun(std::string_view turn,
                                                               const WordSet& function_words);

/// 这 / 那 with a classifier (这本|我一直想看, 那部|挺好看, 这家|健身房): [begin, end) of the two in
/// `turn`, which point as a pronoun does — the antecedent takes both places, a noun after them
/// stays; nullopt when the turn has none, when the classifier begins a word (这|部分), or when the
/// pair has a short noun that pointed_noun reads with it.
std::optional<std::pair<std::size_t, std::size_t>> standing_pointer(std::string_view turn,
                                                                    const WordSet& function_words);

/// The noun phrase a demonstrative with its noun points at (这个系统 → SPD系统, 这张表 →
/// 《职业暴露登记表》): in the window's turns, newest first, the last phrase that ends in `head` as
/// a word and is longer than it — a content run cut at the head, or a 《title》 whose name ends so.
/// Nullopt when no turn has one.
std::optional<std::string> headed_antecedent(const std::vector<std::string_view>& window,
                                             std::string_view head, const PhraseReader& reader);

/// Bytes of the longest tail of `antecedent` that `rest` starts with (模板 of 供应商合同模板 in
/// 模板能改…), or a lone character of its last two that abbreviates it (证 of PMP证书 in 证有用吗);
/// 0 when none.
std::size_t shared_head(std::string_view antecedent, std::string_view rest);

}  // namespace qaplan::internal
