#pragma once
// What a pronoun stands for: whom 他 / 她 / 他们 means (a name in the window, the one a who-question
// asked about) and how much of a demonstrative's noun the antecedent already holds.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

/// Whom 他 / 她 / 他们 stands for: a name in the newest turn; else the one the previous question
/// asked about (公司的DPO是谁 → 公司的DPO); else a noun naming people (`[rewrite] person_heads`:
/// 明星, 新员工) that `question` does not repeat, in the previous question, then in the newest
/// turn; else a name or such a noun in an older turn of the window.
/// Nullopt leaves it to the thing rule (the previous question's most specific phrase).
std::optional<std::string> person_antecedent(const std::vector<std::string_view>& window,
                                             std::string_view prev, const std::vector<Span>& prev_spans,
                                             const ScannedQuery& prev_scan, std::string_view question,
                                             std::string_view pronoun,
                                             const PhraseReader& reader);

/// True when `text` names a person: a name ICU does not know or a noun ending in a person head.
bool names_a_person(std::string_view text, const PhraseReader& reader);

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

/// Bytes of the longest tail of `antecedent` that `rest` starts with (模板 of 供应商合同模板 in
/// 模板能改…); 0 when none.
std::size_t shared_head(std::string_view antecedent, std::string_view rest);

}  // namespace qaplan::internal
