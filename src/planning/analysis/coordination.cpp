#include "planning/analysis/coordination.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

// The pronouns that stand for both items of a pair (俩 is 两个: 这俩, 它俩).
constexpr std::array<std::string_view, 8> kBoth = {"两者", "二者", "这两个", "这俩", "那俩",
                                                   "它俩", "他俩", "她俩"};
// Units of the calendar and the clock: 哪 before one asks when (哪天, 哪个月, 哪一年). 号 and 日
// begin nouns as often (号码, 日程), and 年 before 级 / 龄 / 纪 is no year (哪个年级).
constexpr std::array<std::string_view, 8> kTimeUnits = {"天", "周", "星期", "月", "季度", "年", "会儿",
                                                        "时候"};

bool is_coordinator(std::string_view w) {
  return w == "和" || w == "跟" || w == "与" || w == "及" || w == "以及" || w == "还是" ||
         w == "或" || w == "或者";
}

// 都能, 也要, 还得: a word that opens with one of these adverbs begins the predicate; so does a
// word that compares or distributes over the pair (一样吗, 各交, 分别是), one that asks (哪天坐诊,
// 哪个快, 什么时候) and one that places the pair (之间, 离我).
bool opens_predicate(std::string_view w) {
  for (std::string_view a : {"都", "也", "就", "又", "各", "哪"})
    if (w.size() > a.size() && w.starts_with(a)) return true;
  for (std::string_view a : {"各", "分别", "一样", "一致", "相同", "不同", "一起", "同时", "之间", "离",
                             "哪", "谁", "什么", "多少", "几", "怎么", "如何"})
    if (w == a) return true;
  return false;
}

// The speaker or the one addressed, maybe glued to a preposition (我在|盈川证券): no item.
bool speaker_or_addressee(std::string_view w) {
  return w.starts_with("我") || w.starts_with("你") || w.starts_with("您");
}

// A modal verb that takes only a verb phrase: the word right after one is the verb
// (可以|考虑|敦煌和青海湖), no part of the first conjunct. 要, 需要, 想, 会 and 得 take a noun as often
// (需要|身份证复印件和照片): they are left out.
bool is_modal(std::string_view w) {
  for (std::string_view m : {"能", "能够", "可以", "应该", "应当", "打算", "准备"})
    if (w == m) return true;
  return false;
}

// 去过, 用了, 看着 (or the particle alone, 去|过): a verb with its aspect particle ends the phrase
// before a conjunct.
bool verb_with_aspect(std::string_view w) {
  for (std::string_view a : {"过", "了", "着"})
    if (w.ends_with(a)) return true;
  return false;
}

// 两种, 两个, 几类 (or 两|种) after the pair counts its items: no part of the second.
bool counts_the_pair(const std::vector<Token>& t, std::size_t i, std::string_view text) {
  const std::string_view w = t[i].text(text);
  const bool count = w.starts_with("两") || w.starts_with("二") || w.starts_with("几");
  if (!count) return false;
  if (count_code_points(w) == 2) return classifier(w.substr(3));
  return w.size() == 3 && i + 1 < t.size() && classifier(t[i + 1].text(text));
}

// Lone characters ICU cut from words the two conjuncts parallel (内|网 和 外|网): when the second
// item (t[c+1..last]) ends in the first's last character, the first has as many characters as
// the second. Else t.size(): no say.
std::size_t parallel_first(const std::vector<Token>& t, std::size_t c, std::size_t last,
                           std::string_view text) {
  const std::string_view second = text.substr(t[c + 1].begin, t[last].end - t[c + 1].begin);
  const std::size_t n = count_code_points(second);
  if (n < 2 || n > 3 || !t[c - 1].single_han || !second.ends_with(t[c - 1].text(text))) return t.size();
  std::size_t k = c, chars = 0;
  while (k > 0 && t[k - 1].single_han && chars < n) {
    --k;
    ++chars;
  }
  return chars == n ? k : t.size();
}

// What may follow a count of the pair that stands for both (两个|有啥不一样, 两种|哪个好): a
// predicate, not a noun (两个人的, 两个以上).
bool opens_pair_predicate(std::string_view rest) {
  std::size_t i = 0;
  if (rest.empty() || !is_word_char(next_code_point(rest, i))) return true;
  for (std::string_view w : {"哪", "有", "都", "是", "差", "区别", "比", "谁", "一样", "分别", "各",
                             "能", "可以", "要", "需要", "什么", "怎么", "相比", "不同", "之间",
                             "的区别", "的差别", "中", "里", "选", "更", "啥", "去", "在", "到",
                             "多少", "几", "如何", "应该", "也", "还", "会", "必须"})
    if (rest.starts_with(w)) return true;
  return false;
}

// The clause's subject between the pair and its adverb (劳务派遣和劳务外包|公司|都在用吗, Teams和
// 腾讯会议|公司|都能用吗): 大家 / 咱们 always (我们 / 你们 are function words, never in an item);
// the company or the staff only when two words or more stay of the second item and the first
// item names no people or body — else the word is the item's head (总部和分|公司, 实习生和试用期|员工, 供应商和合作|单位).
bool subject_before_adverb(const std::vector<Token>& t, std::size_t c, std::size_t last,
                           std::string_view text) {
  if (last + 1 >= t.size() || !opens_predicate(t[last + 1].text(text))) return false;
  const std::string_view w = t[last].text(text);
  if (w == "大家" || w == "咱们") return true;
  if (w != "公司" && w != "单位" && w != "员工") return false;
  const std::string_view first = t[c - 1].text(text);
  for (std::string_view head : {"员", "工", "生", "者", "人", "层", "部", "司", "位", "商", "方"})
    if (first.ends_with(head)) return false;
  return last - (c + 1) >= 2 || (t[last - 1].ascii && t[last - 1].end == t[last].begin);
}

}  // namespace

std::optional<BothPronoun> both_pronoun_at(std::string_view turn) {
  // Every word for both holds 两, 二 or 俩: most turns hold none (asked of every which-question).
  if (turn.find("两") == turn.npos && turn.find("二") == turn.npos && turn.find("俩") == turn.npos)
    return std::nullopt;
  for (std::string_view both : kBoth)
    if (const std::size_t at = turn.find(both); at != std::string_view::npos)
      return BothPronoun{at, at + both.size(), at + both.size()};
  // 两个, 这两种, 那两家 opening the turn, maybe with one noun of the pair (两条|线): the two things
  // the history named.
  std::size_t at = 0;
  if (turn.starts_with("这") || turn.starts_with("那")) at = 3;
  if (turn.substr(at, 3) != "两" || !classifier(turn.substr(at + 3, 3))) return std::nullopt;
  const std::size_t count_end = at + 6;
  if (opens_pair_predicate(turn.substr(count_end))) return BothPronoun{0, count_end, count_end};
  std::size_t noun_end = count_end;
  if (!is_word_char(next_code_point(turn, noun_end))) return std::nullopt;
  // Two people or two spans of time are counted, not pointed at (两个人要多少钱, 两个月能休完吗).
  const std::string_view noun = turn.substr(count_end, noun_end - count_end);
  for (std::string_view counted : {"人", "天", "月", "年", "周", "次", "岁", "点", "分", "秒", "星",
                                   "小", "多", "以"})
    if (noun == counted) return std::nullopt;
  // With a demonstrative the count points at two things named before, whatever follows (这两家
  // 开户都送什么): the character after it may be their noun (这两个证) or open the predicate.
  if (!opens_pair_predicate(turn.substr(noun_end)) && at == 0) return std::nullopt;
  return BothPronoun{0, count_end, noun_end};
}

bool asks_which(std::string_view turn, bool times_too) {
  if (both_pronoun_at(turn)) return true;
  // 哪 asks "which" unless it is 哪里 / 哪儿 (where), or, when times do not count, 哪 before a
  // unit of the calendar or clock, after an optional 个 / 一 (哪天, 哪个月: when).
  for (std::size_t at = turn.find("哪"); at != std::string_view::npos; at = turn.find("哪", at + 3)) {
    const std::string_view next = turn.substr(at + 3, 3);
    if (next == "里" || next == "儿") continue;
    std::string_view unit = turn.substr(at + 3);
    if (unit.starts_with("个") || unit.starts_with("一")) unit.remove_prefix(3);
    const bool of_time = std::any_of(kTimeUnits.begin(), kTimeUnits.end(), [&](std::string_view u) {
      return unit.starts_with(u) && !(u == "年" && (unit.substr(u.size()).starts_with("级") ||
                                                    unit.substr(u.size()).starts_with("龄") ||
                                                    unit.substr(u.size()).starts_with("纪")));
    });
    if (!times_too && of_time) continue;
    return true;
  }
  return false;
}

namespace {

// A coordinator ICU glued to the first character of a name it does not know (大|宠爱|和博|来|恩:
// 和 and 博来恩) is split off: the glued word follows a content word and goes on into two or more
// lone characters, the rest of the name.
void split_glued_coordinator(std::vector<Token>& t, std::string_view text) {
  auto lone_at = [&](std::size_t k, std::uint32_t at) {
    return k < t.size() && t[k].single_han && t[k].begin == at;
  };
  for (std::size_t k = 1; k + 2 < t.size(); ++k) {
    const std::string_view w = t[k].text(text);
    const std::string_view head = w.substr(0, 3);
    if (w.size() != 6 || (head != "和" && head != "与" && head != "跟") || !t[k - 1].word ||
        t[k - 1].end != t[k].begin || !lone_at(k + 1, t[k].end) || !lone_at(k + 2, t[k + 1].end))
      continue;
    Token rest = t[k];
    rest.begin += 3;
    rest.single_han = true;
    t[k].end = rest.begin;
    t[k].single_han = true;
    t.insert(t.begin() + static_cast<std::ptrdiff_t>(k) + 1, rest);
    return;
  }
}

}  // namespace

std::optional<std::string> coordinated_pair(std::string_view text, const WordSet& function_words) {
  std::vector<Token> t = segment_words(text);
  split_glued_coordinator(t, text);
  auto content = [&](std::size_t i) {
    return t[i].word && !function_words.contains(t[i].text(text)) &&
           !is_coordinator(t[i].text(text));
  };
  for (std::size_t c = 1; c + 1 < t.size(); ++c) {
    const std::string_view conj = t[c].text(text);
    if (!is_coordinator(conj) || !content(c - 1) || !content(c + 1)) continue;
    // A lone character before a noun is a verb (选|温泉) unless the second conjunct opens with
    // one too: then both are modifiers (大|会议室跟小|会议室).
    const bool parallel_single = t[c + 1].single_han;
    // A lone character glued after a letter or digit (A座, 3号) names with it, governs nothing;
    // the letter is no article (a|座).
    auto after_code = [&](std::size_t k) {
      return k > 0 && t[k - 1].ascii && t[k - 1].end == t[k].begin;
    };
    // A lone character glued after another that opens their run is the rest of a two-character
    // word ICU cut (瓶|装|液化气, 纸|本|发票), no verb; a third one may be (团|建|选|温泉).
    auto glued_lone = [&](std::size_t k) {
      return k > 0 && t[k].single_han && t[k - 1].single_han && t[k - 1].end == t[k].begin;
    };
    auto opens_conjunct = [&](std::size_t k) {
      if (t[k].ascii && t[k].end == t[k + 1].begin && t[k + 1].single_han) return false;
      if (speaker_or_addressee(t[k].text(text))) return true;
      if (glued_lone(k) && !glued_lone(k - 1) && content(k - 1)) return false;
      return !content(k) || verb_with_aspect(t[k].text(text)) || (k > 0 && is_modal(t[k - 1].text(text))) ||
             (t[k].single_han && !parallel_single && !t[k + 1].single_han && !after_code(k));
    };
    std::size_t first = c - 1;
    while (first > 0 && !opens_conjunct(first - 1)) --first;
    // Items listed before with 、 (全飞秒、半飞秒和ICL) belong to it: the list is the set.
    while (first >= 2 && t[first - 1].text(text) == "、" && content(first - 2)) {
      first -= 2;
      while (first > 0 && !opens_conjunct(first - 1)) --first;
    }
    std::size_t last = c + 1;
    while (last + 1 < t.size() && content(last + 1) && !opens_predicate(t[last + 1].text(text)) &&
           !speaker_or_addressee(t[last + 1].text(text)) && !counts_the_pair(t, last + 1, text))
      ++last;
    // A lone character closing the question with 过 after a longer first item is a noun ICU cut
    // (警告或者记|过吗: 记过), not a verb and its aspect: the item is both characters. Not 了,
    // which closes a sentence as often (鸡蛋和鱼|了吗).
    if (last == c + 1 && t[last].single_han && !t[c - 1].single_han && last + 1 < t.size() &&
        t[last].end == t[last + 1].begin && t[last + 1].text(text) == "过" &&
        (last + 2 == t.size() || closing_particle(t[last + 2].text(text))))
      ++last;
    first = std::min(first, parallel_first(t, c, last, text));
    if (last > c + 1 && subject_before_adverb(t, c, last, text)) --last;
    // 的 inside the second conjunct (B1停车场和对面的平面停车场): the run after it ends in the
    // first conjunct's head, so the 的-phrase is the second item, not a modifier of both.
    if (last + 2 < t.size() && t[last + 1].text(text) == "的") {
      std::size_t e = last + 2;
      while (e + 1 < t.size() && content(e + 1) && !opens_predicate(t[e + 1].text(text))) ++e;
      if (content(last + 2) && t[e].text(text) == t[c - 1].text(text)) last = e;
    }
    if (opens_predicate(t[c + 1].text(text)) || verb_with_aspect(t[c - 1].text(text))) continue;
    // A lone first item glued to the word before it, against a longer second one (选手|动或自动,
    // 选单|间或双人间): ICU cut a word across the seam, and half of it is no item.
    if (first == c - 1 && t[first].single_han && first > 0 && t[first - 1].end == t[first].begin &&
        !t[first - 1].single_han && content(first - 1) && t[last].end - t[c + 1].begin > 3)
      continue;
    const bool plain = conj == "跟" || conj == "与";
    std::string out(text.substr(t[first].begin, t[c - 1].end - t[first].begin));
    out += plain ? conj : std::string_view("和");
    out += text.substr(t[c + 1].begin, t[last].end - t[c + 1].begin);
    return out;
  }
  return std::nullopt;
}

std::optional<std::string> offered_pair(std::string_view question) {
  std::string_view q = trim_end(question);
  for (std::string_view end : {"吗", "吧", "?", "？"})
    if (q.ends_with(end)) q.remove_suffix(end.size());
  for (std::string_view modal : {"可以", "能"}) {
    const std::size_t first = q.find(modal);
    const std::size_t again = q.find(std::string("也") + std::string(modal));
    if (first == std::string_view::npos || again == std::string_view::npos || again <= first)
      continue;
    std::string_view a = q.substr(first + modal.size(), again - first - modal.size());
    for (std::string_view comma : {",", "，"})
      if (a.ends_with(comma)) a.remove_suffix(comma.size());
    const std::string_view b = q.substr(again + 3 + modal.size());
    const std::size_t na = count_code_points(a), nb = count_code_points(b);
    // Two ways, each a verb with its object (坐班车, 对公转账): not a clause, not a question.
    if (na < 2 || nb < 2 || na > 8 || nb > 8) return std::nullopt;
    for (std::string_view w : {"什么", "怎么", "哪", "谁", "多少", "几", "吗", "呢", ","})
      if (a.find(w) != std::string_view::npos || b.find(w) != std::string_view::npos)
        return std::nullopt;
    std::string out(q.substr(0, first));
    out.append(a).append("和").append(b);
    return out;
  }
  return std::nullopt;
}

std::optional<std::string> shared_activity(std::string_view question, std::string_view pair,
                                           std::string_view turn, const WordSet& function_words) {
  const std::string_view asked = trim_end(question);
  // Only a question of which (哪个更快): 两者能合并吗 asks of the pair itself.
  if (!asked.ends_with("吗") || turn.find("哪") == std::string_view::npos) return std::nullopt;
  // Where the pair's second item ends in the question (the pair reads 或 / 还是 as 和).
  std::size_t cut = std::string_view::npos;
  for (std::string_view c : {"和", "跟", "与"})
    if (const std::size_t at = pair.rfind(c); at != std::string_view::npos && (cut == std::string_view::npos || at > cut))
      cut = at + c.size();
  if (cut == std::string_view::npos) return std::nullopt;
  const std::string_view second = pair.substr(cut);
  const std::size_t at = second.empty() ? std::string_view::npos : asked.find(second);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = asked.substr(at + second.size(), asked.size() - at - second.size() - 3);
  // 都能, 也可以, 都要: the adverb over the pair and the modal are no part of the activity.
  for (std::string_view a : {"都", "也"})
    if (rest.starts_with(a)) rest.remove_prefix(a.size());
  drop_modal(rest);
  // A verb with its object or its manner (开|住院证, 提前|支取): two content words, none an adverb
  // of the pair's doing (一起, 同时), and no character of it in the turn, which would say the
  // activity its own way (审合同 + 哪个审得快). A lone verb (签, 申请) is left out.
  // The question's words (segmented once per turn) inside the activity, offsets into `rest`.
  std::vector<Token> w;
  const auto from = static_cast<std::uint32_t>(rest.data() - asked.data());
  for (Token k : segment_words(asked))
    if (k.begin >= from && k.end <= from + rest.size()) {
      k.begin -= from;
      k.end -= from;
      w.push_back(k);
    }
  if (!w.empty() && counts_the_pair(w, 0, rest)) return std::nullopt;  // 两种: counts the items
  int content = 0;
  for (const Token& k : w) {
    if (k.text(rest) == "分开") return std::nullopt;  // 分开签: how both are done, as 一起
    if (!k.word || function_words.contains(k.text(rest)) || opens_predicate(k.text(rest))) return std::nullopt;
    ++content;
  }
  if (content < 2) return std::nullopt;
  for (std::size_t i = 0; i < rest.size();) {
    const std::size_t b = i;
    next_code_point(rest, i);
    if (turn.find(rest.substr(b, i - b)) != std::string_view::npos) return std::nullopt;
  }
  return std::string(rest);
}

namespace {

// The head noun of the noun phrase before byte `end` of `question`, in its clause: the last word of
// two or more characters of the span before it, or a run of lone characters ICU cut (工|位). One
// lone character right before the pair is the verb that governs it (选, 有) and is passed over; a
// second lone one may be the noun itself (公司的车可以选…): no head to be sure of.
std::optional<std::string_view> head_before(std::string_view question, std::size_t end,
                                            const PhraseReader& reader) {
  const std::string_view clause = last_clause(question.substr(0, end));
  const auto clause_at = static_cast<std::size_t>(clause.data() - question.data());
  const std::vector<Span> spans = reader.spans(question);
  bool verb_passed = false;
  for (std::size_t k = spans.size(); k-- > 0;) {
    if (spans[k].begin >= end) continue;
    // A span across the pair's start (选手|动 of 选手动或自动): the pair is no whole item.
    if (spans[k].end > end || spans[k].begin < clause_at) break;
    const std::string_view span = slice(question, spans[k].begin, spans[k].end);
    if (spans[k].name_like && count_code_points(span) <= 3) return span;
    const std::vector<Token> w = words_of(span);
    if (!w.empty() && count_code_points(w.back().text(span)) >= 2) return w.back().text(span);
    if (verb_passed || spans[k].end != end) break;
    verb_passed = true;
  }
  return std::nullopt;
}

// Whether a turn of the window says `item` with `head` (共享工位).
bool names_with_head(const std::vector<std::string_view>& window, std::string_view item,
                     std::string_view head) {
  const std::string whole = std::string(item) + std::string(head);
  return std::any_of(window.begin(), window.end(), [&](std::string_view turn) {
    return turn.find(whole) != std::string_view::npos;
  });
}

}  // namespace

std::optional<std::string> headed_kinds(std::string_view question, std::string_view pair,
                                        const std::vector<std::string_view>& window,
                                        const PhraseReader& reader) {
  const std::size_t and_at = pair.find("和");
  if (and_at == std::string_view::npos) return std::nullopt;
  const std::string_view a = pair.substr(0, and_at), b = pair.substr(and_at + 3);
  const std::size_t a_at = question.find(a);
  if (a.empty() || b.empty() || a_at == std::string_view::npos) return std::nullopt;
  const std::size_t b_at = question.find(b, a_at + a.size());
  // The items as the question wrote them, a coordinator between (a 和 inside an item, 温和派, is
  // no seam).
  if (b_at == std::string_view::npos || !is_coordinator(question.substr(a_at + a.size(),
                                                                        b_at - a_at - a.size())))
    return std::nullopt;
  const std::string_view after = question.substr(b_at + b.size());
  const std::string_view closing = trim_end(after.substr(std::min(after.size(), std::size_t{3})));
  const bool de = after.starts_with("的") &&
                  (closing.empty() || closing == "吗" || closing == "呢" || closing == "吧");
  const bool kinds = after.starts_with("两种") || after.starts_with("两类") || after.starts_with("两样");
  if (!de && !kinds) return std::nullopt;
  const auto head = head_before(question, a_at, reader);
  if (!head || a.ends_with(*head) || b.ends_with(*head)) return std::nullopt;
  // A count of kinds follows whole nouns as often (年假和调休两种): the head goes with the items only
  // when the conversation names one of them with it (共享工位).
  if (!de && !names_with_head(window, a, *head) && !names_with_head(window, b, *head))
    return std::nullopt;
  return std::string(a) + std::string(*head) + "和" + std::string(b) + std::string(*head);
}

std::string which_of_pair(std::string_view pair, std::string_view turn) {
  const auto at = both_pronoun_at(turn);
  // A noun after the count that the pair does not end in (两条|路 of A线和B线) leaves it standing.
  if (at && pair.ends_with(turn.substr(at->count_end, at->end - at->count_end))) {
    // The pair's own noun right after a word for both (这两个|证 of 作业证和登高作业证) goes with it.
    std::string_view rest = turn.substr(at->end);
    const std::string_view noun = last_code_point(pair);
    if (at->end == at->count_end && !noun.empty() && rest.starts_with(noun) &&
        !opens_pair_predicate(rest))
      rest.remove_prefix(noun.size());
    return std::string(turn.substr(0, at->begin)) + std::string(pair) + std::string(rest);
  }
  // A demonstrative count (这两家) whose next character is no noun of the pair: only the count is
  // replaced (盈川证券和华泰证券开户都送什么).
  if (at && at->count_end > 0 && (turn.starts_with("这") || turn.starts_with("那")) &&
      at->begin == 0 && at->count_end <= turn.size())
    return std::string(pair) + std::string(turn.substr(at->count_end));
  std::string out(pair);
  out += turn;
  return out;
}

std::span<const std::string_view> both_pronouns() { return kBoth; }

}  // namespace qaplan::internal
