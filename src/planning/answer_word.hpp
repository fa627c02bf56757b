#pragma once
// A short question that takes up a word the newest turn, an answer, brought in (签到表要原件吗
// after 会务费报销要什么材料 + 需提供会议通知、签到表、费用明细和发票。): it asks about what the
// answer named, inside the conversation's topic. The follow-up stage makes such a turn a follow-up.
#include <vector>

#include "planning/lexicon.hpp"

namespace qaplan::internal {

/// The history ends in a question and its answer (a turn that reads as no question); q's content
/// is at most [intent] subjectless_max_units units, does not open with a speaker word (我, 我们:
/// the user says something of their own), and holds a word of two or more characters (ICU's word
/// break; no function word, no question word) that the answer holds and its question does not.
bool takes_up_answer_word(const ScannedQuery& q, const std::vector<NormalizedQuery>& history,
                          const Lexicon& lex);

}  // namespace qaplan::internal
