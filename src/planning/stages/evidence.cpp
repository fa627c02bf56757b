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

// Asked to do something for the speaker (帮我选课, 给我调到周六): a speaker after 帮 / 给 / 替 / 为.
// Closed classes of the language.
bool in_help_frame(const ScannedQuery& q, const CueHit& self) {
  const std::string_view before = std::string_view(q.query.text).substr(0, self.begin);
  for (std::string_view w : {"帮", "给", "替", "为"})
    if (before.ends_with(w)) return true;
  return false;
}

// A cue right after 没 / 不 / 未 (没明白, 不知道).
bool negated(const ScannedQuery& q, const CueHit& h) {
  return ends_with_negation(std::string_view(q.query.text).substr(0, h.begin));
}

// The speaker talking about themselves (我今天好累), not asking for something.
const CueHit* speaker_hit(const ScannedQuery& q, const LexiconIds& ids) {
  for (const CueHit& h : q.hits)
    if (h.list == ids.ev_self && !cancelled(q, h, ids.ev_self_possessive))
      return &h;
  return nullptr;
}

// The assistant asked for help (你能帮我选课吗, 您可以给我…): between 你 and a speaker in a help
// frame only modal words stand. A request, not a question about the assistant.
bool asks_assistant_for_help(const ScannedQuery& q, const CueHit& you, const LexiconIds& ids) {
  const std::string_view t = q.query.text;
  std::size_t i = you.end;
  for (int n = 0; n < 4 && i < t.size(); ++n) {
    std::size_t j = i;
    const std::int32_t cp = next_code_point(t, j);
    if (std::string_view("能可以不否会就再先").find(t.substr(i, j - i)) == std::string_view::npos ||
        cp < 0x80)
      break;
    i = j;
  }
  for (const CueHit& h : q.hits)
    if (h.list == ids.ev_self && h.begin > i && h.begin - i <= 3 && in_help_frame(q, h))
      return true;
  return false;
}

// A form of address stands at a clause's edge (师傅，热水器坏了; 多谢老师啦); inside one it names
// a person the message is about (帮我约个师傅明天来修): no small talk.
bool addresses(const ScannedQuery& q, const CueHit& h) {
  const std::string_view t = q.query.text;
  auto edge = [](std::string_view rest) {
    for (std::size_t i = 0; i < rest.size();) {
      const std::size_t b = i;
      const std::int32_t cp = next_code_point(rest, i);
      if (cp < 0 || !is_word_char(cp)) return true;
      if (std::string_view("啊呀啦哈呢嘛哦吧").find(rest.substr(b, i - b)) == std::string_view::npos)
        return false;
    }
    return true;
  };
  if (edge(t.substr(h.end))) return true;
  if (h.begin == 0) return true;
  std::size_t i = h.begin - 1;  // back to the code point before the hit
  while (i > 0 && (static_cast<unsigned char>(t[i]) & 0xC0) == 0x80) --i;
  std::size_t j = i;
  const std::int32_t cp = next_code_point(t, j);
  return cp < 0 || !is_word_char(cp);
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

Evidence act_evidence(RouteReason act, const ScannedQuery& q, const Lexicon& lex,
                      std::string_view domain_term) {
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
      // None when a negation turns one into its opposite (没明白, 收到，不明白: the user did not
      // follow): the message says it was not understood.
      {
        const CueHit* social = nullptr;
        for (const CueHit& w : q.hits)
          if (w.list == ids.greeting || w.list == ids.thanks || w.list == ids.goodbye ||
              w.list == ids.acknowledgement) {
            if (negated(q, w)) return {};
            if (!social) social = &w;
          }
        if (social) return {name, text_of(q, *social), false};
      }
      break;
    case RouteReason::kHandoff:
      h = first_hit(q, {ids.handoff}, false, kNoList);
      break;
    case RouteReason::kChitChat:
    case RouteReason::kOutOfScope:
      // Asked for help (你能帮我选课吗), the assistant is asked to serve, not talked about.
      if (const CueHit* you =
              first_hit(q, {ids.ev_assistant}, false, ids.ev_institution, ids.greeting);
          you && !asks_assistant_for_help(q, *you, ids))
        return {name, "assistant addressed", true};
      // A topic the host's KB talks about (直播 in a school's 直播课) is the host's business.
      for (const CueHit& c : q.hits)
        if ((c.list == ids.chit_chat || c.list == ids.out_of_scope ||
             c.list == ids.request_object) &&
            (domain_term.empty() || domain_term.find(text_of(q, c)) == std::string_view::npos)) {
          h = &c;
          break;
        }
      if (h) break;
      if (const CueHit* w = speaker_hit(q, ids)) return {name, text_of(q, *w), false};
      if (const CueHit* w = first_hit(q, {ids.ev_emotive}, false, kNoList))
        return {name, text_of(q, *w), false};
      for (const CueHit& v : q.hits)
        if (v.list == ids.vocative && addresses(q, v)) return {name, text_of(q, v), false};
      break;
    default:
      break;
  }
  return h ? Evidence{name, text_of(q, *h), true} : Evidence{};
}

}  // namespace qaplan::internal
