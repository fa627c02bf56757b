#include "planning/stages/route.hpp"

#include <algorithm>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/stages/evidence.hpp"
#include "planning/stages/source.hpp"

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

// A yes-or-no question closes on 吗: acknowledgement words before it ask whether something is
// so (收到了吗, 好了吗, 明白了吗 — has it arrived, is it done), they do not acknowledge.
bool asks_yes_no(std::string_view text) {
  const std::string_view core = core_text(text);
  return core.ends_with("吗");
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
          count_code_points(std::string_view(t).substr(h.begin, h.end - h.begin)) >= 3 &&
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

// Retrieval — unless the source to search lies outside the scenario (source_boundary).
RouteDecision retrieve(std::string detail, const ScenarioConfig& scenario,
                       const std::optional<std::string>& source_filter,
                       const std::optional<std::string>& suggested, const Config& c) {
  if (source_filter && !scenario_allows(scenario, *source_filter))
    return direct(RouteReason::kSourceBoundary, *source_filter, DecidedBy::kRule, 0, c);
  if (!source_filter && suggested && !scenario_allows(scenario, *suggested))
    return direct(RouteReason::kSourceBoundary, *suggested, DecidedBy::kRule, 0, c);
  RouteDecision r;
  r.detail = std::move(detail);
  return r;
}

// The script of most of the message's letters when it is neither Han nor Latin ("" otherwise).
std::string_view foreign_script(std::string_view t) {
  std::size_t known = 0, foreign = 0;
  std::string_view script;
  for (std::size_t i = 0; i < t.size();) {
    const std::int32_t cp = next_code_point(t, i);
    if (cp < 0x80) {
      known += is_ascii_alnum(cp) && !(cp >= '0' && cp <= '9');
      continue;
    }
    if (is_han(cp)) {  // most of a Chinese message: no ICU property lookups
      ++known;
      continue;
    }
    if (std::string_view s = foreign_script_of(cp); !s.empty()) {
      ++foreign;
      if (script.empty()) script = s;
    } else if (is_word_char(cp)) {
      ++known;
    }
  }
  return foreign > known ? script : std::string_view();
}

// Why the model's act may not answer this message directly ("" = it may). Strong evidence of a
// request always wins; weak evidence (a question word, a time word) yields only to strong
// evidence of the act (明天杭州天气怎么样: 天气怎么样 is the act's own cue); without any, the act
// still needs some evidence of its own. A handoff needs only its own — asking for a person is
// usually about work — unless the message asks about the service rather than for it (asks_about).
std::string evidence_veto(RouteReason act, const ScannedQuery& q, const Lexicon& lex,
                          std::string_view domain_term) {
  if (!lex.config().route.evidence.enabled) return {};
  const Evidence mine = act_evidence(act, q, lex, domain_term);
  if (act != RouteReason::kHandoff)
    if (Evidence e = request_evidence(q, lex, domain_term); e && (e.strong || !mine.strong))
      return "request evidence " + e.kind + " '" + e.text + "'";
  // A handoff cue in a question about the service (人工客服几点下班) asks the knowledge base.
  if (act == RouteReason::kHandoff)
    if (Evidence e = asks_about(q, lex))
      return "asks about the service: " + e.kind + " '" + e.text + "'";
  if (!mine) return "no evidence of " + std::string(to_string(act));
  return {};
}

bool is_social(RouteReason r) {
  return r == RouteReason::kGreeting || r == RouteReason::kThanks || r == RouteReason::kGoodbye ||
         r == RouteReason::kAcknowledgement;
}

// The model's probability of a social act of any kind: a message that thanks and says goodbye
// (太好了，谢谢。我不需要其它帮助了。再见) splits it between acts that all answer directly.
double social_mass(const ModelVerdict& m) {
  const HeadOutput& h = m.head(Head::kAct);
  double p = 0;
  for (std::size_t i = 0; i < kMaxLabels; ++i)
    if (is_social(m.map->act[i])) p += h.probs[i];
  // A sum of rounded float probabilities can pass 1 by an ulp; a score is a probability.
  return std::min(p, 1.0);
}

}  // namespace

RouteDecision decide_route(const ScannedQuery& q, const ScenarioConfig& scenario,
                           const std::optional<std::string>& source_filter,
                           const std::optional<std::string>& suggested, const ModelVerdict& model,
                           const Lexicon& lex, bool continues_conversation,
                           std::string_view domain_term) {
  const LexiconIds& ids = lex.ids();
  const Config& c = lex.config();
  const std::string& text = q.query.text;

  const std::initializer_list<std::uint32_t> social = {
      ids.greeting, ids.thanks,  ids.goodbye,    ids.acknowledgement,
      ids.politeness, ids.handoff, ids.connective, ids.vocative};
  // Social acts by priority: a message that thanks and says goodbye is answered as thanks.
  for (auto [list, reason] : {std::pair{ids.handoff, RouteReason::kHandoff},
                              std::pair{ids.thanks, RouteReason::kThanks},
                              std::pair{ids.goodbye, RouteReason::kGoodbye},
                              std::pair{ids.greeting, RouteReason::kGreeting},
                              std::pair{ids.acknowledgement, RouteReason::kAcknowledgement}})
    if (consists_only_of(q, social, list) &&
        !(reason == RouteReason::kAcknowledgement && asks_yes_no(text)))
      return direct(reason, first_hit_text(q, list), DecidedBy::kRule, 0, c);
  if (const CueHit* h = handoff_clause(q, ids))
    return direct(RouteReason::kHandoff, text.substr(h->begin, h->end - h->begin), DecidedBy::kRule,
                  0, c);
  // Emoji, punctuation and nothing else (a listed emoji such as 👍 was an act above).
  if (!has_word_char(text)) return direct(RouteReason::kUnclear, "", DecidedBy::kRule, 0, c);
  // A message in a script no list knows is not unclear: the lists are silent, not the user.
  if (std::string_view script = foreign_script(text); !script.empty()) {
    const std::string why = "language: " + std::string(script);
    if (c.route.foreign_script == "out_of_scope")
      return direct(RouteReason::kOutOfScope, why, DecidedBy::kRule, 0, c);
    return retrieve(why, scenario, source_filter, suggested, c);
  }
  for (auto [list, reason] : {std::pair{ids.out_of_scope, RouteReason::kOutOfScope},
                              std::pair{ids.chit_chat, RouteReason::kChitChat}}) {
    if (consists_only_of(q, {ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement,
                             ids.politeness, ids.context_words, ids.connective, ids.vocative,
                             list},
                         list))
      return direct(reason, first_hit_text(q, list), DecidedBy::kRule, 0, c);
  }
  if (const CueHit* h = request_frame(q, ids))
    return direct(RouteReason::kOutOfScope, text.substr(h->begin, h->end - h->begin),
                  DecidedBy::kRule, 0, c);
  if (auto it = ids.scenario_out_of_scope.find(scenario.name);
      it != ids.scenario_out_of_scope.end() && q.has(it->second))
    return direct(RouteReason::kOutOfScope, first_hit_text(q, it->second), DecidedBy::kRule, 0, c);
  // A lone character no list knows (额, 啥): nothing to act on — unless the follow-up rules read
  // it as a reply to the conversation (真的吗 after 听说GTA6明年发售).
  if (q.query.query_units <= c.route.unclear_max_units && !has_work_anchor(q, ids) &&
      !continues_conversation)
    return direct(RouteReason::kUnclear, q.query.text, DecidedBy::kRule, 0, c);

  std::string overruled;  // why the model's direct answer was not taken (retrieval's detail)
  if (model.on() && !continues_conversation) {
    const RouteReason act = model.act();
    const double score = is_social(act) && !model.follow_up()
                             ? std::max(model.act_score(), social_mass(model))
                             : model.act_score();
    if (act != RouteReason::kNeedsRetrieval) {
      const auto& bars = c.route.model_min_score;
      if (auto it = bars.find(std::string(to_string(act))); it != bars.end()) {
        double bar = it->second;
        // A work cue (报销, VPN, 报错) makes refusing costly — except for a handoff, which is
        // usually about work ("麻烦转一下人工，系统老是报错").
        if (act != RouteReason::kHandoff && (has_work_anchor(q, ids) || !domain_term.empty()))
          if (auto a = bars.find("anchored"); a != bars.end()) bar = std::max(bar, a->second);
        // Strong evidence of the act and none of a request (你能给我唱歌吗: the assistant
        // addressed, an out_of_scope cue) lowers the bar to [route.model] evidenced.
        if (auto e = bars.find("evidenced"); e != bars.end() && c.route.evidence.enabled &&
            act_evidence(act, q, lex, domain_term).strong &&
            !request_evidence(q, lex, domain_term))
          bar = std::min(bar, e->second);
        if (score >= bar) {
          overruled = evidence_veto(act, q, lex, domain_term);
          if (overruled.empty())
            return direct(act, std::string(to_string(act)), DecidedBy::kModel, score, c);
          overruled = "model " + std::string(to_string(act)) + " " +
                      std::to_string(score).substr(0, 4) + " overruled: " + overruled;
        }
      }
    }
  }

  return retrieve(std::move(overruled), scenario, source_filter, suggested, c);
}

bool carried_source_boundary(RouteDecision& route, const std::optional<std::string>& carried,
                             const std::optional<std::string>& source_filter,
                             const ScenarioConfig& scenario, const Config& c) {
  if (!carried || source_filter || scenario_allows(scenario, *carried)) return false;
  // The retrieval decision's score stays: only what makes it a boundary answer changes.
  route.route = Route::kDirectAnswer;
  route.reason = RouteReason::kSourceBoundary;
  route.detail = *carried;
  route.decided_by = DecidedBy::kRule;
  route.reply = c.route.replies.at("source_boundary");
  return true;
}

}  // namespace qaplan::internal
