#include "planning/stages/intent.hpp"

#include <algorithm>

namespace qaplan::internal {
namespace {

bool ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// An English entry matches whole words: "and" opens "and hotel wi-fi", not "android phones".
bool starts_with_any(std::string_view text, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
    return text.starts_with(w) &&
           !(ascii_alnum(w.back()) && text.size() > w.size() && ascii_alnum(text[w.size()]));
  });
}

bool ends_with_any(std::string_view text, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
    return text.ends_with(w) && !(ascii_alnum(w.front()) && text.size() > w.size() &&
                                  ascii_alnum(text[text.size() - w.size() - 1]));
  });
}

// `check_unless` = false asks "would the rule hold without its veto list" (no copy of the rule).
// The packed gate answers all but the start and end words, which only a few rules have.
bool rule_holds(const IntentRuleConfig& r, const IntentGate& g, const ScannedQuery& q,
                bool has_history, std::string_view core, bool anchored, const LexiconIds& ids,
                bool check_unless = true) {
  const bool history = g.has(IntentGate::kHistory);
  if (history && !has_history) return false;
  if (g.has(IntentGate::kMaxUnits) && q.query.query_units > g.max_units) return false;
  if (g.has_min_units && q.query.query_units < g.min_units) return false;
  if (history && q.has_in_content(ids.topic_switch)) return false;
  if (g.has(IntentGate::kContains) && !q.has_in_content(g.contains)) return false;
  if (check_unless && g.has(IntentGate::kUnless) && q.has_in_content(g.unless)) return false;
  if (g.has(IntentGate::kStarts) && !starts_with_any(core, r.starts_with_any)) return false;
  if (g.has(IntentGate::kEnds) && !ends_with_any(core, r.ends_with_any)) return false;
  if (g.has(IntentGate::kNoAnchor) && anchored) return false;
  if (g.has(IntentGate::kNoQuestion) &&
      (q.has_in_content(ids.question_word) || core.ends_with("了") || core.ends_with("过") ||
       q.query.text.find('?') != std::string::npos || q.query.text.find("？") != std::string::npos))
    return false;
  return true;
}

}  // namespace

IntentCandidate classify_intent(const ScannedQuery& q, bool has_history,
                                std::optional<std::string> suggested_source, const Lexicon& lex) {
  const IntentConfig& ic = lex.config().intent;
  const auto& ids = lex.ids();
  // starts_with/ends_with look at the question without the social words around it and without
  // trailing punctuation (谢谢，那审批呢？ → 那审批呢).
  const std::string_view core = core_text(q.content());
  const bool anchored = has_work_anchor(q, ids);
  IntentCandidate c;
  const IntentRuleConfig* winner = nullptr;
  for (std::size_t i = 0; i < ic.rules.size(); ++i) {
    const IntentGate& g = ids.intent[i];
    if (!rule_holds(ic.rules[i], g, q, has_history, core, anchored, ids)) {
      if (g.has(IntentGate::kUnless) && q.has_in_content(g.unless) &&
          rule_holds(ic.rules[i], g, q, has_history, core, anchored, ids, /*check_unless=*/false))
        c.vetoed = true;
      continue;
    }
    c.matched_rules.push_back(ic.rules[i].id);
    if (winner == nullptr) winner = &ic.rules[i];
  }
  if (winner != nullptr) {
    c.intent = winner->intent;
    c.score = winner->score;
    c.rule_id = winner->id;
  } else {
    c.intent = ic.default_intent;
    c.score = ic.default_score;
    c.rule_id = ic.default_rule_id;
    c.matched_rules.push_back(ic.default_rule_id);
  }
  c.requires_rewrite = c.intent == Intent::kFollowUp;
  c.suggested_source = std::move(suggested_source);
  return c;
}

}  // namespace qaplan::internal
