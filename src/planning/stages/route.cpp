#include "planning/stages/route.hpp"

#include <algorithm>

#include "common/icu.hpp"
#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

RouteDecision direct(RouteReason reason, std::string detail, DecidedBy by, double score,
                     const Config& c) {
  RouteDecision d;
  d.route = Route::kDirectAnswer;
  d.reason = reason;
  d.detail = std::move(detail);
  d.decided_by = by;
  d.score = score;
  if (auto it = c.route.replies.find(std::string(to_string(reason))); it != c.route.replies.end())
    d.reply = it->second;
  return d;
}

bool allowed(const ScenarioConfig& sc, const std::string& source) {
  return std::find(sc.allowed_sources.begin(), sc.allowed_sources.end(), source) !=
         sc.allowed_sources.end();
}

bool has_word_char(std::string_view t) {
  for (std::size_t i = 0; i < t.size();) {
    const std::int32_t cp = next_code_point(t, i);
    if (cp >= 0 && is_word_char(cp)) return true;
  }
  return false;
}

bool is_clause_break(std::int32_t cp) {
  // Punctuation ends a clause; spaces do not (English words are separated by them).
  return cp < 0 || (!is_word_char(cp) && cp != ' ');
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// An explicit request for a person in a clause of its own (我要转人工，报销单被退回了): the
// person will take the question. Only multi-character cues count here, so a bare address
// ("客服，我的报销单…") stays a question.
const CueHit* handoff_clause(const ScannedQuery& q, const LexiconIds& ids) {
  if (!q.has(ids.handoff)) return nullptr;
  const std::string& t = q.query.text;
  const std::vector<bool> cov = cue_coverage(q, {ids.handoff, ids.politeness, ids.greeting, ids.thanks});
  std::size_t b = 0;
  while (b < t.size()) {
    std::size_t e = b, i = b;  // the clause is [b, e); i ends past its closing punctuation
    while (i < t.size() && !is_clause_break(next_code_point(t, i))) e = i;
    for (const CueHit& h : q.hits)
      if (h.list == ids.handoff && h.begin >= b && h.end <= e &&
          code_points(std::string_view(t).substr(h.begin, h.end - h.begin)) >= 3 &&
          covered_only(q, cov, b, e))
        return &h;
    b = i;
  }
  return nullptr;
}

// A request frame (帮我写一首关于春天的诗): fillers, a request verb first, a request object last,
// fillers; no work keyword anywhere (a question word between them still asks for the object:
// 推荐几部电影).
const CueHit* request_frame(const ScannedQuery& q, const LexiconIds& ids) {
  if (!q.has(ids.request_verb) || !q.has(ids.request_object) || has_work_anchor(q, ids))
    return nullptr;
  const CueHit* verb = nullptr;
  const CueHit* object = nullptr;
  for (const CueHit& h : q.hits) {
    if (h.list == ids.request_verb && (!verb || h.begin < verb->begin)) verb = &h;
    if (h.list == ids.request_object && (!object || h.end > object->end)) object = &h;
  }
  if (object->begin < verb->end) return nullptr;
  if (!covered_only(q, cue_coverage(q, {ids.politeness, ids.greeting, ids.context_words}), 0,
                    verb->begin) ||
      !covered_only(q, cue_coverage(q, {ids.politeness, ids.thanks}), object->end,
                    q.query.text.size()))
    return nullptr;
  return object;
}

}  // namespace

RouteDecision decide_route(const ScannedQuery& q, const ScenarioConfig& scenario,
                           const std::optional<std::string>& source_filter,
                           const std::optional<std::string>& suggested, const ModelVerdict& model,
                           const Lexicon& lex, bool continues_conversation) {
  const LexiconIds& ids = lex.ids();
  const Config& c = lex.config();
  const std::string& text = q.query.text;

  const std::initializer_list<std::uint32_t> social = {
      ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement, ids.politeness, ids.handoff};
  // Social acts by priority: a message that thanks and says goodbye is answered as thanks.
  for (auto [list, reason] : {std::pair{ids.handoff, RouteReason::kHandoff},
                              std::pair{ids.thanks, RouteReason::kThanks},
                              std::pair{ids.goodbye, RouteReason::kGoodbye},
                              std::pair{ids.greeting, RouteReason::kGreeting},
                              std::pair{ids.acknowledgement, RouteReason::kAcknowledgement}})
    if (consists_only_of(q, social, list))
      return direct(reason, first_hit_text(q, list), DecidedBy::kRule, 0, c);
  if (const CueHit* h = handoff_clause(q, ids))
    return direct(RouteReason::kHandoff, text.substr(h->begin, h->end - h->begin), DecidedBy::kRule,
                  0, c);
  // Emoji, punctuation and nothing else (a listed emoji such as 👍 was an act above).
  if (!has_word_char(text)) return direct(RouteReason::kUnclear, "", DecidedBy::kRule, 0, c);
  for (auto [list, reason] : {std::pair{ids.out_of_scope, RouteReason::kOutOfScope},
                              std::pair{ids.chit_chat, RouteReason::kChitChat}}) {
    if (consists_only_of(q, {ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement,
                             ids.politeness, ids.context_words, list},
                         list))
      return direct(reason, first_hit_text(q, list), DecidedBy::kRule, 0, c);
  }
  if (const CueHit* h = request_frame(q, ids))
    return direct(RouteReason::kOutOfScope, text.substr(h->begin, h->end - h->begin),
                  DecidedBy::kRule, 0, c);
  if (auto it = ids.scenario_out_of_scope.find(scenario.name);
      it != ids.scenario_out_of_scope.end() && q.has(it->second))
    return direct(RouteReason::kOutOfScope, first_hit_text(q, it->second), DecidedBy::kRule, 0, c);
  // A lone character no list knows (额, 啥): nothing to act on.
  if (q.query.query_units <= c.route.unclear_max_units && !has_work_anchor(q, ids))
    return direct(RouteReason::kUnclear, q.query.text, DecidedBy::kRule, 0, c);

  if (model.on() && !continues_conversation) {
    const RouteReason act = model.act();
    if (act != RouteReason::kNeedsRetrieval) {
      const auto& bars = c.route.model_min_score;
      if (auto it = bars.find(std::string(to_string(act))); it != bars.end()) {
        double bar = it->second;
        // A work cue (报销, VPN, 报错) makes refusing costly — except for a handoff, which is
        // usually about work ("麻烦转一下人工，系统老是报错").
        if (act != RouteReason::kHandoff && has_work_anchor(q, ids))
          if (auto a = bars.find("anchored"); a != bars.end()) bar = std::max(bar, a->second);
        if (model.act_score() >= bar)
          return direct(act, std::string(to_string(act)), DecidedBy::kModel, model.act_score(), c);
      }
    }
  }

  if (source_filter && !allowed(scenario, *source_filter))
    return direct(RouteReason::kSourceBoundary, *source_filter, DecidedBy::kRule, 0, c);
  if (!source_filter && suggested && !allowed(scenario, *suggested))
    return direct(RouteReason::kSourceBoundary, *suggested, DecidedBy::kRule, 0, c);
  return RouteDecision{};
}

}  // namespace qaplan::internal
