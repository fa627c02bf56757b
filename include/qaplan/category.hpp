#pragma once
/// Stage — category: the risk label and the table-shape signal, from the CURRENT question only
/// (never the history). One category per question: the first [[category.rules]] entry (config
/// order; shipped: compliance, pricing, troubleshooting, summary) with a keyword hit wins.
#include "qaplan/config.hpp"
#include "qaplan/export.hpp"
#include "qaplan/lexicon.hpp"

namespace qaplan {

QAPLAN_API QuestionCategory infer_question_category(const QueryAnalysis& q, const Lexicon& lex);

/// True when the question depends on a list, ledger, field or row ([category] table_keywords).
QAPLAN_API bool is_table_query(const QueryAnalysis& q, const Lexicon& lex);

}  // namespace qaplan
