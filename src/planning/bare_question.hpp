#pragma once
// A bare question: one whose own words are only a verb or two once its question words and the
// rewriter's function words are out (怎么申请, 要怎么处理, 需要提前几天, 好吃吗). It asks about the
// conversation's topic, not one of its own. The follow-up stage makes such a turn a follow-up;
// the rewriter reads such a previous question through its own history (analysis/rewrite.cpp).
#include "planning/domain_lexicon.hpp"
#include "planning/lexicon.hpp"

namespace qaplan::internal {

/// The units of q's content left once its question words and the rewriter's function words are
/// taken out, an ASCII word counting two (as a Chinese word of two characters): 怎么申请 → 申请 2,
/// how do I apply → apply 2, 急救箱放在哪里 → 急救箱放 4.
int residual_units(const ScannedQuery& q, const Lexicon& lex);

/// q holds a question word and at most [intent] bare_question_max_units residual units (0 turns
/// the rule off).
bool bare_question(const ScannedQuery& q, const Lexicon& lex);

/// q's content is at most [intent] subjectless_max_units units and its first word (ICU's word
/// break) is one of [intent] subjectless_openers: it opens with its predicate (需要原部门同意吗,
/// 一般多久能批下来) and names no subject. A term of `kb` that starts with that word and goes on
/// past it (一般纳税人 where ICU reads 一般|纳税人) is a subject.
bool subjectless_question(const ScannedQuery& q, const Lexicon& lex, const DomainLexicon* kb);

/// q's content opens with a word of [intent] subjectless_which and the word after it (ICU's) can
/// start no noun — 的, 是, 在, 最, 更, 比较, 被 or a subjectless opener: 哪些在2002年以后还有预算,
/// 哪个最便宜, 哪家可以寄到北京. The which-word picks from what the history named. At most twice
/// subjectless_max_units units.
bool which_without_noun(const ScannedQuery& q, const Lexicon& lex);

}  // namespace qaplan::internal
