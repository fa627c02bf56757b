#pragma once
// The built-in follow-up rewriter (docs/rewrite.md): no model, deterministic. It rewrites WITH the
// history (a window of the last turns plus an explicit topic anchor) so retrieval can run on the
// rewritten query WITHOUT the history:
//  - a pronoun (它, 她, 这个, it …) is replaced by its antecedent — a name-like span for person
//    pronouns, the previous question's topic otherwise (你喜欢姚笛吗 + 她多大了 → 姚笛多大了);
//  - an elliptical fragment (那审批呢, 上海呢, what about Mac) is put in the place of the matching
//    part of the previous question (北京有什么好吃的 + 上海呢 → 上海有什么好吃的), or beside the
//    topic when it is an aspect of it (报销流程是什么 + 那审批呢 → 报销审批流程是什么);
//  - a condition (如果没休完怎么办) gets the topic after its marker; a comparison (跟去年比呢) is
//    attached to the previous question's subject; a bare predicate (怎么申请呢, 多少钱) gets the
//    topic in front.
// A question that is not a follow-up is returned unchanged; after a topic switch the old topic is
// never dragged in (the caller only calls this for follow-ups).
#include <string>
#include <string_view>
#include <vector>

#include "planning/analysis/constraints.hpp"
#include "planning/lexicon.hpp"
#include "qaplan/planning/analysis.hpp"

namespace qaplan::internal {

/// `question` and `history` are normalized (normalize_question); history oldest first.
/// `words`: every [rewrite] list (function words, pronouns, markers, question words).
Rewrite rewrite_follow_up(std::string_view question, const std::vector<std::string>& history,
                          const Lexicon& lex, const WordSet& words);

/// "[上下文] 用户上一轮询问“…”，实体：… [当前] …" — the compressed history handed to a hook
/// (entities kept explicit).
std::string history_summary(std::string_view question, const std::vector<std::string>& history,
                            std::string_view topic);

}  // namespace qaplan::internal
