#include "qaplan/category.hpp"

#include "internal/lexicon_ids.hpp"

namespace qaplan {

QuestionCategory infer_question_category(const QueryAnalysis& q, const Lexicon& lex) {
  const auto& rules = lex.config().category.rules;
  const auto& ids = lex.ids();
  for (std::size_t i = 0; i < rules.size(); ++i)
    if (q.has(ids.category[i])) return rules[i].category;
  return QuestionCategory::kDefault;
}

bool is_table_query(const QueryAnalysis& q, const Lexicon& lex) {
  return q.has(lex.ids().table);
}

}  // namespace qaplan
