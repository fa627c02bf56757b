#include "planning/stages/follow_up.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "common/icu.hpp"
#include "common/utf8.hpp"

#include "planning/answer_word.hpp"
#include "planning/bare_question.hpp"
#include "planning/case_clause.hpp"
#include "planning/list_reference.hpp"
#include "planning/segment.hpp"
#include "planning/stages/intent.hpp"
#include "planning/stages/topic_switch.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {
namespace {

// A source keyword of the rules file in the turn's content (报销, 年假).
bool names_source_keyword(const TurnInContext& t) {
  for (std::uint32_t id : t.lex.ids().source)
    if (t.q.has_in_content(id)) return true;
  return false;
}

// A source keyword in the turn's content, or a KB term of some source: a topic of its own.
bool names_own_topic(const TurnInContext& t) {
  if (names_source_keyword(t)) return true;
  return std::any_of(t.domain.sources.terms.begin(), t.domain.sources.terms.end(),
                     [](int n) { return n > 0; });
}

// How many Han characters open `s` before one of `ends` starts, at most `max` of them; -1 when
// a character that is not Han, or none of `ends` after `max`, comes first.
int han_before(std::string_view s, std::initializer_list<std::string_view> ends, int max) {
  std::size_t i = 0;
  for (int chars = 0; chars <= max && i < s.size(); ++chars) {
    for (std::string_view e : ends)
      if (s.substr(i).starts_with(e)) return chars;
    const std::int32_t cp = next_code_point(s, i);
    if (cp < 0 || !is_han(cp)) return -1;
  }
  return -1;
}

// An event with no participant of its own: one or two characters, then its aspect. What was
// taken, approved or exceeded is what the history spoke of, whatever keyword the rest names.
//  - after a condition marker opening the turn, then 了 (如果请了会影响转正吗, 要是超过了, 万一借了);
//  - opening the turn, then 完了 or 好了, then what is asked (批完了钱什么时候到, 休完了还能再请吗).
bool elided_condition(const TurnInContext& t) {
  for (const CueHit& h : t.q.hits)
    if (h.list == t.lex.ids().condition_marker && h.begin == t.q.content_begin)
      return han_before(t.q.content().substr(h.end - t.q.content_begin), {"了"}, 2) > 0;
  return false;
}

// True when `turn` holds a content word of two or more characters of `prev` (no word of the
// rewriter's function or question lists): 发票 of 出差报销需要什么发票 in 万一发票丢了咋办.
bool repeats_a_word(std::string_view turn, std::string_view prev, const Lexicon& lex) {
  const RewriteConfig& rw = lex.config().rewrite;
  auto listed = [](const std::vector<std::string>& l, std::string_view w) {
    return std::find(l.begin(), l.end(), w) != l.end();
  };
  for (const Token& w : segment_words(prev)) {
    const std::string_view s = w.text(prev);
    if (w.word && count_code_points(s) >= 2 && !listed(rw.function_words, s) &&
        !listed(rw.question_words, s) && turn.find(s) != std::string_view::npos)
      return true;
  }
  return false;
}

// A source keyword of the turn (入职, which ICU cuts 入|职) that the previous turn says too.
bool repeats_a_keyword(const ScannedQuery& q, std::string_view prev, const LexiconIds& ids) {
  const std::string& text = q.query.text;
  return std::any_of(q.hits.begin(), q.hits.end(), [&](const CueHit& h) {
    return std::find(ids.source.begin(), ids.source.end(), h.list) != ids.source.end() &&
           prev.find(std::string_view(text).substr(h.begin, h.end - h.begin)) != std::string_view::npos;
  });
}

// A case put to the last question: a condition marker opens the turn, or a clause closes in 的话
// (入职前来不及做的话怎么办), and it asks nothing of its own (如果金额很小呢, 假设还在试用期), or
// it asks about a word or a keyword the last turn said (万一发票丢了咋办 after 出差报销需要什么发票;
// 入职 of 入职体检), or it names no topic of its own (如果下周才回来能补吗). Whatever source its
// words name otherwise, it does not stand alone. (那如果…呢 is follow_up_elliptic's.)
bool open_case(const TurnInContext& t, bool own_topic) {
  const LexiconIds& ids = t.lex.ids();
  const bool opens = std::any_of(t.q.hits.begin(), t.q.hits.end(), [&](const CueHit& h) {
    return h.list == ids.condition_marker && h.begin == t.q.content_begin;
  });
  const std::string_view content = t.q.content();
  if (!opens && case_de_hua(content) == std::string_view::npos) return false;
  if (!t.q.has_in_content(ids.question_word) || !own_topic) return true;
  const std::string_view prev = t.history.back().text;
  return repeats_a_word(content, prev, t.lex) || repeats_a_keyword(t.q, prev, ids);
}

// 该 or 其 alone before a noun (该账户能…, 到期后其单价…, 該帳戶): "the said", "its" — a thing
// the history named. Not 该 before a verb or a question word (该交多少, 该准备哪些材料, 该怎么办:
// "should"); ICU holds 其他 and 其中 as words of their own.
bool determiner_pointer(const TurnInContext& t) {
  const std::string_view content = t.q.content();
  if (content.find("该") == std::string_view::npos && content.find("其") == std::string_view::npos)
    return false;
  const RewriteConfig& rw = t.lex.config().rewrite;
  auto listed = [](const std::vector<std::string>& l, std::string_view w) {
    return std::find(l.begin(), l.end(), w) != l.end();
  };
  auto content_word = [&](const Token& x) {
    const std::string_view s = x.text(content);
    return x.word && !x.ascii && !listed(rw.function_words, s) && !listed(rw.question_words, s);
  };
  // After 该 the noun stands where a subject does: a localizer, a modal or an adverb follows it
  // (该账户|能, 该流程|需要, 该账号|里). Before a question word or 的 it is a verb (该准备|哪些材料,
  // 该提交|的材料: "should"). 其 is a possessive only.
  const std::vector<Token> w = segment_words(content);
  auto subject_slot = [&](std::size_t next) {
    if (next >= w.size()) return false;
    const std::string_view x = w[next].text(content);
    for (std::string_view f : {"里", "中", "能", "可以", "会", "是", "有", "还", "也", "都", "要",
                               "需要", "需", "在", "必须", "一般", "已经"})
      if (x == f) return true;
    return false;
  };
  for (std::size_t k = 0; k + 1 < w.size(); ++k) {
    const std::string_view d = w[k].text(content);
    if ((d != "该" && d != "其") || w[k + 1].begin != w[k].end || !content_word(w[k + 1])) continue;
    // A noun ICU knows, or one it left in pieces (该|账|号).
    std::size_t after = k + 2;
    if (w[k + 1].single_han) {
      if (k + 2 >= w.size() || !w[k + 2].single_han || w[k + 2].begin != w[k + 1].end ||
          !content_word(w[k + 2]))
        continue;
      after = k + 3;
    }
    if (d == "其" || subject_slot(after)) return true;
  }
  return false;
}

bool elided_completion(const TurnInContext& t) {
  const std::string_view content = t.q.content();
  const int chars = han_before(content, {"完了", "好了"}, 2);
  return chars > 0 && count_code_points(content) >= static_cast<std::size_t>(chars) + 4;
}

// A pointer into a list the conversation gave (详细说一下第二个 after 入职培训、信息安全培训和岗位培训):
// the item is what the turn asks about, whatever its other words name. The list is the newest
// one within the rewrite's window, as the rewrite reads it (list_step.cpp).
bool points_into_list(const TurnInContext& t) {
  const auto p = list_pointer(t.q.content());
  if (!p) return false;
  const auto window = static_cast<std::size_t>(std::max(t.lex.config().rewrite.window_turns, 1));
  for (std::size_t i = 0; i < t.history.size() && i < window; ++i) {
    const std::vector<std::string_view> items = list_items(t.history[t.history.size() - 1 - i].text);
    if (!items.empty()) return pick_item(items, *p).has_value();
  }
  return false;
}

// A short yes-or-no question that opens with its verb and names only that verb's object (扣工资吗,
// 含早餐吗, 影响绩效吗): its first word (ICU's, one or two Han characters) is no KB term and no
// source keyword, and one of them starts right after it. The subject it leaves out is the
// history's topic; the object, a term of its own, is no new topic. A noun before it (食堂开门吗)
// is a subject: the first word is then a term.
bool verb_before_its_object(const TurnInContext& t) {
  const std::string_view content = t.q.content();
  if (!content.ends_with("吗") || count_query_units(content) > 6 || t.reader == nullptr)
    return false;
  const std::vector<Token> words = segment_words(content);
  if (words.size() < 3 || !words[0].word || words[0].ascii ||
      count_code_points(words[0].text(content)) > 2)
    return false;
  const std::uint32_t verb_end = words[0].end;
  const auto at = static_cast<std::uint32_t>(t.q.content_begin);
  for (const CueHit& h : t.q.hits)
    if (h.begin == at && std::find(t.lex.ids().source.begin(), t.lex.ids().source.end(), h.list) !=
                             t.lex.ids().source.end())
      return false;
  thread_local std::vector<DomainLexicon::Hit> hits;
  t.reader->lexicon().scan(content, hits);
  bool object = false;
  for (const DomainLexicon::Hit& h : hits) {
    if (h.begin == 0) return false;  // the first word starts a term: a subject
    object = object || h.begin == verb_end;
  }
  for (const CueHit& h : t.q.hits)
    object = object || (h.begin == at + verb_end &&
                        std::find(t.lex.ids().source.begin(), t.lex.ids().source.end(), h.list) !=
                            t.lex.ids().source.end());
  return object;
}

// A question asking only for an attribute with no owner (截止时间是什么时候, 营业时间几点, 费用多少):
// every content word is covered by the route's info words (时间, 截止, 费用, 流程 …) or a question
// word, and no 的 or pronoun names an owner (我的订单) nor a conjunction two things (订单和账单).
// Nothing in it says whose deadline or fee — a source keyword that is only an attribute (费用)
// names no topic either: it is the history's topic's. Alone it could not be answered, so reading
// it as a follow-up loses nothing. Closed classes of the language (info_words), not of a domain.
bool bare_attribute(const TurnInContext& t) {
  const std::string_view content = t.q.content();
  if (count_query_units(content) > 10) return false;
  const LexiconIds& ids = t.lex.ids();
  // The service or the speaker as owner (你们营业时间, 我的订单), maybe among the trimmed words.
  if (t.q.has(ids.ev_institution) || t.q.has(ids.ev_self_possessive)) return false;
  const auto at = t.q.content_begin;
  auto covered = [&](std::uint32_t b, std::uint32_t e, std::uint32_t list) {
    std::uint32_t reach = b;
    for (bool grew = true; grew && reach < e;) {
      grew = false;
      for (const CueHit& h : t.q.hits)
        if (h.list == list && h.begin >= at && h.begin - at <= reach && h.end - at > reach) {
          reach = h.end - at;
          grew = true;
        }
    }
    return reach >= e;
  };
  // A word holding a question word is the question (什么时候, 多少钱).
  auto asks = [&](std::uint32_t b, std::uint32_t e) {
    return std::any_of(t.q.hits.begin(), t.q.hits.end(), [&](const CueHit& h) {
      return h.list == ids.question_word && h.begin >= at && h.begin - at < e && h.end - at > b;
    });
  };
  const RewriteConfig& rw = t.lex.config().rewrite;
  bool attribute = false, asked = false;
  for (const Token& w : segment_words(content)) {
    if (!w.word) continue;
    const std::string_view s = w.text(content);
    // The measure a question word asks with is the question's too (哪|天, 几|次).
    const bool measure = asked && w.single_han;
    asked = asks(w.begin, w.end);
    // An owner of its own (公司的营业时间, 他们的电话) or two things named (订单和账单): not bare.
    for (std::string_view o : {"的", "我", "你", "您", "我们", "你们", "咱们", "大家", "他", "她",
                               "他们", "她们", "和", "跟", "与", "及", "或", "以及"})
      if (s == o) return false;
    if (std::find(rw.function_words.begin(), rw.function_words.end(), s) !=
            rw.function_words.end() ||
        asked || measure)
      continue;
    if (w.ascii || !covered(w.begin, w.end, ids.ev_info)) return false;
    attribute = true;
  }
  return attribute;
}

// A short yes-or-no question opening with a one-character verb and its object (盖公章吗, 签承诺书吗,
// 带身份证吗): at most 6 units closing in 吗, its first word a lone Han character no list of the
// rewriter holds (a pronoun, a function word, a question word), the next a word of two or more. A
// noun subject is seldom one character, so the verb's own subject is left out: the history's
// topic. Unlike verb_before_its_object, the object needs no KB term and the model no say: a lone
// verb is evidence enough, and keeping the topic costs one search. Only in a conversation that
// asked something (the last turn, or the one its answer answered): after a remark alone (今天好累 +
// 喝咖啡吗) it proposes.
bool lone_verb_object(const TurnInContext& t) {
  const std::string_view content = t.q.content();
  if (!content.ends_with("吗") || count_query_units(content) > 6) return false;
  const RewriteConfig& rw = t.lex.config().rewrite;
  auto asks = [&](const NormalizedQuery& turn) {
    const std::string_view s = turn.text;
    return s.ends_with("?") || s.ends_with("吗") || s.ends_with("呢") ||
           std::any_of(rw.question_words.begin(), rw.question_words.end(),
                       [&](const std::string& w) { return s.find(w) != std::string_view::npos; });
  };
  const std::size_t n = t.history.size();
  if (n == 0 || (!asks(t.history[n - 1]) && (n < 2 || !asks(t.history[n - 2])))) return false;
  const std::vector<Token> words = segment_words(content);
  if (words.size() < 3 || !words[0].single_han || words[1].single_han || words[1].ascii ||
      !words[1].word || words[1].begin != words[0].end)
    return false;
  // A word then 了 is an event (水|涨价|了吗, 卡|激活|了吗): the lone character is its subject.
  if (words[2].text(content) == "了") return false;
  const std::string_view verb = words[0].text(content);
  for (const auto* list : {&rw.function_words, &rw.question_words, &rw.person_pronouns,
                           &rw.thing_pronouns, &t.lex.config().intent.subjectless_openers})
    if (std::find(list->begin(), list->end(), verb) != list->end()) return false;
  return true;
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

// The scan of `q` with its content starting `skip` bytes later (the cues before it dropped).
ScannedQuery content_from(const ScannedQuery& q, std::size_t skip) {
  ScannedQuery rest = q;
  rest.content_begin = static_cast<std::uint32_t>(q.content_begin + skip);
  rest.query.query_units = count_query_units(rest.content());
  std::fill(rest.content_present.begin(), rest.content_present.end(), 0);
  for (const CueHit& h : rest.hits)
    if (h.begin >= rest.content_begin && h.end <= rest.content_end)
      rest.content_present[h.list / 64] |= std::uint64_t{1} << (h.list % 64);
  return rest;
}

// The turn without a discourse opener and its comma opening its content (顺便，要交押金吗 →
// 要交押金吗), nullopt when it has none: the structural rules read what is asked, as the rewrite
// does. The intent rules keep the opener (另外，年假呢 is 另外's ellipsis), and so does the model
// (对了 often opens a new topic).
std::optional<ScannedQuery> after_opener(const ScannedQuery& q, const Lexicon& lex) {
  const std::size_t skip = discourse_opener_end(q.content(), lex);
  if (skip == 0) return std::nullopt;
  return content_from(q, skip);
}

// Words of two characters or more in the content that no cue covers (question words, pronouns,
// modals …) and no turn of the history holds: what the turn names of its own (游戏|支持|手柄; not
// 保修期 alone, an attribute of the history's thing, nor 滤网 when the history named it).
int own_new_words(const ScannedQuery& q, const std::vector<NormalizedQuery>& history) {
  const std::string_view c = q.content();
  auto covered = [&](const Token& w) {
    const std::size_t b = q.content_begin + w.begin, e = q.content_begin + w.end;
    return std::any_of(q.hits.begin(), q.hits.end(),
                       [&](const CueHit& h) { return h.begin < e && h.end > b; });
  };
  auto new_word = [&](std::string_view word) {
    return count_code_points(word) >= 2 &&
           std::none_of(history.begin(), history.end(), [&](const NormalizedQuery& h) {
             return h.text.find(word) != std::string::npos;
           });
  };
  // Lone characters ICU cut a word it did not know into (驾|校, 练|车) count as that word.
  int n = 0;
  std::size_t run_begin = 0, run_end = 0;
  auto flush = [&] {
    if (run_end > run_begin) n += new_word(c.substr(run_begin, run_end - run_begin));
    run_begin = run_end = 0;
  };
  for (const Token& w : segment_words(c)) {
    if (!w.word || covered(w)) {
      flush();
    } else if (w.single_han) {
      if (run_end != w.begin) {
        flush();
        run_begin = w.begin;
      }
      run_end = w.end;
    } else {
      flush();
      n += new_word(w.text(c));
    }
  }
  flush();
  return n;
}

// A turn opening with a word that turns to something else (另外, 对了, 顺便, 话说 — not 还有 or
// 然后, which as often go on) and then asking a whole question of its own (另外游戏支持手柄吗, 对了，
// 你们有没有会议室出租): a new topic, whatever the dependent head says. Not a fragment (另外，年假
// 呢), a pointer (对了，它能开发票吗), a question of a predicate alone (对了，一个月多少钱) or a
// short one. Closed classes of the language.
bool opener_turns_away(const TurnInContext& t) {
  static constexpr std::string_view kAway[] = {"另外", "对了", "对啦", "顺便", "话说"};
  const std::string_view c = t.q.content();
  std::size_t skip = 0;
  for (std::string_view o : kAway)
    if (c.starts_with(o)) skip = o.size();
  while (skip < c.size() && (c[skip] == ',' || c[skip] == ' ')) ++skip;
  if (skip == 0 || skip == c.size()) return false;
  const ScannedQuery rest = content_from(t.q, skip);
  const LexiconIds& ids = t.lex.ids();
  const std::string_view asked = rest.content();
  // The speaker and the one addressed (你们有没有…, 我能…) point back at nothing.
  const bool points_back = std::any_of(rest.hits.begin(), rest.hits.end(), [&](const CueHit& h) {
    const std::string_view w = std::string_view(rest.query.text).substr(h.begin, h.end - h.begin);
    return h.begin >= rest.content_begin &&
           (h.list == ids.thing_pronoun || h.list == ids.ellipsis_marker ||
            (h.list == ids.person_pronoun && w != "你们" && w != "您" && w != "你" && w != "我" &&
             w != "我们" && w != "咱们"));
  });
  return count_code_points(asked) >= 6 && !asked.ends_with("呢") && !points_back &&
         own_new_words(rest, t.history) >= 2 && !bare_question(rest, t.lex) &&
         !subjectless_question(rest, t.lex, t.reader ? &t.reader->lexicon() : nullptr);
}

}  // namespace

FollowUpArbitration arbitrate_follow_up(IntentCandidate rule, const TurnInContext& turn,
                                        const ModelVerdict& model) {
  const std::optional<ScannedQuery> rest = after_opener(turn.q, turn.lex);
  const TurnInContext t =
      rest ? TurnInContext{*rest, turn.history, turn.lex, turn.reader, turn.domain, turn.source}
           : turn;
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
  const bool opener_away = !t.q.has_in_content(t.lex.ids().topic_switch) && opener_turns_away(turn);
  const bool switch_cue = t.q.has_in_content(t.lex.ids().topic_switch) || opener_away;
  if (opener_away && rule.intent != Intent::kFollowUp) {
    a.model_may_follow = false;  // said in the reason chain: the head's reading was set aside
    rule.matched_rules.push_back("topic_switch_opener");
  }
  a.dependence_open = rule.intent != Intent::kFollowUp && !switch_cue && !own_topic;
  if (rule.intent != Intent::kFollowUp && points_into_list(t))
    follow(rule, "follow_up_list_item");
  else if (rule.intent != Intent::kFollowUp && elided_condition(t))
    follow(rule, "follow_up_elided_condition");
  else if (rule.intent != Intent::kFollowUp && open_case(t, own_topic))
    follow(rule, "follow_up_open_case");
  else if (rule.intent != Intent::kFollowUp && elided_completion(t))
    follow(rule, "follow_up_elided_completion");
  else if (rule.intent != Intent::kFollowUp && !switch_cue && bare_attribute(t))
    follow(rule, "follow_up_bare_attribute");
  // The pointer says outright that the noun is one the history named: a source keyword of its
  // own (该账号 after a question about 离职) is that noun, not a new topic.
  else if (rule.intent != Intent::kFollowUp && determiner_pointer(t))
    follow(rule, "follow_up_determiner");
  // A question whose own words are only a verb or two (怎么申请 after 工位可以换吗) asks about the
  // history's topic, whatever the model's dependent head says — even when that verb is a term of
  // the KB (怎么收费 after 小区停车位可以租吗), unless it is a source keyword of the rules (怎么报销)
  // or its words name another source than the last turn's.
  else if (rule.intent != Intent::kFollowUp && !switch_cue &&
           bare_question(t.q, t.lex) && !names_source_keyword(t) &&
           (!own_topic || !switches_from_previous(t)))
    follow(rule, "follow_up_bare_question");
  // A question that opens with a modal verb or an adverb (需要原部门同意吗, 一般多久能批下来) names
  // no subject: it asks about the history's topic, even when a word of it is a KB term of another
  // source (总共多少学时; 要收费吗 after 发票验真在哪做: a generic word is weak evidence of a new
  // topic, and keeping the topic costs one search), unless a source keyword of the rules names
  // another source than the previous turn's (能报销打车费吗 after 年假怎么申请).
  else if (rule.intent != Intent::kFollowUp && !switch_cue &&
           subjectless_question(t.q, t.lex, t.reader ? &t.reader->lexicon() : nullptr) &&
           !(names_source_keyword(t) && switches_from_previous(t)))
    follow(rule, "follow_up_subjectless");
  // A verb and its object (扣工资吗 after 迟到一次怎么处理) follow when the dependent head says so at
  // its bar, unless a source keyword names another source than the previous turn's.
  else if (rule.intent != Intent::kFollowUp && !switch_cue && model.on() &&
           model.dependent_score() >= dependent_min && verb_before_its_object(t) &&
           !(names_source_keyword(t) && switches_from_previous(t)))
    follow(rule, "follow_up_verb_object");
  else if (rule.intent != Intent::kFollowUp && !switch_cue && lone_verb_object(t) &&
           !(names_source_keyword(t) && switches_from_previous(t)))
    follow(rule, "follow_up_lone_verb_object");
  // A which-word with no noun after it (哪些在2002年以后还有预算, 哪个最便宜) picks from what the
  // history named, on the same terms.
  else if (rule.intent != Intent::kFollowUp && !switch_cue && which_without_noun(t.q, t.lex) &&
           !(names_source_keyword(t) && switches_from_previous(t)))
    follow(rule, "follow_up_which_without_noun");
  // A short question taking up a word the answer brought in (签到表要原件吗 after …签到表、费用明细
  // 和发票。) asks about it inside the conversation's topic, on the same terms.
  else if (rule.intent != Intent::kFollowUp && !switch_cue &&
           takes_up_answer_word(t.q, t.history, t.lex) &&
           !(names_source_keyword(t) && switches_from_previous(t)))
    follow(rule, "follow_up_answer_word");
  a.dependence_open = a.dependence_open && rule.intent != Intent::kFollowUp;
  // The dependent head overrides the rules' standalone reading of an open turn at its open bar;
  // of one whose only topic is a KB term (分几个等级: 等级), when it is near-sure. A KB term is
  // weak evidence of a new topic; a source keyword of the rules (快递柜在哪 after 员工体检在哪做)
  // or a topic-switch cue is strong, and the head's certainty does not outweigh it.
  const ModelConfig& mc = t.lex.config().model;
  if (a.dependence_open)
    a.override_min = mc.open_dependent_min_score;
  else if (rule.intent != Intent::kFollowUp && a.model_may_follow &&
           !switch_cue && !names_source_keyword(t))
    a.override_min = mc.sure_dependent_min_score;
  a.rule = std::move(rule);
  return a;
}

}  // namespace qaplan::internal
