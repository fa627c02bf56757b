#include "planning/analysis/beside_topic.hpp"

// Fragments that sit beside the topic rather than in its place: where it is used (手机上, 在家), a
// case of it counted or ranked (超过百万, 第二次续签) and a version of it (手机版). docs/rewrite.md.
#include <algorithm>

#include "common/utf8.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

// Where something is done, said as a place with its localizer (手机上, 系统里) or after 在 (在家):
// an adjunct, not a thing that parallels the topic. Not a time (晚上), an amount's bound (以上) or
// anything with digits (5000以上 is a case of an amount).
bool place_adjunct(std::string_view frag) {
  if (frag.empty() || temporal(frag) || std::any_of(frag.begin(), frag.end(), [](char c) {
        return c >= '0' && c <= '9';
      }))
    return false;
  for (std::string_view bound : {"以上", "以下", "以内", "之内", "之外", "之上", "之下"})
    if (frag.ends_with(bound)) return false;
  const std::vector<Token> w = words_of(frag);
  // One word of 在 and a place (在家, 在校): an adjunct all the same — not a status (在职, 在编).
  if (w.size() == 1) return frag == "在家" || frag == "在校";
  if (w.size() < 2) return false;
  // 在 before a word of its own (在|公司, 在|手机|上); not before a lone character, which may be
  // a word ICU cut (在|线|课程: online).
  if (w[0].text(frag) == "在") return !w[1].single_han;
  // 上 / 里 after a noun (手机|上, 系统|里); not 中, which ends names (台中, 高中), nor a pointer
  // (这里, 哪里).
  if (!w.back().single_han || w[w.size() - 2].single_han) return false;
  const std::string_view last = w.back().text(frag);
  return (last == "上" || last == "里") && !temporal(frag.substr(0, w.back().begin));
}

// Where the previous question says 在 + a place (在北京|怎么办理): [begin, end) of 在, the place's
// word and a localizer after it; not 在哪 (where), which asks.
std::optional<std::pair<std::size_t, std::size_t>> at_place(std::string_view prev_text) {
  constexpr std::string_view kAt = "在";
  // 在 as a word of its own (现在, 正在, 存在 are other words).
  std::size_t at = std::string_view::npos;
  for (const Token& k : words_of(prev_text))
    if (k.text(prev_text) == kAt) {
      at = k.begin;
      break;
    }
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view after = prev_text.substr(at + kAt.size());
  if (after.starts_with("哪")) return std::nullopt;
  const std::vector<Token> w = words_of(after);
  if (w.empty() || !w[0].word) return std::nullopt;
  std::size_t end = w[0].end;
  if (w.size() > 1 && w[1].begin == end && (w[1].text(after) == "上" || w[1].text(after) == "里"))
    end = w[1].end;
  return std::pair{at, at + kAt.size() + end};
}

// A place the previous question names with a localizer (系统|里, 电脑|上: a word of its own glued to
// a lone 上 / 里): [begin, end) of both, else nullopt.
std::optional<std::pair<std::size_t, std::size_t>> localized_place(std::string_view prev_text,
                                                                   const PhraseReader& reader) {
  const std::vector<Token> w = words_of(prev_text);
  for (std::size_t k = 0; k + 1 < w.size(); ++k) {
    const std::string_view x = w[k].text(prev_text), loc = w[k + 1].text(prev_text);
    if (w[k].word && !w[k].single_han && !reader.is_function(x) && !temporal(x) &&
        w[k + 1].begin == w[k].end && (loc == "上" || loc == "里"))
      return std::pair<std::size_t, std::size_t>{w[k].begin, w[k + 1].end};
  }
  return std::nullopt;
}

// Whether `x` is a count: digits, or Chinese numerals (百万, 两) with at most a unit after them
// (五天, 三次, 两年) — not a name that opens with one (四川, 三亚, 万达) nor 几 / 多少, which ask.
bool numeral(std::string_view x) {
  constexpr std::string_view kNumerals = "一二三四五六七八九十百千万两";
  constexpr std::string_view kUnits = "天年月周次个元块岁级层楼倍成遍件";
  std::size_t i = 0;
  bool any = false;
  while (i < x.size()) {
    const std::size_t b = i;
    const std::int32_t cp = next_code_point(x, i);
    const std::string_view c = x.substr(b, i - b);
    if ((cp >= '0' && cp <= '9') || (cp >= 0x80 && kNumerals.find(c) != std::string_view::npos)) {
      any = true;
      continue;
    }
    // A unit may close the count.
    return any && i == x.size() && cp >= 0x80 && kUnits.find(c) != std::string_view::npos;
  }
  return any;
}

}  // namespace

// Where the topic is used (公司邮箱怎么登录 + 手机上呢): the place goes after the topic, which it
// does not replace (公司邮箱手机上怎么登录); after a question that names a place with 在, a place
// with 在 takes its place (在北京怎么办理居住证 + 在上海呢). nullopt: the fragment is no place.
std::optional<std::string> placed_adjunct(std::string_view prev_text, const Span& topic,
                                          std::string_view frag, const PhraseReader& reader) {
  if (!place_adjunct(frag)) return std::nullopt;
  auto splice = [&](std::size_t b, std::size_t e) {
    return join(join(std::string(prev_text.substr(0, b)), frag), prev_text.substr(e));
  };
  // A place the question names takes the fragment in its place: 在北京… + 在上海呢, 系统里… + 手机上呢.
  const auto at = at_place(prev_text);
  const auto localized = localized_place(prev_text, reader);
  if (frag.starts_with("在") && at) return splice(at->first, at->second);
  if (!frag.starts_with("在") && localized) return splice(localized->first, localized->second);
  if (at || localized) return std::nullopt;  // a place of another shape: the steps after decide
  return splice(topic.end, topic.end);
}

// Whether a word of `text` is a count (超过两天).
bool holds_count(std::string_view text) {
  for (const Token& w : words_of(text))
    if (w.word && numeral(w.text(text))) return true;
  return false;
}

Negated negated_case(std::string_view prev_text, std::string_view frag) {
  const std::vector<Token> w = words_of(frag);
  if (w.empty()) return Negated::kNone;
  // The negation alone before its verb (不|满意, 没|发票), or glued to a one-character verb as the
  // whole fragment (不去); a longer word or one with more after it may be a noun (不锈钢, 不动|产,
  // 不良|贷款).
  const std::string_view first = w.front().text(frag);
  const bool alone =
      (first == "不" || first == "没" || first == "没有" || first == "未") && w.size() > 1;
  const bool glued = w.size() == 1 && count_code_points(first) == 2 &&
                     (first.starts_with("不") || first.starts_with("没"));
  if (!alone && !glued) return Negated::kNone;
  // The bare negation of the question's own 有 or 是 (有发票能报销吗 + 没有呢) negates its case: no
  // place for it short of rewriting that case.
  if (w.size() == 1 && (first == "没有" || first == "不是")) return Negated::kPredicate;
  const std::string_view asked = trim_end(prev_text);
  const bool yes_no = asked.ends_with("吗") || asked.ends_with("么") ||
                      asked.find("能不能") != std::string_view::npos ||
                      asked.find("可不可以") != std::string_view::npos;
  for (std::string_view may : {"能", "可以", "允许"})
    if (yes_no && asked.find(may) != std::string_view::npos)
      // A question opening with its modal names no topic to follow (能办居住证吗): the case
      // goes in front (没有社保能办居住证吗).
      return asked.starts_with(may) ? Negated::kCaseFirst : Negated::kCase;
  return Negated::kPredicate;
}

// A fragment of two words or more that counts or ranks (超过|百万, 第二次|续签, 连续|休|五天): a
// numeral in a word after its first, or 第 opening it — a count opening it names an item (三|楼,
// 两种).
bool counted_case(std::string_view frag) {
  // Short, and words only: a clause (瘦了三斤 你呢) or a modifier (最低的两个) is no such case, nor
  // a time (在2009年), a rank (前三名: the top of what was asked) or 一 of 一下 / 一点 alone.
  if (count_code_points(frag) > 6 || frag.find("的") != std::string_view::npos || temporal(frag) ||
      frag.starts_with("前") || frag.starts_with("后") || frag.starts_with("在"))
    return false;
  const std::vector<Token> w = words_of(frag);
  if (w.size() < 2 || w.size() > 3 ||
      std::any_of(w.begin(), w.end(), [](const Token& t) { return !t.word; }))
    return false;
  if (w[0].text(frag).starts_with("第")) return true;
  if (numeral(w[0].text(frag))) return false;
  return std::any_of(w.begin() + 1, w.end(), [&](const Token& t) {
    const std::string_view x = t.text(frag);
    return numeral(x) && !(x.starts_with("一") && !numeral(x.substr(std::string_view("一").size())));
  });
}

// A version of the topic (手机版, 英文版, 电子版) goes in front of it when the question opens with
// the topic and names no version (手机版公司信箱怎么设置); after one it parallels it (网页版 → 手机版:
// the parallel step).
std::optional<std::string> versioned(std::string_view prev_text, const Span& topic,
                                     std::string_view frag, const PhraseReader& reader) {
  if (!frag.ends_with("版") || count_code_points(frag) < 3 ||
      prev_text.find("版") != std::string_view::npos ||
      content_words(prev_text.substr(0, topic.begin), reader) != 0)
    return std::nullopt;
  return join(join(std::string(prev_text.substr(0, topic.begin)), frag),
              prev_text.substr(topic.begin));
}

}  // namespace qaplan::internal
