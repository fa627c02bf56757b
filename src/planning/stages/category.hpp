#pragma once
// Stage — category: the risk label and the table-shape signal, from the CURRENT question only
// (never the history). One category per question: the first [[category.rules]] entry (config
// order; shipped: compliance, pricing, troubleshooting, summary) with a keyword hit wins.
#include "planning/lexicon.hpp"

namespace qaplan::internal {

QuestionCategory infer_question_category(const ScannedQuery& q, const Lexicon& lex);

/// True when the question depends on a list, ledger, field or row ([category] table_keywords).
bool is_table_query(const ScannedQuery& q, const Lexicon& lex);

}  // namespace qaplan::internal
