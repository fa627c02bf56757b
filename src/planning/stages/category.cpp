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

Decided<QuestionCategory> decide_category(const ScannedQuery& q, const Lexicon& lex,
                                          const ModelVerdict& model) {
  Decided<QuestionCategory> out;
  out.value = infer_question_category(q, lex);
  if (out.value != QuestionCategory::kDefault) {
    out.decided_by = DecidedBy::kRule;
    return out;
  }
  if (!model.on()) return out;
  const HeadOutput& head = model.head(Head::kCategory);
  const auto cat = model.map->category[head.best].value_or(QuestionCategory::kDefault);
  if (cat != QuestionCategory::kDefault && head.score >= lex.config().model.category_min_score) {
    out.value = cat;
    out.decided_by = DecidedBy::kModel;
    out.score = head.score;
  }
  return out;
}

}  // namespace qaplan::internal
