#include "planning/analysis/span_cuts.hpp"

#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/word_final.hpp"

namespace qaplan::internal {

std::size_t SpanCuts::outside(std::size_t i) const {
  if (with_result(i)) return 2;  // the verb and its result
  if (const std::size_t n = how_it_is(i)) return n;
  return fn_[i] || verb(i) || predicate(i) ? 1 : 0;
}

// Spaces between two ASCII content words do not end a run (navicat premium, parental leave
// policy): in Chinese text a space only ever stands between ASCII words.
bool SpanCuts::space_inside(std::size_t i) const {
  if (t_[i].word || i == 0 || i + 1 >= t_.size()) return false;
  for (char c : word(i))
    if (c != ' ') return false;
  return t_[i - 1].ascii && !fn_[i - 1] && t_[i + 1].ascii && !fn_[i + 1];
}

bool SpanCuts::single(std::size_t i) const { return i < t_.size() && !fn_[i] && t_[i].single_han; }

bool SpanCuts::verb(std::size_t i) const {
  if (!single(i) || i + 1 >= t_.size()) return false;
  // A derivational suffix glued to the word before it (私有|化|部署, 一次|性) makes a word with
  // it, it governs nothing.
  if (i > 0 && !fn_[i - 1] && t_[i - 1].end == t_[i].begin && !t_[i - 1].single_han && suffix(word(i)))
    return false;
  // So does a character that ends words (word_final.hpp) between two Han words of two or more
  // characters (运动|员|参与, 国家|队|实力, 世界|杯|决赛): the head of a compound ICU did not hold.
  if (compound_between(i) && word_final(word(i))) return false;
  // A verb opening the text opens an activity that is its topic (转|专业有什么条件, 换|工位要
  // 多久): the verb stays in the phrase. Not 叫 (is called), which opens an answer giving a
  // name (叫|橘子, 叫|费控|通): the name is the thing.
  if (word(i) == "叫" && !fn_[i + 1]) return true;
  if (std::none_of(t_.begin(), t_.begin() + static_cast<std::ptrdiff_t>(i),
                   [](const Token& t) { return t.word; }))
    return false;
  const std::string_view next = word(i + 1);
  // A lone character after a word of two or more and right before 谁 / 什么 takes it as its
  // object (门禁系统|归|谁管, 发票|开|什么抬头): a verb, no part of the thing. Not before 谁来,
  // whose 谁 is the next clause's subject (动火|作业|票|谁来签发).
  const bool subject_who = next == "谁" && i + 2 < t_.size() && word(i + 2) == "来";
  if ((next == "谁" || next == "什么") && !subject_who && i > 0 && !fn_[i - 1] && !t_[i - 1].single_han)
    return true;
  const bool aspect = next == "了" || next == "过" || next == "着";
  // A name does not take an aspect particle: 郑钦文|拿|了 ends the name before 拿.
  if (aspect && i > 0 && single(i - 1)) return true;
  if ((i > 0 && single(i - 1)) || single(i + 1)) return false;
  return !fn_[i + 1] || aspect;
}

// Token i sits between two Han content words of two or more characters, touching both.
bool SpanCuts::compound_between(std::size_t i) const {
  auto han_word = [&](std::size_t k) {
    return !fn_[k] && t_[k].word && !t_[k].ascii && !t_[k].single_han;
  };
  return i > 0 && i + 1 < t_.size() && han_word(i - 1) && han_word(i + 1) &&
         t_[i - 1].end == t_[i].begin && t_[i].end == t_[i + 1].begin;
}

bool SpanCuts::asks(std::size_t i) const {
  return i < t_.size() && std::any_of(questions_.begin(), questions_.end(),
                                      [&](const CueHit& h) { return h.begin == t_[i].begin; });
}

// A word before a question word that determines a noun (覆盖|哪些|人, 包括|什么|内容) is the verb
// taking that noun: what the question asks the topic does, not part of the topic.
bool SpanCuts::before_determiner(std::size_t i) const {
  if (i + 2 >= t_.size() || fn_[i + 2] || !t_[i + 2].word) return false;
  const std::string_view q = word(i + 1);
  // ICU may keep the classifier with 多少 (包含|多少个|席位).
  return q == "哪些" || q == "什么" || q == "哪个" || q == "哪种" || q == "几个" || q.starts_with("多少");
}

// A verb ICU kept with its aspect particle (花了, 看过, 坏了) or its result (看完, 删掉) and a
// superlative (最多, 最长) are predicates: what the question says about its topic, never part of
// it. So is 要 glued to a verb right before the question word (抬头|要写|什么, 出差|要带|什么):
// what the question asks one must do (会议|什么时候 keeps its noun: only 要). 每人 / 每天 right
// before the question word (经费|每人|多少) is the unit the question counts in, and 好吃 / 难学
// closing the question (烤鸭好吃吗) says how the topic is, as 一样 / 不同 closing it (报销和借款流程
// 一样吗) say how two things compare.
bool SpanCuts::predicate(std::size_t i) const {
  if (fn_[i] || t_[i].ascii || !t_[i].word) return false;
  const std::string_view w = word(i);
  if (count_code_points(w) != 2) return false;
  if (i > 0 && !fn_[i - 1] && before_determiner(i)) return true;
  const std::string_view last = last_code_point(w);
  const std::string_view after = i + 1 < t_.size() ? word(i + 1) : "";
  const bool closes = after.empty() || after == "吗" || after == "不" || after == "吧" || after == "呢";
  // A word taking an aspect particle that goes on to its object or to a question (参加|过|哪些,
  // 经营|了|多少年) is the verb. Not when a closing particle follows (驾照|了|吗: the event, its
  // noun) nor 过|了, where 过 is the verb itself (试用期|过|了).
  const std::string_view next = i + 2 < t_.size() ? word(i + 2) : "";
  const bool aspect = (after == "了" || after == "着" || after == "过") && !next.empty() &&
                      t_[i + 2].word && next != "了" && next != "吗" && next != "呢" && next != "吧" &&
                      (asks(i + 2) || !fn_[i + 2]);
  // A word right before 谁 closing the question takes it as its object (纪念|谁, 联系|谁); not
  // before a verb after 谁 (谁来签发, 工资|谁|发), whose 谁 is that verb's subject — unless the word
  // is a verb that hands on to a second one (联系|谁|审批, 邀请|谁|参加: a closed class).
  bool pivot = false;
  for (std::string_view v : {"联系", "邀请", "通知", "安排", "委托", "指派", "请示", "找到"})
    pivot = pivot || w == v;
  const bool whom = after == "谁" && (pivot || next.empty() || fn_[i + 2] || !t_[i + 2].word);
  return aspect || whom || w.starts_with("最") || last == "了" || last == "过" || last == "着" || last == "完" ||
         last == "掉" || (w.starts_with("要") && asks(i + 1)) ||
         (w.starts_with("每") && (asks(i + 1) || fn_[i + 1])) ||
         ((w.starts_with("好") || w.starts_with("难")) && closes) ||
         (closes && (w == "一样" || w == "相同" || w == "不同" || w == "类似"));
}

// A lone verb with its lone result and 了 (填|错|了, 用|完|了, 删|掉|了): ICU knows neither
// compound, and the verb would otherwise end the noun before it (报销单填错了 → 报销单).
bool SpanCuts::with_result(std::size_t i) const {
  if (!single(i) || i + 2 >= t_.size() || !t_[i + 1].single_han || word(i + 2) != "了" || i == 0 ||
      !t_[i - 1].word)
    return false;
  const std::string_view r = word(i + 1);
  return r == "错" || r == "完" || r == "掉" || r == "反";
}

// How the thing is, closing the question, in characters ICU left alone: 好|养|吗, 难|学|吗 (as 好吃
// is one word) is the predicate, no part of the topic. How many tokens it takes (0: none).
std::size_t SpanCuts::how_it_is(std::size_t i) const {
  if (!t_[i].single_han || i == 0 || !t_[i - 1].word || i + 1 >= t_.size() || !t_[i + 1].single_han ||
      fn_[i + 1])
    return 0;
  const std::string_view w = word(i);
  const std::string_view c = i + 2 < t_.size() ? word(i + 2) : "";
  const bool closing = c.empty() || c == "吗" || c == "吧" || c == "呢" || c == "不" || c == "啊" ||
                       !t_[i + 2].word;
  return (w == "好" || w == "难") && closing ? 2 : 0;
}

}  // namespace qaplan::internal
