#include "planning/analysis/rewrite_turn.hpp"

// Replies in conversation: why of a yes-or-no question or of its answer, a verb's object from the
// frame, "and you?" asked back, what an answer to a yes-or-no question states
// (docs/rewrite.md#casual-chat-2026-12-05-sixth-session).
#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/answer_fill.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/analysis/object_slot.hpp"
#include "planning/segment.hpp"
#include "planning/analysis/statement_reply.hpp"
#include "planning/analysis/time_expr.hpp"

namespace qaplan::internal::rewriting {
namespace {


// True when `w` names a person; a kin word alone (爸, 姐) is one too: a person noun's last
// morpheme (`[rewrite] person_heads`).
bool person_word(std::string_view w, const TurnView& t) {
  return names_a_person(w, t.reader) || listed(t.lex.config().rewrite.person_heads, w);
}


}  // namespace

// Where a person word starting at byte `at` of `q` ends (你|孩子, 你|爸), else `at`.
std::size_t person_after(std::string_view q, std::size_t at, const TurnView& t) {
  for (const Token& x : words_of(q))
    if (x.begin == at) return person_word(x.text(q), t) ? x.end : at;
  return at;
}

// What a short answer says in its first clause, without a closing particle (火锅吧 好久没吃了 →
// 火锅; 骑行 每周都骑 → 骑行).
std::string_view answer_of(std::string_view turn) {
  return without_closing_particle(trim_end(first_clause(turn)));
}

// True when `q` asks with a question word (怎么, 多少, 谁), not only yes or no (吗, 是否).
bool asks_wh(const ScannedQuery& q, std::string_view text, const LexiconIds& ids) {
  for (const CueHit& h : q.hits) {
    if (h.list != ids.question_word || h.end > text.size()) continue;
    const std::string_view w = slice(text, h.begin, h.end);
    if (w != "吗" && w != "嘛" && w != "是否" && w != "能否") return true;
  }
  return false;
}

// True when `text` opens with a word that says when (下个月底, 周末, 明天下午).
bool opens_with_time_word(std::string_view text) {
  for (const TimeWord& w : time_words())
    if (text.starts_with(w.text)) return true;
  const std::vector<Token> t = words_of(text);
  return !t.empty() && temporal(t.front().text(text));
}

// What an answer to a yes-or-no question put to the user states, in the speaker's words, for 我也是
// to say of the user too: yes (你对猫毛过敏吗 + 过敏，一摸就打喷嚏) states the question (我对猫毛
// 过敏); no with a reason (你中秋回家吗 + 不回，要值班) states the reason (我要值班). Nullopt
// otherwise.
std::optional<std::string> answered_yes_no(std::string_view question, std::string_view answer,
                                           const TurnView& t) {
  const RewriteConfig& cfg = t.lex.config().rewrite;
  std::string_view q = trim_end(last_clause(question));
  const std::size_t to_you = opening_word(q, cfg.addressee_words, t.reader);
  if (to_you == 0 || cfg.speaker_words.empty() || asks_wh(t.h.prev_scan, t.h.prev, t.lex.ids()))
    return std::nullopt;
  const std::string& me = *std::min_element(cfg.speaker_words.begin(), cfg.speaker_words.end(),
      [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  const std::string_view first = trim_end(first_clause(answer));
  if (first.starts_with("不") || first.starts_with("没")) {
    const std::string_view reason = trim_end(last_clause(answer));
    if (reason == first || reason.empty()) return std::nullopt;
    return me + std::string(reason);
  }
  return me + std::string(without_closing_particle(q).substr(to_you));
}

namespace {

// 不行 denies the question's modal: the modal word (ICU's, not 功能's 能) becomes 不能 (公司电脑
// 可以装LINE + 不行 → 公司电脑不能装LINE). A question that already offers both (能不能, 可不可以)
// or has no modal word stays as it is — 行 is no word of it (银行).
std::string modal_denied(std::string_view asked) {
  const std::vector<Token> w = words_of(asked);
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string_view m = w[i].text(asked);
    if (m != "可以" && m != "能") continue;
    const bool offered = (i > 0 && w[i - 1].text(asked).ends_with("不")) ||
                         (i + 1 < w.size() && w[i + 1].text(asked).starts_with("不"));
    if (offered) return std::string(asked);
    return std::string(asked.substr(0, w[i].begin)) + "不能" + std::string(asked.substr(w[i].end));
  }
  return std::string(asked);
}

// The yes-or-no question as a "no" answered it: 不能 / 没有 (the answer's first clause, 不 or 没
// and a word of the question) in that word's place (公司电脑能用个人网盘 + 不能，… → 公司电脑不能用个人
// 网盘). Why asks why of the answer, and the question's own words asked the opposite.
std::string negated_as_answered(std::string_view asked, const TurnView& t) {
  if (t.h.prev_at != 1) return std::string(asked);
  const std::string_view no = trim_end(first_clause(t.h.window.front()));
  if (!(no.starts_with("不") || no.starts_with("没")) || count_code_points(no) > 3)
    return std::string(asked);
  const std::string_view word = no.substr(std::string_view("不").size());
  if (no == "不行") return modal_denied(asked);
  const std::size_t at = word.empty() ? std::string_view::npos : asked.find(word);
  if (at == std::string_view::npos || asked.substr(0, at).ends_with(no.substr(0, 3)))
    return std::string(asked);
  return std::string(asked.substr(0, at)) + std::string(no) + std::string(asked.substr(at + word.size()));
}

// A clause that says something, not only yes or no: three or more characters, at least two of
// them in content words (不能, 是的, 对啊 say yes or no; 没买 echoes the question's verb).
bool states_something(std::string_view clause, const TurnView& t) {
  if (count_code_points(clause) < 3) return false;
  std::size_t content = 0;
  for (const Token& w : words_of(clause))
    if (w.word && !t.reader.is_function(w.text(clause)) && !t.reader.of_function_chars(w.text(clause)))
      content += count_code_points(w.text(clause));
  return content >= 2;
}

// Why after an answer that there is no need (电脑要装杀毒软件吗 + …，无需自行安装。 + 为啥) asks why
// of that verdict: the question's subject, why, the answer's closing clause and the question's
// object (电脑为啥无需自行安装杀毒软件). Only when the question's subject and object are two runs.
std::optional<Step> why_no_need(const TurnView& t, std::string_view frag) {
  const std::string_view verdict = trim_end(last_clause(trim_end(t.h.window.front())));
  bool no_need = false;
  for (std::string_view n : {"无需", "不需要", "不用", "不必", "没必要"})
    no_need = no_need || verdict.starts_with(n);
  const std::vector<Span>& spans = t.h.prev_spans;
  if (!no_need || spans.size() < 2 || count_code_points(verdict) > 8) return std::nullopt;
  const std::string_view subject = slice(t.h.prev_text, spans.front().begin, spans.front().end);
  const std::string_view run = slice(t.h.prev_text, spans.back().begin, spans.back().end);
  // Without the verb the verdict says again (装 of 安装, 买 of 购买) or a word before it (自己).
  std::size_t cut = 0;
  // The verdict says the question's verb again (装 of 安装, 带 of 携带): it answers that act. The
  // verb opens the run or stands right before it (要自己|带|餐具).
  const std::vector<Token> before = words_of(t.h.prev_text.substr(0, spans.back().begin));
  bool same_act = !before.empty() && before.back().single_han &&
                  verdict.find(before.back().text(t.h.prev_text)) != std::string_view::npos;
  for (const Token& w : words_of(run)) {
    const std::string_view x = w.text(run);
    const bool again = w.single_han && verdict.find(x) != std::string_view::npos;
    if (!t.reader.is_function(x) && x != "自己" && !again) break;
    same_act = same_act || again;
    cut = w.end;
  }
  if (!same_act) return std::nullopt;  // 要装的，不用担心: no verdict on the act asked
  const std::string_view object = run.substr(cut);
  if (count_code_points(subject) < 2 || count_code_points(object) < 2 ||
      verdict.find(object) != std::string_view::npos)
    return std::nullopt;
  return Step{std::string(subject) + std::string(trim_end(frag)) + std::string(verdict) +
                  std::string(object),
              "why_of_answer:no_need"};
}

}  // namespace

// 1e. A bare why (为什么, 为啥) after a yes-or-no question (试用期不能请年假吗, 年假可以跨年吗) asks why
// of what that question proposed: the why in front of it, its particle gone (为什么试用期不能请
// 年假). A question word's topic alone would drop its negation or modal (试用期不能年假).
std::optional<Step> why_of_yes_no_step(const TurnView& t, std::string_view frag) {
  if (!bare_why(frag) || !t.h.prev_is_question ||
      asks_wh(t.h.prev_scan, t.h.prev, t.lex.ids()))
    return std::nullopt;
  // After an answer (你喜欢逛街吗 + 不喜欢) why asks about what the answer said — its first clause
  // that is no echo of the question (去过 | 不太喜欢) — with the verb's object from the question
  // (为啥不喜欢逛街). No such object: why of the question, as below.
  if (t.h.prev_at == 1) {
    if (auto verdict = why_no_need(t, frag)) return verdict;
    const std::string_view answer = t.h.window.front();
    std::string_view said = trim_end(first_clause(answer));
    if (t.h.prev.find(said) != std::string_view::npos && said.size() < answer.size())
      said = trim_end(first_clause(trim_start(answer.substr(said.size()))));
    const std::string why = std::string(trim_end(frag)) + std::string(said);
    if (!said.empty())
      if (auto s = verb_object_step(t, why)) return Step{std::move(s->text), "why_of_answer"};
    // The answer to a question put to the person (你还玩英雄联盟吗 + 现在只玩单机游戏, 你618买东西了吗
    // + 没买 今年不想买) states something of their own, and why asks about that: its last clause,
    // as it stands. A bare yes or no (对, 没买) is no statement; after a question about a rule
    // (试用期能请年假吗 + 按公司规定…不能…) why still asks about the rule, below.
    const std::string_view last = trim_end(last_clause(trim_end(answer)));
    const bool to_you =
        opening_word(trim_end(last_clause(t.h.prev)), t.lex.config().rewrite.addressee_words, t.reader) > 0;
    if (to_you && states_something(last, t) && t.h.prev.find(last) == std::string_view::npos)
      return Step{std::string(trim_end(frag)) + std::string(last), "why_of_answer"};
  }
  std::string_view asked = trim_end(t.h.prev_text);
  for (std::string_view particle : {"吗", "嘛"})
    if (asked.ends_with(particle)) asked.remove_suffix(particle.size());
  if (asked.size() == trim_end(t.h.prev_text).size() || t.reader.spans(asked).empty())
    return std::nullopt;
  return Step{join(std::string(frag), negated_as_answered(asked, t)), "why_of_question"};
}

namespace {

// The turn with `object` in its slot after the verb (不喝了 → 不喝咖啡了, 吃完了吗 → 吃完火锅了吗);
// after the turn when the word break would not read it whole there.
std::string with_object(std::string_view turn, std::string_view body, std::string_view object) {
  if (auto placed = with_object_at(turn, object_slot(turn), object)) return std::move(*placed);
  return join(std::string(body), object);
}

// "Me too" with a verb of the speaker's own (我也没中过 after 你买彩票吗 + 偶尔买 从来没中过; 我也
// 卸载了 after 你怎么不玩微博了): what they did is done to the thing the question put to the other
// asked about — its last phrase, closing it but for a particle — which goes after the turn. 也
// follows the speaker, maybe after one word of when (我上次也去了). Only after a yes-or-no question.
std::optional<Step> also_object(const TurnView& t, std::string_view turn, std::string_view body) {
  const auto rest = after_speaker(turn, t.reader);
  if (!rest || !t.h.prev_is_question || asks_wh(t.h.prev_scan, t.h.prev, t.lex.ids()))
    return std::nullopt;  // 你一天抽几根烟: no thing it asked about, but how many
  const std::vector<Token> w = words_of(*rest);
  const bool also = rest->starts_with("也") ||
                    (w.size() > 1 && temporal(w[0].text(*rest)) && w[1].text(*rest) == "也");
  const std::string_view q = trim_end(first_clause(t.h.prev_text));
  if (!also || opening_word(q, t.lex.config().rewrite.addressee_words, t.reader) == 0)
    return std::nullopt;
  const std::vector<Span> spans = t.reader.spans(q);
  if (spans.empty()) return std::nullopt;
  const std::string_view object = slice(q, spans.back().begin, spans.back().end);
  if (!without_closing_particle(q).ends_with(object) || turn.find(object) != std::string_view::npos)
    return std::nullopt;
  return Step{join(std::string(body), object), "also_object"};
}

}  // namespace

// 1g. A bare predicate ending in a verb of the frame (我也喜欢 after 你喜欢吃火锅吗; 为什么喜欢 after
// 你最喜欢什么电影 + 泰坦尼克; 怎么去 after 周末想去故宫) asks about what the verb took there: that
// object after the turn, whose own words stay. After a short answer to a question put to the user
// the frame is the question with the answer in its slot. The object must name something and ask
// nothing (报销审批流程是什么 + 谁审批: 流程是什么 is no object).
std::optional<Step> verb_object_step(const TurnView& t, std::string_view frag) {
  // The turn's own words (read before: no new word break); a closing particle (呢, 吗) is no
  // part of the predicate.
  const std::string_view turn = trim_end(frag);
  std::vector<Token> w = words_of(turn);
  std::string_view body = turn;
  for (std::string_view particle : {"呢", "吗", "啊", "呀"})
    if (!w.empty() && w.back().text(turn) == particle) {
      body = turn.substr(0, w.back().begin);
      w.pop_back();
    }
  // An aspect after the verb (吃|过, 看了) stays in the turn; the verb is matched without it.
  const auto is_aspect = [](std::string_view x) { return x == "过" || x == "了" || x == "完"; };
  if (w.size() >= 2 && is_aspect(w.back().text(body))) w.pop_back();
  if (w.empty() || !w.back().word || w.back().ascii) return std::nullopt;
  // The verb may be a function word of the topic reader (喜欢, 去, 想: never a topic), not a
  // question word or a particle.
  std::string_view verb = w.back().text(body);
  for (std::string_view aspect : {"过", "了", "完"})
    if (verb.size() > aspect.size() && verb.ends_with(aspect)) verb.remove_suffix(aspect.size());
  std::vector<CueHit> asks;
  t.lex.question_word_hits(verb, asks);
  if (!asks.empty() || verb == "了" || verb == "的" || verb == "吧") return std::nullopt;
  // The turn names no thing of its own: before the verb only function words, its subject and
  // adverbs (我还没|看, 上周刚|吃过, 为什么|喜欢).
  const std::size_t subject_end = turn.size() - after_speaker(turn, t.reader).value_or(turn).size();
  std::vector<CueHit> asking;  // the turn's question words (ICU may cut them: 为|啥)
  t.lex.question_word_hits(turn, asking);
  for (const Token& x : w) {
    if (x.begin >= w.back().begin || x.begin < subject_end) continue;
    if (std::any_of(asking.begin(), asking.end(),
                    [&](const CueHit& h) { return h.begin <= x.begin && x.end <= h.end; }))
      continue;
    const std::string_view xs = x.text(body);
    if (x.word && !t.reader.is_function(xs) && !t.reader.of_function_chars(xs) && !temporal(xs) &&
        !adverbs_only(xs))
      return std::nullopt;
  }
  std::string frame(first_clause(t.h.prev_is_question ? t.h.prev_text : t.h.window.front()));
  if (t.h.prev_is_question && t.h.prev_at == 1)
    if (auto filled = fill_answer(t.h.prev, answer_of(t.h.window.front()), t.reader))
      frame = std::move(*filled);
  const std::vector<Token> f = words_of(frame);
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    // ICU glues a one-character verb to its modal or its own verb (想去|故宫): the verb may end
    // the word (去 → 故宫) or open it (想 → 去故宫).
    const std::string_view word = f[i].text(frame);
    const bool one = count_code_points(verb) == 1;
    std::size_t from = 0;
    if (word == verb || (one && word.ends_with(verb))) from = f[i].end;
    else if (one && word.starts_with(verb)) from = f[i].begin + verb.size();
    else continue;
    std::string_view object = trim_end(std::string_view(frame).substr(from));
    for (std::string_view aspect : {"过", "了", "着"})  // 看过|奥本海默
      if (object.starts_with(aspect)) object.remove_prefix(aspect.size());
    object = without_closing_particle(object);
    const std::string_view head = f[i + 1].text(frame);
    if (object.empty() || !f[i + 1].word || head == "了" || head == "的") return std::nullopt;
    t.lex.question_word_hits(object, asks);
    if (asks.empty())
      return t.reader.spans(object).empty() ? std::nullopt
                                            : std::optional(Step{with_object(turn, body, object), "verb_object"});
    // The object asked for (晚上想吃|啥) was answered by the newest turn (火锅吧): the answer. A
    // yes-or-no question (离职要交接吗) asked for no object: its answer is none.
    const std::string_view answer = answer_of(t.h.window.front());
    const CueHit& ask = asks.front();
    const std::string_view slot = object.substr(ask.begin, ask.end - ask.begin);
    if (slot == "吗" || slot == "嘛" || slot == "是否" || slot == "能否" ||
        slot.find("不") != std::string_view::npos || slot.find("没") != std::string_view::npos)
      return std::nullopt;  // 吗, 能不能, 有没有 …: a yes-or-no question
    if (asks.front().begin == 0 && t.h.prev_is_question && t.h.prev_at == 1 && !answer.empty() &&
        count_code_points(answer) <= kShortAnswer && !t.reader.spans(answer).empty())
      return Step{join(std::string(body), answer), "verb_object:answer"};
    return std::nullopt;
  }
  return also_object(t, turn, body);
}

// 1h. "And you?" (你呢, 那您呢) turns the previous question to the one asked: the question with its
// own addressee or speaker word (你是哪里人, 我周末干嘛) in the turn's place, else the turn's word in
// front (周末一般干嘛 → 你周末一般干嘛). After the user's own statement (我是四川人) it asks whether
// the statement holds of them (你是四川人吗). Else the turn stays: no topic glued to a pronoun.
std::optional<Step> asked_back_step(const TurnView& t, std::string_view frag, bool asks_ne) {
  const RewriteConfig& cfg = t.lex.config().rewrite;
  if (!asks_ne) return std::nullopt;  // 你玩多久了 asks on its own
  // The user may answer first and then ask back (我湖南的 你呢, its space dropped: 我湖南的你呢):
  // the answer stays in front. 你妈呢 / 你男朋友呢 after a question to the user asks it of them: in
  // the addressee's place.
  std::string_view who = trim_end(last_clause(frag));
  if (!listed(cfg.addressee_words, who) && opening_word(who, cfg.addressee_words, t.reader) == 0)
    for (const std::string& a : cfg.addressee_words)
      if (who.ends_with(a) && who.size() > a.size()) {
        who = who.substr(who.size() - a.size());
        break;
      }
  const bool bare = listed(cfg.addressee_words, who);
  if (!bare && opening_word(who, cfg.addressee_words, t.reader) == 0) return std::nullopt;
  const std::string said_first(trim_end(frag.substr(0, static_cast<std::size_t>(who.data() - frag.data()))));
  auto with_own = [&](std::string asked) { return said_first.empty() ? asked : said_first + " " + asked; };
  if (t.h.prev_is_question) {
    const std::string_view q = trim_end(last_clause(t.h.prev_text));
    std::size_t at = opening_word(q, cfg.addressee_words, t.reader);
    if (at == 0) at = opening_word(q, cfg.speaker_words, t.reader);
    if (!bare && at == 0) return std::nullopt;
    // One person for another (你爸 → 你妈, not 你妈爸); a place or a thing after the owner
    // modifies the question's noun (你们宿舍 → 你们隔壁宿舍).
    if (!bare && person_word(who.substr(opening_word(who, cfg.addressee_words, t.reader)), t))
      at = person_after(q, at, t);
    return Step{with_own(join(std::string(who), q.substr(at))), "asked_back"};
  }
  if (!said_first.empty() || !bare) return std::nullopt;
  const std::string_view said = trim_end(first_clause(t.h.window.front()));
  if (const std::size_t at = opening_word(said, cfg.speaker_words, t.reader);
      at > 0 && !question_like(said, t.h.prev_scan, t.lex.ids()))
    return Step{join(std::string(who), said.substr(at)) + "吗", "asked_back:statement"};
  return Step{std::string(t.question), "asked_back:none"};
}

}  // namespace qaplan::internal::rewriting
