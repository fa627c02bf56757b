#include "planning/stages/evidence.hpp"

#include <algorithm>

#include "common/icu.hpp"
#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

bool in_content(const ScannedQuery& q, const CueHit& h) {
  return h.begin >= q.content_begin && h.end <= q.content_end;
}

// A hit inside a longer hit of `cancel` (or `cancel2`) does not count: 你 inside 你们 addresses
// the service and inside 你好 greets, 我 inside 我的 names a thing.
bool cancelled(const ScannedQuery& q, const CueHit& h, std::uint32_t cancel,
               std::uint32_t cancel2 = 0xFFFFFFFFu) {
  return std::any_of(q.hits.begin(), q.hits.end(), [&](const CueHit& c) {
    return (c.list == cancel || c.list == cancel2) && c.begin <= h.begin && c.end >= h.end &&
           c.end - c.begin > h.end - h.begin;
  });
}

std::string text_of(const ScannedQuery& q, const CueHit& h) {
  return q.query.text.substr(h.begin, h.end - h.begin);
}

// The first hit of one of `lists` (in the content when `content_only`), not cancelled.
const CueHit* first_hit(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists,
                        bool content_only, std::uint32_t cancel,
                        std::uint32_t cancel2 = 0xFFFFFFFFu) {
  for (const CueHit& h : q.hits)
    if (std::find(lists.begin(), lists.end(), h.list) != lists.end() &&
        (!content_only || in_content(q, h)) && !cancelled(q, h, cancel, cancel2))
      return &h;
  return nullptr;
}

// A run of at least `min_digits` ASCII digits in the content: an order, card or account number.
std::string digit_run(const ScannedQuery& q, int min_digits) {
  const std::string_view c = q.content();
  std::size_t run = 0;
  for (std::size_t i = 0; i <= c.size(); ++i) {
    if (i < c.size() && c[i] >= '0' && c[i] <= '9') {
      ++run;
      continue;
    }
    if (run >= static_cast<std::size_t>(min_digits)) return std::string(c.substr(i - run, run));
    run = 0;
  }
  return {};
}

const CueHit* work_keyword(const ScannedQuery& q, const LexiconIds& ids) {
  for (const CueHit& h : q.hits) {
    if (!in_content(q, h)) continue;
    const bool work = h.list == ids.table ||
                      std::find(ids.source.begin(), ids.source.end(), h.list) != ids.source.end() ||
                      std::find(ids.category.begin(), ids.category.end(), h.list) !=
                          ids.category.end();
    if (work) return &h;
  }
  return nullptr;
}

constexpr std::uint32_t kNoList = 0xFFFFFFFFu;

// The object of thanks to the assistant — 感谢您的宝贵时间, 谢谢你的查询: a thanks cue, the
// assistant right after it, then 的 and the rest of the clause up to `h`. What is thanked for is
// not asked for.
bool thanked_for(const ScannedQuery& q, const CueHit& h, const LexiconIds& ids) {
  const std::string_view t = q.query.text;
  for (const CueHit& th : q.hits) {
    if (th.list != ids.thanks || th.end > h.begin) continue;
    for (const CueHit& a : q.hits) {
      if (a.list != ids.ev_assistant || a.begin != th.end || a.end > h.begin) continue;
      const std::string_view between = t.substr(a.end, h.begin - a.end);
      if (!between.starts_with("的")) continue;
      std::size_t i = 0;
      bool clause_break = false;
      while (i < between.size() && !clause_break) {
        const std::int32_t cp = next_code_point(between, i);
        clause_break = cp < 0 || !is_word_char(cp);
      }
      if (!clause_break) return true;
    }
  }
  return false;
}

// The first hit of `list` in the content that asks for something (not cancelled, not thanked for).
const CueHit* request_hit(const ScannedQuery& q, std::uint32_t list, const LexiconIds& ids) {
  for (const CueHit& h : q.hits)
    if (h.list == list && in_content(q, h) && !thanked_for(q, h, ids)) return &h;
  return nullptr;
}

}  // namespace

// The assistant addressed anywhere in the message: 你 not inside 你们 (the service) or 你好 (a
// greeting).
bool addresses_assistant(const ScannedQuery& q, const LexiconIds& ids) {
  return first_hit(q, {ids.ev_assistant}, false, ids.ev_institution, ids.greeting) != nullptr;
}

Evidence request_evidence(const ScannedQuery& q, const Lexicon& lex, std::string_view domain_term) {
  const LexiconIds& ids = lex.ids();
  const auto& cfg = lex.config().route.evidence;
  for (auto [list, kind] : {std::pair{ids.ev_service, "service_verb"},
                            std::pair{ids.ev_problem, "problem"}, std::pair{ids.ev_info, "info_word"}})
    if (const CueHit* h = request_hit(q, list, ids)) return {kind, text_of(q, *h), true};
  if (std::string n = digit_run(q, cfg.id_min_digits); !n.empty()) return {"number", n, true};
  // A source, category or table keyword, or a term of the host's KB, already raised the model's
  // bar to [route.model] anchored; past it, the act's own cue may outweigh it (比特币现在多少钱一个:
  // 多少钱 is a pricing keyword, 比特币 an out_of_scope topic), so it is weak here.
  if (const CueHit* h = work_keyword(q, ids)) return {"keyword", text_of(q, *h), false};
  if (!domain_term.empty()) return {"domain_term", std::string(domain_term), false};
  // A question about the assistant itself (你喜欢什么电影) is small talk; about anything else
  // (你们几点下班, 为什么我的额度没有增长) it asks the knowledge base.
  if (const CueHit* h = request_hit(q, ids.ev_interrogative, ids);
      h && !addresses_assistant(q, ids))
    return {"interrogative", text_of(q, *h), false};
  if (const CueHit* h = request_hit(q, ids.ev_time, ids); h && !addresses_assistant(q, ids))
    return {"time", text_of(q, *h), false};
  return {};
}

Evidence asks_about(const ScannedQuery& q, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  for (const CueHit& h : q.hits) {
    if (h.list != ids.ev_interrogative || !in_content(q, h)) continue;
    const std::string w = text_of(q, h);
    for (std::string_view a : {"几", "多少", "哪", "何时", "多久", "多长", "什么"})
      if (w == a) return {"interrogative", w, false};
  }
  return {};
}

Evidence act_evidence(RouteReason act, const ScannedQuery& q, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  const std::string name(to_string(act));
  const CueHit* h = nullptr;
  switch (act) {
    case RouteReason::kGreeting:
    case RouteReason::kThanks:
    case RouteReason::kGoodbye:
    case RouteReason::kAcknowledgement:
      // Weak: a social word beside a request (谢谢，那年假呢) is the request's wrapper, and the
      // request is answered.
      if (const CueHit* w = first_hit(q, {ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement},
                                      false, kNoList))
        return {name, text_of(q, *w), false};
      break;
    case RouteReason::kHandoff:
      h = first_hit(q, {ids.handoff}, false, kNoList);
      break;
    case RouteReason::kChitChat:
    case RouteReason::kOutOfScope:
      if (addresses_assistant(q, ids)) return {name, "assistant addressed", true};
      h = first_hit(q, {ids.chit_chat, ids.out_of_scope, ids.request_object}, false, kNoList);
      if (h) break;
      if (const CueHit* w = first_hit(q, {ids.ev_self}, false, ids.ev_self_possessive))
        return {name, text_of(q, *w), false};
      if (const CueHit* w = first_hit(q, {ids.ev_emotive, ids.vocative}, false, kNoList))
        return {name, text_of(q, *w), false};
      break;
    default:
      break;
  }
  return h ? Evidence{name, text_of(q, *h), true} : Evidence{};
}

}  // namespace qaplan::internal
