#include "planning/stages/category.hpp"

namespace qaplan::internal {

QuestionCategory infer_question_category(const ScannedQuery& q, const Lexicon& lex) {
  const auto& rules = lex.config().category.rules;
  const LexiconIds& ids = lex.ids();
  for (std::size_t i = 0; i < rules.size(); ++i)
    if (q.has_in_content(ids.category[i])) return rules[i].category;
  return QuestionCategory::kDefault;
}

bool is_table_query(const ScannedQuery& q, const Lexicon& lex) {
  return q.has_in_content(lex.ids().table);
}

}  // namespace qaplan::internal
