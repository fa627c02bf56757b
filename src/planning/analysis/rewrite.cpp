#include "planning/analysis/rewrite.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_set>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/bare_question.hpp"
#include "planning/analysis/answer_fill.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/analysis/coordination.hpp"
#include "planning/analysis/beside_topic.hpp"
#include "planning/analysis/ellipsis.hpp"
#include "planning/analysis/english_slot.hpp"
#include "planning/analysis/object_slot.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/analysis/rewrite_check.hpp"
#include "planning/analysis/rewrite_turn.hpp"
#include "planning/segment.hpp"
#include "planning/analysis/statement_reply.hpp"
#include "planning/analysis/time_expr.hpp"

namespace qaplan::internal {

using namespace rewriting;

std::string history_summary(std::string_view question, const std::vector<std::string>& history,
                            std::string_view topic) {
  std::string s;
  if (!history.empty()) {
    s += "[上下文] 用户上一轮询问“" + history.back() + "”";
    if (!topic.empty()) s += "，实体：" + std::string(topic);
    s += "。\n";
  }
  s += "[当前] " + std::string(question);
  return s;
}

// A statement without the function words in front of what it is about (我想学游泳 → 学游泳,
// 最近在看三体 → 看三体): the frame a question about it continues. A lone function character
// before a content word stays: it governs that word (用车申请, 看三体).
std::string_view rewriting::statement_core(std::string_view statement, const PhraseReader& reader) {
  const std::vector<Token> t = words_of(statement);
  auto function = [&](std::size_t i) {
    const std::string_view w = t[i].text(statement);
    return !t[i].word || reader.is_function(w) || reader.of_function_chars(w);
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool governs = t[i].single_han && i + 1 < t.size() && !function(i + 1);
    if (!function(i) || governs) return statement.substr(t[i].begin);
  }
  return statement;
}

namespace {

// A turn asking what to do about an event, what it leads to or why (咋处理, 找谁, 会怎样, 还能
// 用吗): the event is its frame and stays whole.
bool asks_about_event(std::string_view turn) {
  for (std::string_view w : {"怎么办", "咋办", "咋整", "怎么整", "处理", "解决", "找谁", "怎么弄",
                             "咋弄", "怎样", "为什么", "为啥", "回事", "正常", "严重", "影响"})
    if (turn.find(w) != std::string_view::npos) return true;
  for (std::string_view w : {"能", "可以", "还", "会", "要", "得", "需要"})
    if (turn.starts_with(w)) return true;
  return false;
}

}  // namespace

// What a statement of something done (理赔申请提交了, 哈利波特看完了) is about: its subject, the
// words before the verb and its 了 (a result complement 完 / 好 and an adverb 已经 go with the
// verb). nullopt for a statement of another shape or a subject no thing (我看完了).
std::optional<std::string_view> rewriting::done_subject(std::string_view statement,
                                                        const PhraseReader& reader) {
  std::string_view s = trim_end(statement);
  for (std::string_view p : {"。", "！", "!", "."})
    if (s.ends_with(p)) s = trim_end(s.substr(0, s.size() - p.size()));
  const std::vector<Token> w = words_of(s);
  if (w.size() < 3 || w.back().text(s) != "了") return std::nullopt;
  std::size_t verb = w.size() - 2;
  auto complement = [&](std::size_t k) {
    const std::string_view c = w[k].text(s);
    return c == "完" || c == "好" || c == "掉" || c == "到";
  };
  if (complement(verb) && verb > 0) --verb;
  while (verb > 0 && (opens_with_adverb(w[verb - 1].text(s)) || w[verb - 1].text(s) == "已经"))
    --verb;
  const std::string_view subject = trim_end(s.substr(0, w[verb].begin));
  // One clause: a subject across a stop or comma is no thing (很好。列出名字就可以了).
  const bool clause = first_clause(subject).size() == subject.size();
  if (count_code_points(subject) < 2 || !clause || reader.spans(subject).empty() ||
      reader.is_function(w[0].text(s)))
    return std::nullopt;
  return subject;
}

// Bytes of the longest tail of `topic` — whole words of it, two characters or more — that `frag`
// opens with (鲁迅的作品 + 作品有多少页): the turn names the topic's head and goes on about it, so
// the topic's words before the head go in front, not the head twice. 0 when none.
std::size_t rewriting::shared_tail(std::string_view topic, std::string_view frag) {
  for (const Token& w : words_of(topic)) {
    const std::string_view tail = topic.substr(w.begin);
    if (w.begin > 0 && w.word && count_code_points(tail) >= 2 && frag.starts_with(tail))
      return tail.size();
  }
  return 0;
}

namespace {

// The turn's first word is a verb with its aspect particle (订了…, 看过…, 坏|了).
bool opens_with_event(std::string_view turn, const std::vector<Token>& w) {
  auto aspect = [](std::string_view c) { return c == "了" || c == "过" || c == "着"; };
  const std::string_view first = w[0].text(turn);
  if (!w[0].ascii && count_code_points(first) == 2 && aspect(last_code_point(first))) return true;
  return w[0].single_han && w.size() > 1 && aspect(w[1].text(turn));
}

// The turn compares: its first word is 比 (比农行高吗), not a word starting with it (比较, 比例).
bool opens_comparison(std::string_view frag) {
  const std::vector<Token> w = words_of(frag);
  if (w.empty()) return false;
  // ICU reads 比上 (compared with one's betters) before 个月 / 次 / 周: 比|上个月 all the same.
  if (w.front().text(frag) == "比上") {
    const std::string_view rest = frag.substr(w.front().end);
    for (std::string_view unit : {"个", "次", "周", "月", "年", "季", "一", "半"})
      if (rest.starts_with(unit)) return true;
  }
  return w.front().text(frag) == "比";
}

// What stands before a verb in a question: a question word of manner or a modal (怎么|申请,
// 可以|报销, 需要|提交), not one before a noun (有哪些|要求, 是|什么).
bool verb_slot(std::string_view gap) {
  for (std::string_view w : {"可以", "能", "能否", "可否", "要", "需要", "该"})
    if (gap.ends_with(w)) return true;
  const std::vector<Token> w = words_of(gap);
  return !w.empty() && manner_word(w.back().text(gap));
}

}  // namespace

// A lone character, no function word, right after a Chinese question word or a modal (需要谁|批,
// 在哪儿|办, 最多能|报|多少): the turn's own verb. One glued to a content word ends a compound
// (流程|图); one after 有 / 要 / 是 is their noun (有|税吗, 要|钱吗).
bool rewriting::opens_with_question_word(std::string_view word, const RewriteConfig& rw) {
  return !word.empty() && static_cast<unsigned char>(word[0]) >= 0x80 &&
         std::any_of(rw.question_words.begin(), rw.question_words.end(),
                     [&](const std::string& q) { return word.starts_with(q); });
}

bool rewriting::has_own_verb(std::string_view turn, const PhraseReader& reader) {
  const std::vector<Token> w = words_of(turn);
  const RewriteConfig& rw = reader.lex().config().rewrite;
  auto asks = [&](std::string_view x) { return opens_with_question_word(x, rw); };
  auto modal = [](std::string_view x) {
    return x.ends_with("能") || x.ends_with("可以") || x.ends_with("会") || x.ends_with("得");
  };
  // What a person does after 谁, or after an adverb that only ever opens a verb, is a verb of
  // any length, a modal between them or not (需要谁|签字, 多久才|会|拨款, 亲自|到场).
  bool opened = false;
  for (std::size_t k = 1; k < w.size(); ++k) {
    const std::string_view c = w[k].text(turn), before = w[k - 1].text(turn);
    opened = before == "谁" || before == "才" || before == "亲自" || (opened && modal(before));
    if (!w[k].word || reader.is_function(c) || before.empty()) continue;
    if (opened && !w[k].ascii) return true;  // 才|3|天 is a count, no verb
    if (w[k].single_han && (asks(before) || modal(before))) return true;
  }
  return false;
}

namespace {

// The subject a subjectless continuation carries: the previous question's topic with the one word
// it asked about after it (年假怎么申请 + 需要提前几天 → 年假申请需要提前几天; 公积金可以提取吗 +
// 要什么条件 → 公积金提取…), so the turn keeps what it continues. Only when that word is the
// question's last content run, one word of two or more characters, not in the turn, and the turn
// opens without a subject of its own (需要…, 要…, 最多…); else nullopt and the topic alone goes in
// front.
std::optional<std::string> carried_subject(std::string_view prev_text,
                                           const std::vector<Span>& prev_spans,
                                           std::uint32_t subject_end, std::string_view turn,
                                           const PhraseReader& reader) {
  std::vector<const Span*> after;
  for (const Span& sp : prev_spans)
    if (sp.begin >= subject_end) after.push_back(&sp);
  if (after.size() != 1 || after[0]->words != 1 || after[0]->ascii) return std::nullopt;
  const std::string_view word = slice(prev_text, after[0]->begin, after[0]->end);
  // A lone character is no word to carry: a verb (干, 领) or a piece ICU cut from one (怎么|样).
  if (count_code_points(word) < 2 || turn.find(word) != std::string_view::npos) return std::nullopt;
  // What the carried subject leaves out between topic and word must be a question word or a
  // modal (怎么, 可以, 有哪些), never a negation or a verb (试用期不能请年假吗 ≠ 试用期年假).
  const std::string_view gap = slice(prev_text, subject_end, after[0]->begin);
  for (std::string_view neg : {"不", "没", "别", "未", "非"})
    if (gap.find(neg) != std::string_view::npos) return std::nullopt;
  for (const Token& t : words_of(gap))
    if (t.single_han && !reader.is_function(t.text(gap))) return std::nullopt;
  // A turn that opens with a verb of its own (订了没去会怎样) continues the question's topic, not
  // its verb.
  if (const std::vector<Token> w = words_of(turn); !w.empty() && opens_with_event(turn, w))
    return std::nullopt;
  // A turn with a verb of its own — a lone character that is no function word after its first
  // word (需要谁|批, 在哪儿|办, 最多能|报|多少) — asks with that verb where the question's word was
  // a verb too (怎么|申请, 可以|报销): the topic is carried without it. A noun the question asked
  // about (有哪些|要求, 有没有|年终奖) stays.
  if (verb_slot(gap) && has_own_verb(turn, reader)) return std::nullopt;
  // A lone character opening the turn is its verb (举几个例子), not a subject of its own.
  const std::vector<Span> own = reader.spans(turn);
  if (!own.empty() && own.front().begin == 0 &&
      count_code_points(slice(turn, own.front().begin, own.front().end)) >= 2)
    return std::nullopt;
  return join(slice(prev_text, prev_spans.front().begin, subject_end), word);
}

}  // namespace

// A turn that only names something (合同里的违约金条款): no sentence punctuation, as an answer has.
bool rewriting::names_only(std::string_view turn) {
  for (std::string_view p : {"。", "，", "；", "！", ",", ";", "!", "."})
    if (turn.find(p) != std::string_view::npos) return false;
  return true;
}

namespace {

// The topic's first word, of two or more characters and no function word, is in the turn.
bool names_topic_head(const TurnView& t, std::string_view frag) {
  const std::string_view anchor = t.r.topic_anchor;
  for (const Token& w : words_of(anchor)) {
    if (!w.word) continue;
    const std::string_view head = w.text(anchor);
    return !w.ascii && count_code_points(head) >= 2 && !t.reader.is_function(head) &&
           frag.find(head) != std::string_view::npos;
  }
  return false;
}

// 1a. A reply to the statement the newest turn made (我不打篮球了 + 为什么, + 我也是, + 真的吗):
// built from that statement (statement_reply.hpp).
std::optional<Step> statement_reply_step(const TurnView& t, std::string_view frag) {
  const std::string_view newest = t.h.window.front();
  const bool statement = t.h.newest_stated();
  // A short answer to the question before it states that question's answer (你最喜欢哪个导演 +
  // 姜文 → 我最喜欢姜文): 为啥 then asks why of that. An answer with its own speaker (我觉得…) is
  // a statement already.
  std::optional<std::string> answered;
  if (statement && t.h.prev_is_question && t.h.window.size() > 1 &&
      t.h.prev_at == 1 && names_only(answer_of(newest)) &&
      !opening_word(newest, t.lex.config().rewrite.speaker_words, t.reader))
    answered = fill_answer(t.h.prev, answer_of(newest), t.reader);
  if (!answered && statement && t.h.prev_is_question && t.h.prev_at == 1 &&
      listed(t.lex.config().rewrite.also_markers, frag))
    answered = answered_yes_no(t.h.prev, newest, t);
  // A comparison after the answer to the question before it (建行的三年定期利率是多少 + 目前是1.75%
  // + 比农行高吗) compares what the question asked about, not the answer's words.
  if (statement && t.h.prev_is_question && t.h.prev_at == 1 && !answered && opens_comparison(frag))
    return std::nullopt;
  auto reply = reply_to_statement(answered ? *answered : newest, statement, frag, t.reader);
  if (!reply) return std::nullopt;
  return Step{std::move(reply->text), reply->reason};
}

// 1b. A short answer to the question the newest turn put (你想吃米饭还是面条 + 面条 → 我想吃面条):
// the question said back with the answer in its slot (answer_fill.hpp). Only a bare answer: no
// question of its own, no ellipsis marker. A choice (米饭还是面条) asks without a question word.
std::optional<Step> answer_step(const TurnView& t, std::string_view frag, bool asks_ne) {
  const std::string_view newest = t.h.window.front();
  const bool asked = !t.h.newest_stated();
  const auto& alternatives = t.lex.config().rewrite.alternative_markers;
  if (!asked && std::none_of(alternatives.begin(), alternatives.end(), [&](const std::string& m) {
        return newest.find(m) != std::string_view::npos;
      }))
    return std::nullopt;
  if (asks_ne || frag.size() != t.text.size() || question_like(t.text, t.q, t.lex.ids()))
    return std::nullopt;
  auto filled = fill_answer(newest, t.text, t.reader);
  if (!filled) return std::nullopt;
  return Step{std::move(*filled), "answer_fill"};
}

// 1c. The next step after a statement of where the user is (我在费控系统提交了报销单 + 主管批完
// 之后呢): the statement, then the turn — never the turn's words in the statement's place.
std::optional<Step> sequence_step(const TurnView& t, std::string_view frag,
                                  const RewriteSources& sources) {
  if (t.h.prev_is_question || !t.q.has(t.lex.ids().sequence_marker)) return std::nullopt;
  std::string whole = join(statement_core(t.h.prev_text, t.reader), frag);
  if (GarbleCheck(sources, t.words).reason(whole) != "too_long")
    return Step{std::move(whole), "statement_prefix:next_step"};
  // Too long to keep whole: where the user is now, its last clause (我要申请用公章，OA用印申请已经
  // 提交了).
  return Step{join(statement_core(last_clause(t.h.prev_text), t.reader), frag),
              "statement_prefix:next_step"};
}

// 1d. A request to say more (详细说说, 说清楚一点) with no words of its own asks the previous
// question — or the topic the user named (合同里的违约金条款) — again in more detail: the request
// in front of it. After an answer it continues the answer. Never a noun in the topic's place.
std::optional<Step> elaboration_step(const TurnView& t, std::string_view frag) {
  const auto m = first_hit(t.q, t.lex.ids().elaboration_marker);
  if (!m || m->end > t.text.size() || !t.reader.spans(t.text.substr(0, m->begin)).empty() ||
      !t.reader.spans(t.text.substr(m->end)).empty())
    return std::nullopt;
  if (t.h.prev_is_question || names_only(t.h.prev))
    return Step{join(slice(t.text, m->begin, m->end), t.h.prev_text), "elaboration"};
  return Step{join(t.h.prev_text, frag), "statement_prefix"};
}


// 3. A comparison: attached to the previous question's subject (跟去年比呢) — also one that
// opens with 比 itself (比上个月多吗, 比杭州高多少: the previous question's value against another).
std::optional<Step> comparison_step(const TurnView& t, std::string_view frag) {
  const LexiconIds& ids = t.lex.ids();
  const auto m = first_hit(t.q, ids.comparison_marker);
  if ((!m || m->begin != 0) && !opens_comparison(t.text)) return std::nullopt;
  // The previous question up to what it asked (现在满1年不满10年年假|几天), or its subject
  // phrase when that runs further.
  std::uint32_t frame_end = t.h.subject_end;
  if (const auto w = first_hit(t.h.prev_scan, ids.question_word))
    for (const Span& sp : t.h.prev_spans)
      if (sp.end <= w->begin && sp.end > frame_end) frame_end = sp.end;
  std::string out = std::string(trim_end(slice(t.h.prev, 0, frame_end)));
  out = join(out, frag);
  if (frag.ends_with("比")) out += kHowItCompares;
  return Step{std::move(out), "comparison"};
}

// 3b. Which of two (哪个快一点, 两者有啥区别): the pair the window coordinated, newest turn
// first, stands in front — not the previous question's predicate (仲裁和诉讼都能走吗).
std::optional<Step> which_step(const TurnView& t) {
  // A turn naming a pair of its own asks about it — unless a word for both points back (这俩饭前吃
  // 还是饭后吃: the choice is the turn's, the two things the history's).
  if (!asks_which(t.text) || (coordinated_pair(t.text, t.words) && !both_pronoun_at(t.text)))
    return std::nullopt;
  for (std::string_view turn : t.h.window) {
    // 可以坐班车也可以坐地铁吗: the two ways offered are the pair.
    if (auto offered = offered_pair(turn))
      return Step{which_of_pair(*offered, t.text), "which_of_pair:offered"};
    if (auto pair = coordinated_pair(trim_end(turn), t.words)) {
      // Kinds of a thing (有线或蓝牙的): each with the thing's name.
      if (auto headed = headed_kinds(trim_end(turn), *pair, t.h.window, t.reader))
        pair = std::move(headed);
      // The activity the question right before asked both could do (都能开住院证吗) is what
      // 哪个更快 compares; after an answer the comparison is of the items.
      if (auto act = turn.data() == t.h.window.front().data()
                         ? shared_activity(turn, *pair, t.text, t.words) : std::nullopt)
        return Step{which_of_pair(*pair + *act, t.text), "which_of_pair:activity"};
      return Step{which_of_pair(*pair, t.text), "which_of_pair"};
    }
  }
  return std::nullopt;
}

// 7'. "What about X, <question>" (病假呢，要什么材料; 对外付款呢，哪个门槛更高): the question asks
// about the topic with X in its parallel item's place (年假 → 病假), else about X of the topic
// (老版本呢，宽松多少 → 差旅报销老版本宽松多少) — and about X beside the topic when it asks which.
std::optional<Step> about_clause_step(const TurnView& t) {
  const std::size_t ne = t.text.find("呢,");  // normalized text: NFKC made "，" ","
  if (ne == std::string_view::npos || t.r.topic_anchor.empty()) return std::nullopt;
  std::string_view about = t.text.substr(0, ne);
  if (const auto m = first_hit(t.q, t.lex.ids().ellipsis_marker); m && m->begin == 0 && m->end < ne)
    about = trim_start(about.substr(m->end));
  const std::string_view asked = trim_start(t.text.substr(ne + 3));
  const std::size_t units = count_code_points(about);
  if (asked.empty() || units < 2 || units > 8 || about.find(t.r.topic_anchor) != std::string_view::npos)
    return std::nullopt;
  const std::string_view topic = slice(t.h.prev, t.h.topic()->begin, t.h.subject_end);
  // Which of them: both in the previous question's frame, so what they are compared on stays
  // (报销和对外付款超过多少要CFO审批哪个门槛更高).
  if (asks_which(asked) && !coordinated_pair(asked, t.words)) {
    std::string out(t.h.prev_text.substr(0, t.h.subject_end));
    out += "和";
    out += about;
    out += trim_end(t.h.prev_text.substr(t.h.subject_end));
    return Step{join(out, asked), "about_clause:which"};
  }
  if (const auto item = parallel_item(t.h.prev, about, t.reader);
      item && item->first >= t.h.topic()->begin && item->second <= t.h.subject_end) {
    std::string subject(topic.substr(0, item->first - t.h.topic()->begin));
    subject += about;
    subject += topic.substr(item->second - t.h.topic()->begin);
    return Step{join(subject, asked), "about_clause:parallel"};
  }
  return Step{join(join(std::string(topic), about), asked), "about_clause"};
}

// A bare "why" after a one-clause statement (报销单被退回了 + 为什么) asks why of what the statement
// says of its subject: the question word after the subject (报销单为什么被退回了).
constexpr std::string_view kByNouns[] = {"子", "褥", "服", "告", "单", "套", "罩", "保险人", "申请人"};

// 不 and a result (不了, 不上, 不开 …) opening `rest`: the verb before them takes a potential
// complement (刷不了). Closed classes of the language, as the negations below.
bool potential_complement(std::string_view rest) {
  if (!rest.starts_with("不")) return false;
  const std::string_view r = rest.substr(std::string_view("不").size());
  for (std::string_view c : {"了", "到", "上", "开", "动", "下", "起", "出", "进", "完", "懂", "见",
                             "清", "着", "住", "通"})
    if (r.starts_with(c)) return true;
  return false;
}

bool negation(std::string_view w) {
  for (std::string_view n : {"不", "没", "没有", "未", "不能", "不会", "不可以", "不可", "无法", "不让"})
    if (w == n) return true;
  return false;
}

std::optional<std::string> why_inside(const TurnView& t, std::string_view frag) {
  const auto w = first_hit(t.q, t.lex.ids().question_word);
  const std::size_t at = static_cast<std::size_t>(frag.data() - t.question.data());
  if (!w || w->begin != at || w->end != at + frag.size() || t.h.prev_spans.empty()) return std::nullopt;
  if (!bare_why(frag)) return std::nullopt;
  const std::string_view s = statement_core(t.h.prev_text, t.reader);
  const std::size_t dropped = static_cast<std::size_t>(s.data() - t.h.prev_text.data());
  if (!names_only(s) || t.h.subject_end <= dropped || t.h.subject_end - dropped >= s.size())
    return std::nullopt;
  std::size_t cut = t.h.subject_end - dropped;
  // A passive's 被 ends the subject, whatever term the word break joined across it (VPN账号|被锁:
  // 账号被锁 is a term of the KB): VPN账号为啥被锁了, not …被锁为啥了.
  // 被 after the subject's first character, no noun's first (被子, 被褥, 被告 …): the word break
  // with the KB's terms joined would hide it inside 账号被锁.
  constexpr std::string_view kBy = "被";
  for (std::size_t by = s.find(kBy, 3); by != std::string_view::npos && by < cut; by = s.find(kBy, by + 3)) {
    const std::string_view next = s.substr(by + kBy.size());
    if (!std::any_of(std::begin(kByNouns), std::end(kByNouns),
                     [&](std::string_view c) { return next.starts_with(c); })) {
      cut = by;
      break;
    }
  }
  // Why goes before a negation the subject's span took in (报销单没|通过 → 报销单为什么没通过,
  // 年假不能跨年用 → 年假为什么不能跨年用) and before a verb with a potential complement (刷不了,
  // 登不上): never inside the predicate.
  const std::vector<Token> words = words_of(s);
  for (std::size_t i = 1; i < words.size() && words[i].begin < cut; ++i)
    if (negation(words[i].text(s))) {
      cut = words[i].begin;
      break;
    }
  for (std::size_t i = 1; i < words.size() && words[i].end <= cut; ++i)
    if (words[i].end == cut && words[i].single_han && potential_complement(s.substr(cut)))
      cut = words[i].begin;
  return join(join(s.substr(0, cut), frag), s.substr(cut));
}

// A 的 with no noun after it (哪里的最正宗, 便宜的有吗) has left out the topic it modifies: the topic
// goes after that 的 (哪里的螺蛳粉最正宗), not in front of the turn.
std::optional<std::string> head_after_de(std::string_view frag, std::string_view topic,
                                         const PhraseReader& reader) {
  if (topic.empty() || frag.find("的") == std::string_view::npos) return std::nullopt;
  const std::vector<Token> t = words_of(frag);
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (t[i].text(frag) != "的" || !t[i - 1].word) continue;
    const std::string_view next = t[i + 1].text(frag);
    if (!t[i + 1].word || !(reader.is_function(next) || next.starts_with("最"))) return std::nullopt;
    return std::string(frag.substr(0, t[i].end)) + std::string(topic) +
           std::string(frag.substr(t[i].end));
  }
  return std::nullopt;
}

// Who of a work (作者是谁, 男主角是谁) is the work's role, said with 的: 哈利波特的作者是谁, 《繁花》
// 的导演是谁 — glued, the two read as one compound. For a thing the user spoke of (`spoken`) or a
// 《title》, and a turn that is only the role and 是谁 (到底是谁写的, 现在是谁负责 ask otherwise); a
// topic asked about keeps the compound (合同审批人是谁).
std::string join_role(std::string_view thing, std::string_view frag, bool spoken) {
  constexpr std::string_view kWho = "是谁";
  const std::string_view asked = without_closing_particle(trim_end(frag));
  const std::string_view role = asked.substr(0, asked.size() - std::min(asked.size(), kWho.size()));
  const std::size_t n = count_code_points(role);
  if (!asked.ends_with(kWho) || n < 2 || n > 4 || thing.ends_with("的") ||
      !(spoken || thing.ends_with("》")) || role.find("的") != std::string_view::npos ||
      opens_with_adverb(role) || temporal(role))
    return join(thing, frag);
  return join(std::string(thing) + "的", frag);
}

// 4–5. A fragment (那年假呢) or a bare predicate (怎么申请呢): in the previous question's place,
// or the topic in front.
// A bare predicate after a statement: why it was so, what a request asked for, the thing
// something done was done to, or the statement as the frame the question continues.
Step after_statement(const TurnView& t, std::string_view frag) {
  if (auto why = why_inside(t, frag)) return {std::move(*why), "statement_why"};
  // After a request, what it asked for beside the turn — the safe form, as a rejected rewrite's.
  if (const auto& asked = t.h.request) {
    if (asked->empty()) return {std::string(t.question), "statement:sort"};
    return {std::string(*asked) + " " + std::string(t.text), "statement_prefix:request",
            "rewrite:fallback:request"};
  }
  // A question with its own predicate after something done (理赔申请提交了 + 一般多久能批) asks
  // about the thing, not the deed; what to do about it (咋处理) keeps the deed.
  if (!asks_about_event(frag))
    if (auto subject = done_subject(t.h.prev_text, t.reader))
      return {join_role(*subject, frag, true), "statement_subject"};
  return {join(statement_core(t.h.prev_text, t.reader), frag), "statement_prefix"};
}

Step fragment_step(const TurnView& t, std::string_view frag, bool asks_ne,
                   const RewriteSources& sources) {
  const LexiconIds& ids = t.lex.ids();
  const std::vector<Span> spans = t.reader.spans(frag);
  // A question word of the fragment itself (not of a marker: how about …).
  const std::size_t frag_at = static_cast<std::size_t>(frag.data() - t.question.data());
  // V不 / V没 closing the turn asks yes or no (好看不, 去了没) as 吗 does; 呗 / 吧 close a request
  // (帮我买两杯呗), whose verb is its own.
  const std::string_view closing = trim_end(frag);
  bool predicate = a_not_a(frag) || closing.ends_with("不") || closing.ends_with("没") ||
                   closing.ends_with("呗") || closing.ends_with("吧") ||
                   (ascii_text(frag) && asks_in_english(frag));
  for (const CueHit& h : t.q.hits)
    predicate = predicate || (h.list == ids.question_word && h.begin >= frag_at &&
                              h.end <= frag_at + frag.size());
  // An elliptical fragment without its own predicate: in the previous question's place.
  // …了呢 asks about an event, not a thing: what happens if it occurs (超时了呢 → 访客车位超时了
  // 怎么办, 没满就走了呢). Without 呢 it reports an event (搞定了): not a question to complete.
  if (!predicate && !spans.empty() && asks_ne && frag.ends_with("了"))
    return {join(t.r.topic_anchor, frag) + std::string(kWhatToDo), "condition:event"};
  if (!predicate && !asks_ne && frag.ends_with("了") && !question_like(t.text, t.q, ids))
    return {std::string(t.question), "event_report"};
  if (!predicate)
    if (auto when = time_step(t, frag)) return std::move(*when);
  // …with one run of content words (a clause of several runs has a frame of its own). A word
  // that only says what comes next (后来呢, 然后呢) takes no place of the previous question's.
  bool next_only = false;
  for (const CueHit& h : t.q.hits)
    next_only = next_only || (h.list == ids.sequence_marker && h.begin <= frag_at &&
                              h.end >= frag_at + trim_end(frag).size());
  // A turn opening with its own subject (我还没看, 我也想学) is a clause, not a fragment: nothing of
  // it goes into the previous question's place. With 呢 it asks "what about" (你妈呢, 那你们隔壁呢).
  const RewriteConfig& rw = t.lex.config().rewrite;
  const bool own_subject = !asks_ne && (after_speaker(frag, t.reader).has_value() ||
                                        opening_word(frag, rw.addressee_words, t.reader) > 0);
  if (!predicate && asks_ne)
    if (auto pair = pair_in_place(t, frag, spans)) return std::move(*pair);
  if (!predicate && !own_subject && spans.size() == 1)
    if (auto asked = case_of_asked(t, frag)) return std::move(*asked);
  if (!predicate && !next_only && !own_subject && !spans.empty() &&
      (spans.size() == 1 || ascii_text(frag) || counted_case(frag))) {
    Placed p = fragment_in_place(t.h.prev, t.h.prev_text, *t.h.topic(), frag, spans, t.reader, asks_ne);
    if (p.no_place)
      return {GarbleCheck(sources, t.words).fallback(), p.how, "rewrite:fallback:no_place"};
    return {std::move(p.text), p.how};
  }
  if (t.h.subject_unknown) return {std::string(t.question), "no_antecedent:pronoun_subject"};
  // A bare predicate (怎么申请呢, 多少钱, 好看吗): the topic in front, unless it is there.
  // After a statement (合同已经盖完章签好了 + 接下来还要做什么) the whole statement is the frame the
  // question continues.
  if (std::string_view(t.question).find(t.r.topic_anchor) != std::string_view::npos)
    return {std::string(t.question), "has_topic"};
  // A turn that names the thing the topic opens with (学校 of 学校的历史 in 哪些学校是…创办的) asks
  // about that thing itself: the topic glued in front would name it twice.
  if (names_topic_head(t, frag)) return {std::string(t.question), "has_topic:head"};
  if (auto english = english_predicate(t, frag)) return std::move(*english);
  if (auto own = owned_answer(t)) return {join(*own, frag), "answer_owned"};
  if (auto place = destination(t, frag)) return {join(*place, frag), "answer_place"};
  // After a short answer to a question word's question (你最近在看啥剧 + 繁花 + 好看不) the answer
  // is what the predicate asks about, not the question's topic.
  // A value (九点, 三千五, 下个月底) answers how much or when: no topic.
  // A comparison (比农行高吗 after 目前是1.75%) compares the question's topic, not the answer's.
  if (t.h.prev_is_question && t.h.prev_at == 1 && !bare_why(frag) && !opens_comparison(frag))
    if (auto thing = answered_thing(t.h.window.front(), t.h.prev, t.reader);
        thing && t.question.find(*thing) == std::string_view::npos && count_end(*thing, 0) == 0 &&
        !opens_with_time_word(*thing))
      return {join(*thing, frag), "answer_topic"};
  // After the user's own statement (我最近在玩艾尔登法环 + 难吗) the predicate asks about what it
  // said the user does: its object, not its frame. A predicate that asks who, where or what
  // (最近在听晴天 + 谁唱的) asks about the thing, not the activity (学吉他 + 难不难).
  if (t.h.newest_stated())
    if (auto object = spoken_object(t.h.window.front(), t.reader,
                                    /*with_verb=*/!asks_wh(t.q, t.text, t.lex.ids()),
                                    /*implied=*/!t.h.prev_is_question))
      return {join_role(*object, frag, true), "statement_object"};
  if (!t.h.prev_is_question) return after_statement(t, frag);
  if (auto had = had_thing(t)) return {join(*had, frag), "topic_prefix:had"};
  if (auto yes = confirmed_thing(t, frag)) return {join(*yes, frag), "topic_prefix:confirmed"};
  if (auto able = able_activity(t)) return {join(*able, frag), "topic_prefix:able"};
  // A previous question read through its history (resolve_bare_prev) carried its topic alone.
  if (auto subject = t.h.resolved ? std::nullopt
                                  : carried_subject(t.h.prev_text, t.h.prev_spans, t.h.subject_end, frag, t.reader))
    return {join(*subject, frag), "topic_prefix:predicate"};
  if (auto act = asks_ne ? std::nullopt : asked_activity(t, frag))
    return {join(*act, frag), "topic_prefix:activity"};
  if (auto headed = head_after_de(frag, t.r.topic_anchor, t.reader))
    return {std::move(*headed), "topic_after_de"};
  if (auto placed = object_after_verb(t.h.window, t.r.topic_anchor, frag, t.reader))
    return {std::move(*placed), "object_after_verb"};
  if (asked_clause(t, t.r.topic_anchor))
    return {t.r.topic_anchor + " " + std::string(t.text), "topic_prefix", "rewrite:fallback:clause"};
  if (const std::size_t n = shared_tail(t.r.topic_anchor, frag))
    return {t.r.topic_anchor + std::string(frag.substr(n)), "topic_prefix:tail"};
  if (auto thing = procured_thing(t, frag)) return {join(*thing, frag), "topic_prefix:procured"};
  if (auto limit = named_limit(t, frag))
    return {join_role(t.r.topic_anchor, *limit, false), "topic_prefix:limit"};
  return {join_role(t.r.topic_anchor, with_manner(frag, t.h.prev_text), false), "topic_prefix"};
}

// 还有 saying that there still is something, which the turn asks about (还有啥办法, 还有哪些词不能用,
// 还有其他问题吗), not opening a parallel item (还有上海呢): a question word or a word for "other"
// follows it. The predicate of the turn, kept.
bool there_still_is(const TurnView& t, const CueHit& marker) {
  if (slice(t.text, marker.begin, marker.end) != "还有") return false;
  const std::string_view rest = trim_start(t.text.substr(marker.end));
  const auto at = static_cast<std::uint32_t>(t.text.size() - rest.size());
  const std::uint32_t asks = t.lex.ids().question_word;
  if (std::any_of(t.q.hits.begin(), t.q.hits.end(),
                  [&](const CueHit& h) { return h.list == asks && h.begin == at; }))
    return true;
  const std::vector<Token> w = words_of(rest);
  return !w.empty() && other_word(w.front().text(rest));
}

// Whether `out` opens with a topic that is a lone verb of the previous question — one taking an
// aspect particle, 嘛 or a question word for its object (干|嘛, 买|了, 听|谁的歌) — which the turn
// does not open with: the word break left the verb where the thing was asked about, and spliced
// in front it garbles the turn (干讲的啥, 买能看pdf吗). Neither that nor the anchor with the turn
// is a safe form: the turn stays as it is. A lone noun (猫|是什么品种) is spliced as any topic.
bool spliced_verb(std::string_view out, const TurnView& t) {
  const std::string_view anchor = t.r.topic_anchor;
  std::size_t i = 0;
  const std::int32_t cp = anchor.empty() ? -1 : next_code_point(anchor, i);
  if (i != anchor.size() || cp < 0 || !is_han(cp) || !out.starts_with(anchor) ||
      t.text.starts_with(anchor) || !t.h.topic())
    return false;
  const std::uint32_t begin = t.h.topic()->begin;
  if (t.h.prev.substr(begin, anchor.size()) != anchor) return false;  // a request's anchor
  const auto end = static_cast<std::uint32_t>(begin + anchor.size());
  const std::string_view next = t.h.prev.substr(end);
  for (std::string_view p : {"了", "过", "着", "嘛"})
    if (next.starts_with(p)) return true;
  const std::uint32_t asks = t.lex.ids().question_word;
  return std::any_of(t.h.prev_scan.hits.begin(), t.h.prev_scan.hits.end(),
                     [&](const CueHit& h) { return h.list == asks && h.begin == end; });
}

// The fragment without its ellipsis markers (那…呢, what about …); `asks_ne` when it ended in 呢,
// the only pure ellipsis particle (吗 asks: 好看吗; 么 ends 什么 / 为什么).
std::string_view fragment_of(const TurnView& t, bool& asks_ne) {
  std::string_view frag = t.text;
  if (const auto m = first_hit(t.q, t.lex.ids().ellipsis_marker);
      m && m->begin == 0 && !there_still_is(t, *m))
    frag = trim_start(frag.substr(m->end));
  asks_ne = frag.ends_with("呢");
  if (asks_ne) frag = trim_end(frag.substr(0, frag.size() - 3));
  // 换货的话呢: 的话 marks the case put, it is no part of it (换货 parallels 退货).
  constexpr std::string_view kCase = "的话";
  if (asks_ne && frag.ends_with(kCase) && frag.size() > kCase.size())
    frag = trim_end(frag.substr(0, frag.size() - kCase.size()));
  return frag;
}

// The rewrite of a turn without social words around it: the first step that applies, checked.
}  // namespace

Rewrite rewriting::rewrite_turn(std::string_view question, const std::vector<std::string>& history,
                                const Lexicon& lex, const WordSet& words, const ScannedQuery* scanned) {
  const RewriteConfig& cfg = lex.config().rewrite;
  Rewrite r;
  r.query = std::string(question);
  r.by = "builtin";
  if (history.empty()) {
    r.reasons.push_back("no_history");
    return r;
  }
  const PhraseReader reader(lex, words);
  const HistoryView h = read_history(history, lex, reader, words, cfg.window_turns);
  if (h.topic()) r.topic_anchor = std::string(slice(h.prev, h.topic()->begin, h.subject_end));
  // After a request the topic is what it asked for (显示所有部门 → 部门), not its first words.
  if (h.request && count_code_points(*h.request) >= 2) r.topic_anchor = std::string(*h.request);
  r.history_summary = history_summary(question, history, r.topic_anchor);
  std::optional<ScannedQuery> own;
  const ScannedQuery& q = scanned && scanned->query.text == question
                              ? *scanned
                              : own.emplace(lex.scan(NormalizedQuery{std::string(question), 0}));
  const TurnView t{question, q, trim_end(question), h, r, reader, lex, words};
  // Every rewrite passes the garble check (rewrite_check.hpp) or falls back to the anchor and
  // the turn — or, should that fail too, to the turn alone.
  const RewriteSources sources{trim_end(q.content()), h.window, r.topic_anchor, cfg.max_growth};
  auto done = [&](Step step) {
    if (step.note) r.reasons.push_back(step.note);
    r.reasons.push_back(step.reason);
    std::string out = std::move(step.text);
    if (out != question && spliced_verb(out, t)) {
      r.reasons.push_back("rewrite:fallback:verb_anchor:plain");
      out = std::string(question);
    }
    if (out != question) {
      const GarbleCheck check(sources, words);
      if (std::string why = check.reason(out); !why.empty()) {
        out = check.fallback();
        if (!check.reason(out).empty()) {
          out = std::string(question);
          why += ":plain";
        }
        r.reasons.push_back("rewrite:fallback:" + why);
      }
    }
    r.query = std::move(out);
    r.rewritten = r.query != question;
    return r;
  };
  if (auto s = list_step(t)) return done(std::move(*s));
  if (auto s = exceeded_part_step(t)) return done(std::move(*s));
  if (auto s = pronoun_step(t)) return done(std::move(*s));
  if (auto s = pointed_noun_step(t)) return done(std::move(*s));
  if (!h.topic()) return done({std::string(question), "no_antecedent"});
  if (auto s = subset_step(t)) return done(std::move(*s));
  if (auto s = request_step(t)) return done(std::move(*s));
  bool asks_ne = false;
  const std::string_view frag = fragment_of(t, asks_ne);
  if (auto s = asked_back_step(t, frag, asks_ne)) return done(std::move(*s));
  if (auto s = statement_reply_step(t, frag)) return done(std::move(*s));
  if (auto s = answer_step(t, frag, asks_ne)) return done(std::move(*s));
  if (auto s = sequence_step(t, frag, sources)) return done(std::move(*s));
  if (auto s = next_after_answer_step(t, frag)) return done(std::move(*s));
  if (auto s = elaboration_step(t, frag)) return done(std::move(*s));
  if (auto s = why_of_yes_no_step(t, frag)) return done(std::move(*s));
  if (auto s = more_of_step(t)) return done(std::move(*s));
  if (auto s = examples_step(t)) return done(std::move(*s));
  if (auto s = verb_object_step(t, frag)) return done(std::move(*s));
  if (auto s = also_step(t)) return done(std::move(*s));
  if (auto s = condition_step(t)) return done(std::move(*s));
  if (auto s = de_hua_step(t)) return done(std::move(*s));
  if (auto s = comparison_step(t, frag)) return done(std::move(*s));
  if (auto s = about_clause_step(t)) return done(std::move(*s));
  if (auto s = which_step(t)) return done(std::move(*s));
  return done(fragment_step(t, frag, asks_ne, sources));
}

namespace {

// The turn without greetings, thanks, goodbyes and acknowledgements at its edges (谢谢，那年假呢
// → 那年假呢). Politeness stays: `can i` still frames the question.
std::string_view without_social_edges(std::string_view text, const ScannedQuery& q, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  auto [b, e] =
      trim_edges(q, {ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement},
                 {ids.greeting, ids.acknowledgement});
  // 可以 glued to a verb is the modal, not "OK" (可以开专票吗): it stays.
  constexpr std::string_view kMay = "可以";
  if (text.substr(0, b).ends_with(kMay)) b -= static_cast<std::uint32_t>(kMay.size());
  // Nothing but a question particle after them: the words were the question (收到了吗).
  if (b < e) {
    const std::string_view rest = core_text(text.substr(b, e - b));
    if (rest == "吗") return text;
  }
  return b < e ? text.substr(b, e - b) : text;
}

// The turn without a discourse opener and its comma (对了，他们能上夜班吗 → 他们能上夜班吗).
std::string_view without_opener(std::string_view text, const Lexicon& lex) {
  return text.substr(discourse_opener_end(text, lex));
}

}  // namespace

// The social words around a follow-up (谢谢，那年假呢; 好的，那病假呢，谢谢) and a discourse opener
// (对了，…) are no part of what it asks: the turn without them is rewritten, so they never land
// inside the rewrite.
Rewrite rewrite_follow_up(std::string_view question, const std::vector<std::string>& history,
                          const Lexicon& lex, const WordSet& words) {
  // One scan of the turn: for its social edges and, when it has none, for the rewrite.
  const ScannedQuery q = lex.scan(NormalizedQuery{std::string(question), 0});
  const std::string_view content = without_opener(without_social_edges(question, q, lex), lex);
  if (content.empty() || content.size() == question.size() || history.empty())
    return rewrite_turn(question, history, lex, words, &q);
  Rewrite r = rewrite_turn(content, history, lex, words);
  if (!r.rewritten) r.query = std::string(question);
  r.rewritten = r.query != question;
  r.history_summary = history_summary(question, history, r.topic_anchor);
  return r;
}

}  // namespace qaplan::internal
