#include "planning/stages/follow_up.hpp"

#include <algorithm>
#include <cctype>

#include "common/icu.hpp"
#include "common/utf8.hpp"

#include "planning/stages/intent.hpp"
#include "planning/stages/topic_switch.hpp"

namespace qaplan::internal {
namespace {

// A source keyword in the turn's content, or a KB term of some source: a topic of its own.
bool names_own_topic(const TurnInContext& t) {
  for (std::uint32_t id : t.lex.ids().source)
    if (t.q.has_in_content(id)) return true;
  return std::any_of(t.domain.sources.terms.begin(), t.domain.sources.terms.end(),
                     [](int n) { return n > 0; });
}

// The longest of `words` that text[i..] starts with (an ASCII word only where a word ends), in
// bytes; 0 when none.
std::size_t function_word_at(std::string_view text, std::size_t i,
                             const std::vector<std::string>& words) {
  std::size_t best = 0;
  for (const std::string& w : words) {
    if (w.size() <= best || text.compare(i, w.size(), w) != 0) continue;
    const bool ascii = static_cast<unsigned char>(w.back()) < 0x80;
    const std::size_t end = i + w.size();
    if (ascii && end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) continue;
    best = w.size();
  }
  return best;
}

// The units of the turn's content left once its question words and the rewriter's function
// words are taken out, an ASCII word counting two (as a Chinese word of two characters): 怎么申请
// → 申请 2, 要怎么处理 → 处理 2, how do I apply → apply 2, 急救箱放在哪里 → 急救箱放 4.
int residual_units(const TurnInContext& t) {
  const std::string_view text = t.q.query.text;
  const std::vector<std::string>& fw = t.lex.config().rewrite.function_words;
  const std::vector<bool> asked = cue_coverage(t.q, {t.lex.ids().question_word});
  int units = 0;
  bool in_word = false;
  for (std::size_t i = t.q.content_begin; i < t.q.content_end;) {
    const bool word_start = !in_word;
    if (asked[i]) {
      ++i;
      in_word = false;
      continue;
    }
    if (const std::size_t n = word_start ? function_word_at(text, i, fw) : 0; n > 0) {
      i += n;
      continue;
    }
    const std::int32_t cp = next_code_point(text, i);
    const bool alnum = cp >= 0 && cp < 0x80 && std::isalnum(cp);
    if (cp >= 0 && is_han(cp)) ++units;
    if (alnum && !in_word) units += 2;
    in_word = alnum;
  }
  return units;
}

// A question whose own words are only a verb or two (怎么申请, 要怎么处理, 在哪申请 after 工位可以换吗)
// asks about the conversation's topic: asked alone it finds nothing, followed it carries the
// history's topic, so it follows whatever the model's dependent head says.
bool bare_question(const TurnInContext& t) {
  const int max_units = t.lex.config().intent.bare_question_max_units;
  return max_units > 0 && t.q.has_in_content(t.lex.ids().question_word) &&
         t.q.query.query_units <= 4 * max_units && residual_units(t) <= max_units;
}

// A condition whose event has no participant of its own (如果请了…, 要是超过了, 万一借了): a
// condition marker opening the turn, then at most two characters and 了. What was taken, exceeded
// or lent is what the history spoke of, whatever keyword the consequence names (…会影响转正吗).
bool elided_condition(const TurnInContext& t) {
  const std::string_view content = t.q.content();
  for (const CueHit& h : t.q.hits) {
    if (h.list != t.lex.ids().condition_marker || h.begin != t.q.content_begin) continue;
    const std::string_view rest = content.substr(h.end - t.q.content_begin);
    const std::size_t le = rest.find("了");
    if (le == std::string_view::npos || le == 0) return false;
    std::size_t i = 0;
    int chars = 0;
    while (i < le) {
      const std::int32_t cp = next_code_point(rest, i);
      if (cp < 0 || !is_han(cp)) return false;
      ++chars;
    }
    return chars <= 2;
  }
  return false;
}

// The rules' candidate made a follow-up by the structural rule `id`.
void follow(IntentCandidate& rule, const char* id) {
  rule.intent = Intent::kFollowUp;
  rule.rule_id = id;
  rule.score = 0.75;  // the shipped follow-up rules' score
  rule.matched_rules.push_back(rule.rule_id);
  rule.requires_rewrite = true;
}

// The turn's and the previous turn's words (no model) name disjoint sources.
bool switches_from_previous(const TurnInContext& t) {
  return switches_topic(
      decide_source(t.q, ModelVerdict{}, t.lex, t.reader ? &t.domain.sources : nullptr),
      source_of_turn(t.history.back(), t.lex, t.reader));
}

// The rule candidate of the turn read without its history, naming the rule that made it so.
IntentCandidate standalone(const TurnInContext& t, const char* why) {
  IntentCandidate rule = classify_intent(t.q, false, t.source, t.lex);
  rule.matched_rules.push_back(why);
  return rule;
}

}  // namespace

FollowUpArbitration arbitrate_follow_up(IntentCandidate rule, const TurnInContext& t,
                                        const ModelVerdict& model) {
  const double dependent_min = t.lex.config().model.dependent_min_score;
  FollowUpArbitration a;
  if (rule.intent == Intent::kFollowUp && points_at_own_noun(t.q, t.lex.ids()) &&
      switches_from_previous(t))
    rule = standalone(t, "topic_switch_other_source");
  if (model.on() && rule.intent == Intent::kFollowUp && model.dependent_score() < dependent_min &&
      antecedent_in_turn(t.q, t.lex.ids()))
    rule = standalone(t, "antecedent_in_turn");
  const bool own_topic = names_own_topic(t);
  if (model.on() && rule.intent != Intent::kFollowUp && own_topic &&
      model.dependent_score() >= dependent_min && switches_from_previous(t)) {
    a.model_may_follow = false;
    rule.matched_rules.push_back("topic_switch_other_source");
  }
  a.dependence_open = rule.intent != Intent::kFollowUp &&
                      !t.q.has_in_content(t.lex.ids().topic_switch) && !own_topic;
  if (rule.intent != Intent::kFollowUp && elided_condition(t))
    follow(rule, "follow_up_elided_condition");
  else if (a.dependence_open && bare_question(t))
    follow(rule, "follow_up_bare_question");
  a.dependence_open = a.dependence_open && rule.intent != Intent::kFollowUp;
  a.rule = std::move(rule);
  return a;
}

}  // namespace qaplan::internal
