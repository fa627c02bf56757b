#pragma once
// Stage — category: the risk label and the table-shape signal, from the CURRENT question only
// (never the history). One category per question: the first [[category.rules]] entry (config
// order; shipped: compliance, pricing, troubleshooting, summary) with a keyword hit wins.
#include "planning/lexicon.hpp"
#include "planning/model/model_view.hpp"
#include "qaplan/planning/preparation.hpp"

namespace qaplan::internal {

QuestionCategory infer_question_category(const ScannedQuery& q, const Lexicon& lex);

/// The plan's category: the rules' (infer_question_category) when they find one, else the
/// model's category head at [model] category_min_score, else default.
Decided<QuestionCategory> decide_category(const ScannedQuery& q, const Lexicon& lex,
                                          const ModelVerdict& model);

/// True when the question depends on a list, ledger, field or row ([category] table_keywords).
bool is_table_query(const ScannedQuery& q, const Lexicon& lex);

}  // namespace qaplan::internal
