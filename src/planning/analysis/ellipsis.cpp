#include "planning/analysis/ellipsis.hpp"

#include <algorithm>
#include <cctype>

#include "common/utf8.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/analysis/beside_topic.hpp"
#include "planning/analysis/direction.hpp"
#include "planning/analysis/english_slot.hpp"
#include "planning/analysis/kind_slot.hpp"
#include "planning/analysis/quantity.hpp"
#include "planning/analysis/topic_cut.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

// The byte end of the first `k` content words of text[begin, end), or nullopt when the range
// holds no more than k of them (replacing them all would drop the head) or a one-character word
// stands at the cut: ICU cuts a word it does not know into characters (版|年|付, 会议|室), and a
// cut beside one may fall inside that word. A run of two or more such characters opening the
// range before its one head word (安|卓|手机) is that unknown word: it counts as one. Before more
// words (二|线|城市|餐|补) the run may be a modifier of the next one only: no cut.
std::optional<std::size_t> leading_words_end(std::string_view text, std::size_t begin,
                                             std::size_t end, int k, const PhraseReader& reader) {
  std::vector<Token> w;
  for (const Token& t : words_of(text))
    if (t.begin >= begin && t.end <= end && t.word && !reader.is_function(t.text(text))) w.push_back(t);
  std::size_t run = 0;
  while (run < w.size() && w[run].single_han && (run == 0 || w[run - 1].end == w[run].begin)) ++run;
  if (run >= 2 && run + 1 == w.size() && w[run - 1].end == w[run].begin) {
    w[0].end = w[run - 1].end;
    w[0].single_han = false;
    w.erase(w.begin() + 1, w.begin() + static_cast<std::ptrdiff_t>(run));
  }
  if (static_cast<std::size_t>(k) >= w.size()) return std::nullopt;
  const Token& at = w[static_cast<std::size_t>(k)];
  if (at.single_han || (k > 0 && w[static_cast<std::size_t>(k) - 1].single_han)) return std::nullopt;
  return at.begin;
}

bool is_determiner(std::string_view w) {
  return w == "the" || w == "a" || w == "an" || w == "my" || w == "your" || w == "our" ||
         w == "his" || w == "her" || w == "their" || w == "its";
}

// Which of `p` are listed function words.
std::vector<bool> function_marks(std::string_view prev, const std::vector<Token>& p,
                                 const PhraseReader& reader) {
  std::vector<bool> fn(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) fn[k] = !p[k].word || reader.is_function(p[k].text(prev));
  return fn;
}

}  // namespace

// Where in `prev` the fragment's parallel item lies: the fragment's last word (its head) equals a
// word of `prev`, or both are two or more characters ending in the same character (早餐 / 午餐);
// the item is as many words as the fragment, ending at that word, within one run of content words.
std::optional<std::pair<std::size_t, std::size_t>> parallel_item(std::string_view prev,
                                                                 std::string_view frag,
                                                                 const PhraseReader& reader) {
  std::vector<Token> f;
  for (const Token& t : words_of(frag))
    if (t.word) f.push_back(t);
  if (f.empty()) return std::nullopt;
  std::string_view head = f.back().text(frag);
  // ICU splits a compound it does not know alone into single characters (二类 → 二|类, while
  // 一类城市 keeps 一类): a trailing run of one-character words is one head.
  if (f.back().single_han) {
    std::size_t k = f.size() - 1;
    while (k > 0 && f[k - 1].single_han && f[k - 1].end == f[k].begin) --k;
    if (k + 1 < f.size()) {
      head = frag.substr(f[k].begin, f.back().end - f[k].begin);
      f.resize(k + 1);  // the run counts as one word of the fragment
    }
  }
  if (reader.is_function(head)) return std::nullopt;
  // A lone head character after a word of the fragment (财务|章) heads their compound: 财务章
  // parallels 专用章 as a whole, not 章 alone.
  std::string_view compound = head;
  if (f.size() >= 2 && f.back().single_han && f[f.size() - 2].end == f.back().begin &&
      !reader.is_function(f[f.size() - 2].text(frag)))
    compound = frag.substr(f[f.size() - 2].begin, f.back().end - f[f.size() - 2].begin);
  const std::vector<Token> p = words_of(prev);
  // Whole words first; a compound of a word and its lone head (below) only when no word matches.
  for (const bool compounds : {false, true})
  for (std::size_t i = p.size(); i-- > 0;) {
    std::string_view w = p[i].text(prev);
    if (!p[i].word || reader.is_function(w)) continue;
    // The history's word may be cut the same way (邮箱|账|号 beside VPN|账|号): its trailing run of
    // one-character words is one word when the fragment's head is that run.
    std::size_t word_begin = i;
    // So may a parallel of it (按|月|付 beside 年|付): runs ending in the same character.
    if (p[i].single_han && w != head) {
      std::size_t run = i;
      while (run > 0 && p[run - 1].single_han && p[run - 1].end == p[run].begin &&
             !reader.is_function(p[run - 1].text(prev)))  // 店|的|大|床|房: 的 ends the run
        --run;
      const std::string_view whole = prev.substr(p[run].begin, p[i].end - p[run].begin);
      if (run < i && (whole == head || (count_code_points(compound) >= 2 &&
                                        last_code_point(whole) == last_code_point(compound)))) {
        word_begin = run;
        w = whole;
      }
    }
    // Or a lone head character after the word it heads (高铁|票 beside 机票): the compound is the
    // parallel, not its modifier (else 机票 lands before 票: 机票票). Not inside a run of lone
    // characters (卡|丢|了), which the caller keeps whole.
    const bool run_goes_on = i + 1 < p.size() && p[i + 1].single_han && p[i + 1].begin == p[i].end;
    if (compounds && !run_goes_on && p[i].single_han && word_begin == i && i > 0 && p[i - 1].word &&
        !p[i - 1].single_han &&
        !p[i - 1].ascii && p[i - 1].end == p[i].begin && !reader.is_function(p[i - 1].text(prev)) &&
        count_code_points(compound) >= 2 && last_code_point(w) == last_code_point(compound)) {
      word_begin = i - 1;
      w = prev.substr(p[i - 1].begin, p[i].end - p[i - 1].begin);
    }
    const bool same = w == head;
    const bool same_last = !same && count_code_points(w) >= 2 && count_code_points(compound) >= 2 &&
                           !p[i].ascii && last_code_point(w) == last_code_point(compound);
    if (!same && !same_last) continue;
    // A shorter word of the same last character (酒店 beside 滨江店) only when no compound of
    // the fragment's length is found (西湖|店): parallels are built alike.
    if (!compounds && same_last && count_code_points(w) < count_code_points(compound)) continue;
    // A head that holds the history's word and more (竞业协议 over 保密|协议) stands for that
    // word and its modifier: the item is one word longer.
    const std::size_t extra = same_last && compound.size() > w.size() && compound.ends_with(w);
    std::size_t first = word_begin;
    // A letter glued to the word after it (a|类 of A类) is part of a code, not the article "a".
    auto content_before = [&](std::size_t at) {
      const Token& t = p[at - 1];
      return t.word && (!reader.is_function(t.text(prev)) || (t.ascii && t.end == p[at].begin));
    };
    for (std::size_t k = 1; k < f.size() + extra && first > 0; ++k) {
      if (!content_before(first)) break;
      --first;
    }
    // Never start inside a run of one-character words: that is a word ICU does not know (二|线
    // of 二线城市), and half of it left before the fragment is a garbled word.
    while (first > 0 && p[first].single_han && p[first - 1].single_han &&
           p[first - 1].end == p[first].begin && content_before(first))
      --first;
    // Nor after a function character that opens such a word (在|职|员工 beside 离职员工).
    if (first > 0 && opens_unknown_compound(prev, p, function_marks(prev, p, reader), first - 1))
      --first;
    // A determiner and its 个 before the item (这|个|月 beside 上个月) go with it when the fragment
    // has its own: else the fragment's lands after the history's (这个上个月).
    if (frag.find("个") != std::string_view::npos && first >= 1) {
      const std::string_view before = p[first - 1].text(prev);
      if (before == "个" && first >= 2 && p[first - 2].single_han && p[first - 2].end == p[first - 1].begin)
        first -= 2;
      else if (before.size() == 6 && before.ends_with("个") && p[first - 1].end == p[first].begin)
        first -= 1;  // ICU's 这个|月
    }
    const std::string_view item = prev.substr(p[first].begin, p[i].end - p[first].begin);
    if (item == frag) return std::nullopt;  // the same thing again: nothing parallel
    return std::pair{std::size_t{p[first].begin}, std::size_t{p[i].end}};
  }
  return std::nullopt;
}

// Whether two one-character words are opposites (大 / 小, 买 / 卖) — pairs of the language, not of
// a domain; a character may have several (收: 送, 发, 付).
bool opposites(std::string_view a, std::string_view b) {
  static constexpr std::pair<std::string_view, std::string_view> kPairs[] = {
      {"大", "小"}, {"长", "短"}, {"高", "低"}, {"新", "旧"}, {"新", "老"}, {"早", "晚"},
      {"前", "后"}, {"上", "下"}, {"男", "女"}, {"内", "外"}, {"快", "慢"}, {"多", "少"},
      {"冷", "热"}, {"正", "副"}, {"左", "右"}, {"远", "近"}, {"轻", "重"}, {"单", "双"},
      {"买", "卖"}, {"收", "送"}, {"收", "发"}, {"收", "付"}, {"借", "还"}, {"存", "取"},
      {"进", "出"}, {"入", "出"}, {"来", "去"}, {"开", "关"}, {"加", "减"}, {"升", "降"},
      {"涨", "跌"}, {"增", "减"}};
  return std::any_of(std::begin(kPairs), std::end(kPairs), [&](const auto& p) {
    return (a == p.first && b == p.second) || (a == p.second && b == p.first);
  });
}

// A one-character modifier whose opposite opens a word of the previous question swaps with it
// (怎么申请大会议室 + 小的呢 → 怎么申请小会议室): the contrast says which word it modifies.
std::optional<std::string> opposite_swapped(std::string_view prev, std::string_view item,
                                            const PhraseReader& reader) {
  if (count_code_points(item) != 1) return std::nullopt;
  const std::vector<Token> t = words_of(prev);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string_view w = t[i].text(prev);
    if (!t[i].word || w.size() < item.size() || !opposites(w.substr(0, item.size()), item) ||
        reader.is_function(w))
      continue;
    // The opposite alone is a modifier only right before a content word (大|会议室).
    if (w.size() == item.size() &&
        (i + 1 >= t.size() || !t[i + 1].word || t[i + 1].begin != t[i].end ||
         reader.is_function(t[i + 1].text(prev))))
      continue;
    return std::string(prev.substr(0, t[i].begin)) + std::string(item) +
           std::string(prev.substr(t[i].begin + item.size()));
  }
  return std::nullopt;
}

// A fragment that opens with the opposite of a one-character verb of the previous question and
// goes on with the start of that verb's object is the same act reversed: only the verb swaps
// (买房子要交什么税 + 卖房呢 → 卖房子…), or, when the fragment is one word of its own, it takes the
// place of verb and object so that word stays whole (收礼品的上限 + 送礼呢 → 送礼的上限). Spliced as
// a topic instead it would keep both verbs (收送礼).
std::optional<std::string> opposite_act(std::string_view prev, std::string_view frag,
                                        const PhraseReader& reader) {
  std::size_t i = 0;
  next_code_point(frag, i);
  const std::string_view verb = frag.substr(0, i), object = frag.substr(i);
  if (object.empty()) return std::nullopt;
  const std::vector<Token> t = words_of(prev);
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    const Token& v = t[k];
    const Token& o = t[k + 1];
    if (!v.single_han || o.begin != v.end || !o.word || reader.is_function(o.text(prev)) ||
        !opposites(v.text(prev), verb) || !o.text(prev).starts_with(object))
      continue;
    const bool one_word = words_of(frag).size() == 1;
    return join(join(std::string(prev.substr(0, v.begin)), one_word ? frag : verb),
                prev.substr(one_word ? o.end : v.end));
  }
  return std::nullopt;
}

// A yes-or-no question whether something is included (医保报销包括住院费吗, 这个软件支持Mac吗,
// 公摊面积包括电梯间吗): a parallel item asks of another inclusion — it takes the place of what the
// verb includes, up to the question's particle (包括门诊吗), not the topic's (门诊吗).
std::optional<std::string> included_item(std::string_view prev, std::string_view frag,
                                         const PhraseReader& reader) {
  const std::vector<Token> t = words_of(prev);
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    const std::string_view v = t[k].text(prev);
    if (v != "包括" && v != "包含" && v != "含" && v != "覆盖" && v != "支持") continue;
    std::size_t e = t.size();
    while (e > k + 1 && (!t[e - 1].word || t[e - 1].text(prev) == "吗" || t[e - 1].text(prev) == "么"))
      --e;
    if (e <= k + 1 || !t[e - 1].word || e == t.size() || reader.is_function(t[k + 1].text(prev)))
      return std::nullopt;  // no particle closes it: not a yes-or-no question of inclusion
    return join(join(std::string(prev.substr(0, t[k + 1].begin)), frag), prev.substr(t[e - 1].end));
  }
  return std::nullopt;
}

// The item is the same kind of thing as the whole modifier, not as its first word: both end in
// the same character (研究生 / 本科|生, where ICU cut the modifier's word) or both name people
// (经理 / 普通员工: [rewrite] person_heads).
bool same_kind(std::string_view modifier, std::string_view item, const PhraseReader& reader) {
  if (count_code_points(item) >= 2 && count_code_points(modifier) >= 2 &&
      last_code_point(item) == last_code_point(modifier))
    return true;
  const std::vector<Token> w = words_of(modifier);
  return !w.empty() && names_a_person(item, reader) &&
         names_a_person(w.back().text(modifier), reader);
}

// The lone Han characters glued after a longer Han word of the topic (加班|餐, 停车|卡): pieces
// of one compound ICU did not know, no words of their own. Not after digits or letters (1950|年,
// Colony|县: a name or a number and its unit).
int glued_pieces(std::string_view prev, const Span& topic, const std::vector<Token>& tokens,
                 const PhraseReader& reader) {
  auto han = [&](const Token& t) {  // no ASCII byte: no digit, no letter (1950年)
    const std::string_view w = t.text(prev);
    return std::all_of(w.begin(), w.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  };
  int n = 0;
  for (std::size_t i = 1; i < tokens.size(); ++i)
    n += tokens[i].begin >= topic.begin && tokens[i].end <= topic.end && tokens[i].single_han &&
         tokens[i - 1].word && !tokens[i - 1].single_han && han(tokens[i - 1]) &&
         tokens[i - 1].end == tokens[i].begin &&
         tokens[i - 1].begin >= topic.begin && !reader.is_function(tokens[i].text(prev));
  return n;
}

// A fragment ending in 的 names a modifier (海外的呢, B类的呢, 住宿的): it takes the place of the
// previous question's parallel item (境外A类 → B类) or of the topic's leading words (国内出差的餐补
// → 海外出差的餐补, 餐饮发票 → 住宿发票), or goes in front of a one-word topic (周末的加班费) —
// never takes the place of the head the question is about.
std::optional<std::pair<std::string, const char*>> modifier_substitute(std::string_view prev,
                                                                       const Span& topic,
                                                                       std::string_view frag,
                                                                       const PhraseReader& reader) {
  const std::string_view item = frag.substr(0, frag.size() - 3);
  if (item.empty()) return std::nullopt;
  auto splice = [&](std::size_t b, std::size_t e, std::string_view with) {
    return join(join(std::string(prev.substr(0, b)), with), prev.substr(e));
  };
  if (auto swapped = opposite_swapped(prev, item, reader))
    return std::pair{std::move(*swapped), "ellipsis:opposite"};
  // The history's own 的 after the item stays the only one (今年|的 + 去年的 → 去年的). Inside a
  // phrase the item takes its parallel's place as that one stood (境外A类住宿 + B类的 → 境外B类
  // 住宿); opening the topic, people or a body keep their 的 (研发中心年会 + 销售中心的 → 销售中心的
  // 年会) and a kind does not (打车票据 + 停车的 → 停车票据), unless a 的 of the history's follows
  // inside the phrase (在职员工劳动合同的保管期限 + 离职员工的: one 的 is enough); a 的 closing the
  // sentence (…是哪天举办的) is no modifier's.
  if (const auto at = parallel_item(prev, item, reader)) {
    const bool opens = at->first <= topic.begin;
    const std::size_t later = prev.find("的", at->second);
    const bool inner = later != std::string_view::npos && !trim_end(prev.substr(later + 3)).empty();
    const bool de = !prev.substr(at->second).starts_with("的") && !inner && opens &&
                    person_phrase(item, reader);
    return std::pair{splice(at->first, at->second, de ? frag : item), "ellipsis:parallel"};
  }
  const std::vector<Token> tokens = words_of(prev);
  const int k = content_words(item, reader);
  // The 的-modifier at the topic (国内出差|的|餐补, 今年|的|合规审计) or, without one, the topic.
  const std::size_t de = prev.substr(0, topic.end + 3).find("的");
  if (de == std::string_view::npos) {
    // The topic's modifier had no 的 (餐饮|发票): the item takes its place without one
    // (住宿发票), as the parallel item keeps the history's own 的.
    // A topic right after 怎么 / 如何 opens with the verb asked about (怎么|申请|长期门禁卡):
    // the modifier comes after it.
    std::size_t begin = topic.begin;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
      if (tokens[i].end == topic.begin && manner_word(tokens[i].text(prev)) &&
          tokens[i + 1].begin == topic.begin && tokens[i + 1].end < topic.end)
        begin = tokens[i + 1].end;
    if (const auto e = leading_words_end(prev, begin, topic.end, k, reader))
      return std::pair{splice(begin, *e, item), "ellipsis:modifier"};
    // A topic of no more words than the modifier is its head: the modifier goes in front
    // (加班费 + 周末的 → 周末的加班费; after the verb of 怎么申请|门禁卡) — unless a lone character
    // stands before it, which may be the first piece of the topic's own word (大|会议室).
    const bool lone_before = begin == topic.begin && std::any_of(tokens.begin(), tokens.end(), [&](const Token& t) {
      return t.end == begin && t.single_han && !reader.is_function(t.text(prev));
    });
    const int words = begin == topic.begin
                          ? topic.words
                          : content_words(prev.substr(begin, topic.end - begin), reader);
    // A word and a piece glued after it (加班|餐) are one compound: a head like a one-word topic.
    const bool compound = words == 2 && glued_pieces(prev, topic, tokens, reader) == 1;
    if ((words <= k || (compound && k >= 1)) && !lone_before)
      return std::pair{splice(begin, begin, frag), "ellipsis:modifier"};
    return std::nullopt;
  }
  std::size_t mod_begin = std::min<std::size_t>(topic.begin, de);
  for (const Token& t : tokens)
    if (t.end == de && t.word && t.begin < mod_begin) mod_begin = t.begin;
  if (content_words(prev.substr(mod_begin, de - mod_begin), reader) <= k ||
      same_kind(prev.substr(mod_begin, de - mod_begin), item, reader))
    return std::pair{splice(mod_begin, de + 3, frag), "ellipsis:de"};
  if (const auto e = leading_words_end(prev, mod_begin, de, k, reader))
    return std::pair{splice(mod_begin, *e, item), "ellipsis:de"};
  return std::nullopt;
}

// An ASCII fragment of digits in place of the digits of an identifier (VPN-1001 + 3001 →
// VPN-3001); nullopt when the previous question holds no identifier ending in digits.
std::optional<std::string> renumbered(std::string_view prev, std::string_view frag) {
  if (!all_digits(frag)) return std::nullopt;
  for (const Token& t : words_of(prev)) {
    const std::string_view w = t.text(prev);
    if (!t.ascii || !id_like(w)) continue;
    std::size_t d = w.size();
    while (d > 0 && w[d - 1] >= '0' && w[d - 1] <= '9') --d;
    if (d == w.size() || d == 0) continue;
    std::string out(prev.substr(0, t.begin + d));
    out += frag;
    out += prev.substr(t.end);
    return out;
  }
  // A number of as many digits in the question (Office 2016 + 那2013呢, 超过5000 + 那2000呢) —
  // its only one, else which is meant is not known.
  const std::vector<Token> words = words_of(prev);  // `only` points into it
  const Token* only = nullptr;
  for (const Token& t : words) {
    const std::string_view w = t.text(prev);
    if (!t.ascii || w.size() != frag.size() || !all_digits(w)) continue;
    if (only) return std::nullopt;
    only = &t;
  }
  if (!only || prev.substr(only->begin, only->end - only->begin) == frag) return std::nullopt;
  return std::string(prev.substr(0, only->begin)) + std::string(frag) +
         std::string(prev.substr(only->end));
}

namespace {

// A name with its version (win10, iOS 14) in the place of the question's name and version that
// it names or abbreviates (Windows 11 → win10, iOS 16 → iOS 14): the letters open the name,
// digits follow.
std::optional<std::string> short_versioned(std::string_view prev, std::string_view frag) {
  std::size_t letters = 0;
  while (letters < frag.size() && std::isalpha(static_cast<unsigned char>(frag[letters]))) ++letters;
  const std::size_t digits_at = letters < frag.size() && frag[letters] == ' ' ? letters + 1 : letters;
  if (letters < 2 || !all_digits(frag.substr(digits_at))) return std::nullopt;
  const std::vector<Token> w = words_of(prev);
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const std::string_view name = w[i].text(prev);
    std::size_t k = i + 1;
    while (k < w.size() && !w[k].word && trim_end(w[k].text(prev)).empty()) ++k;  // a space
    if (k >= w.size() || !w[i].ascii || !w[k].ascii || name.size() < letters ||
        !std::equal(frag.begin(), frag.begin() + static_cast<std::ptrdiff_t>(letters), name.begin(),
                    [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      continue;
    if (!all_digits(w[k].text(prev))) continue;
    return std::string(prev.substr(0, w[i].begin)) + std::string(frag) + std::string(prev.substr(w[k].end));
  }
  return std::nullopt;
}

// Where the words before `begin` that the fragment's words `fw` open with start (on the 4th floor
// + and on the 2nd: 'on the' goes with the fragment, not twice), else `begin`.
std::uint32_t repeated_before(std::string_view prev, std::uint32_t begin,
                              const std::vector<std::string_view>& fw) {
  std::vector<Token> before;
  for (const Token& t : words_of(prev.substr(0, begin)))
    if (t.word) before.push_back(t);
  for (std::size_t m = std::min<std::size_t>({3, fw.size() - 1, before.size()}); m > 0; --m) {
    bool same = true;
    for (std::size_t k = 0; k < m && same; ++k) same = before[before.size() - m + k].text(prev) == fw[k];
    if (same) return before[before.size() - m].begin;
  }
  return begin;
}

bool ordinal(std::string_view w) {
  return w.size() >= 3 && w[0] >= '0' && w[0] <= '9' &&
         (w.ends_with("st") || w.ends_with("nd") || w.ends_with("rd") || w.ends_with("th"));
}

// What follows the phrase's ordinal (the 4th| floor): an ordinal for an ordinal keeps it.
std::string_view after_ordinal(std::string_view phrase) {
  for (const Token& t : words_of(phrase))
    if (t.word && ordinal(t.text(phrase))) return phrase.substr(t.end);
  return {};
}

}  // namespace

// English ellipsis (what about Shanghai / and Building B / the Minhang one): the fragment takes
// the place of the previous question's noun phrase that shares a word with it, else of its last
// noun phrase; "one" stands for that phrase's head; a determiner of the fragment replaces the
// phrase's own.
std::optional<std::string> english_substitute(std::string_view prev, std::string_view frag,
                                              const PhraseReader& reader) {
  const std::vector<Span> spans = reader.spans(prev);
  if (spans.empty()) return std::nullopt;
  std::vector<std::string_view> fw;
  for (const Token& t : words_of(frag))
    if (t.word) fw.push_back(t.text(frag));
  if (fw.empty()) return std::nullopt;
  const bool det = is_determiner(fw.front());
  const bool one = fw.back() == "one" && fw.size() > 1;
  const Span* target = nullptr;
  std::uint32_t head_begin = 0;  // where the phrase's words parallel to the fragment's start
  for (const Span& s : spans) {
    const std::string_view span = slice(prev, s.begin, s.end);
    std::vector<Token> words;
    for (const Token& t : words_of(span))
      if (t.word) words.push_back(t);
    for (std::size_t j = 0; j < words.size(); ++j) {
      const std::string_view w = words[j].text(span);
      if (reader.is_function(w)) continue;
      for (std::string_view f : fw)
        if (f == w && !is_determiner(f) && f != "one") {
          target = &s;
          // The fragment's head word (paternity leave + adoption leave): as many of the phrase's
          // words as the fragment has, ending there — not a quantity before them (how much …).
          const std::size_t n = f == fw.back() && !det ? fw.size() : 0;
          head_begin = n > 0 && j + 1 >= n ? s.begin + words[j + 1 - n].begin : 0;
        }
    }
  }
  // No word shared: the phrase the question's shape gives (english_slot.hpp), else the last one,
  // which "the Minhang one" and "the 5th" stand for.
  if (target == nullptr && !one && !ordinal(fw.back()))
    if (const auto slot = english_slot(prev, fw))
      return std::string(prev.substr(0, slot->first)) + (slot->first == slot->second ? " " : "") +
             std::string(trim_end(frag)) + std::string(prev.substr(slot->second));
  // A one-word name sharing no word with the last phrase (How about Enterprise? after … on the Pro
  // plan; And P2? after … for P1 incidents) stands for its modifier, as "the Enterprise one" would:
  // the head stays. A plural (directors, NDAs) names things of its own, the head's place and all.
  const std::string_view w0 = fw.front();
  const bool name_only = target == nullptr && fw.size() == 1 && !det && !ordinal(w0) && !english_plural(w0);
  if (target == nullptr) target = &spans.back();
  std::uint32_t begin = head_begin > target->begin ? head_begin : target->begin;
  if (det) {  // the fragment's determiner replaces the phrase's (my access badge → a parking permit)
    const std::vector<Token> pt = words_of(prev.substr(0, begin));
    for (std::size_t i = pt.size(); i-- > 0;) {
      if (!pt[i].word) continue;
      if (is_determiner(pt[i].text(prev))) begin = pt[i].begin;
      break;
    }
  }
  if (!det) begin = repeated_before(prev, begin, fw);
  std::string sub(frag);
  if (ordinal(fw.back())) sub += after_ordinal(slice(prev, begin, target->end));
  if (one) {
    const std::string_view phrase = slice(prev, target->begin, target->end);
    const std::size_t sp = phrase.rfind(' ');
    sub = std::string(frag.substr(0, frag.size() - 3)) +
          std::string(sp == std::string_view::npos ? phrase : phrase.substr(sp + 1));
  }
  if (name_only) {
    const std::string_view phrase = slice(prev, begin, target->end);
    if (const std::size_t sp = phrase.rfind(' '); sp != std::string_view::npos)
      sub = std::string(trim_end(frag)) + std::string(phrase.substr(sp));
  }
  return std::string(prev.substr(0, begin)) + sub + std::string(prev.substr(target->end));
}

// [begin, end) of the one ASCII content word of `text` standing between Chinese words (装|Chrome|吗),
// or nullopt when it has none or several.
std::optional<std::pair<std::size_t, std::size_t>> only_ascii_word(std::string_view text,
                                                                  const PhraseReader& reader) {
  std::optional<std::pair<std::size_t, std::size_t>> found;
  for (const Token& t : words_of(text)) {
    if (!t.word || !t.ascii || reader.is_function(t.text(text))) continue;
    if (found) return std::nullopt;
    found = std::pair<std::size_t, std::size_t>{t.begin, t.end};
  }
  return found;
}

// A fragment that opens with a word of the previous question (违反 of 员工违反保密义务怎么处罚 +
// 那违反竞业限制呢) says what follows that word there: it takes the place of the word and the
// content words after it (员工违反竞业限制怎么处罚), not of the topic. Only a fragment of two or more
// content words whose first is a word of two or more characters or a preposition, asking "what
// about" (呢) of a question that asks after that run.
std::optional<std::string> aligned_opening(std::string_view prev, std::string_view frag,
                                           const PhraseReader& reader) {
  std::vector<Token> f;
  for (const Token& t : words_of(frag))
    if (t.word) f.push_back(t);
  if (f.size() < 2) return std::nullopt;
  const std::string_view first = f.front().text(frag);
  // A preposition with its object (跟个人 + 那跟个体户呢) aligns as a word would.
  static constexpr std::string_view kPrepositions[] = {"跟", "和", "与", "对", "给", "向", "从", "由", "替"};
  const bool preposition = std::find(std::begin(kPrepositions), std::end(kPrepositions), first) !=
                           std::end(kPrepositions);
  // So does a one-character verb before its object (测|血压 + 测血糖呢): only its object is replaced.
  const bool bounded = preposition || (f.front().single_han && !reader.is_function(first));
  if ((!bounded && (count_code_points(first) < 2 || reader.is_function(first))) || f[1].single_han)
    return std::nullopt;
  // The fragment's words after its first; a lone character glued to the word before it is that
  // word's suffix (个体|户), no word of its own.
  std::size_t object_words = 0;
  for (std::size_t k = 1; k < f.size(); ++k)
    object_words += !(f[k].single_han && f[k - 1].end == f[k].begin);
  const std::vector<Token> p = words_of(prev);
  auto content = [&](std::size_t k) {
    return k < p.size() && p[k].word && !reader.is_function(p[k].text(prev));
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i].text(prev) != first) continue;
    // The word and the content words after it; after a preposition, its object: as many words
    // as the fragment's (跟|个人 of 跟个人签…).
    std::size_t j = i + 1;
    while (content(j) && (!bounded || j < i + 1 + object_words)) ++j;
    if (j == i + 1) return std::nullopt;  // nothing after the word to replace
    thread_local std::vector<CueHit> asks;
    reader.lex().question_word_hits(prev, asks);
    if (std::none_of(asks.begin(), asks.end(), [&](const CueHit& h) { return h.begin >= p[j - 1].end; }))
      return std::nullopt;
    return join(join(std::string(prev.substr(0, p[i].begin)), frag), prev.substr(p[j - 1].end));
  }
  return std::nullopt;
}

// [b, e) of `text` widened over the run of one-character words it cuts (周|杰 of 周|杰|伦: a name
// ICU does not know, and half a name is noise).
std::pair<std::size_t, std::size_t> whole_run(std::string_view text, std::size_t b, std::size_t e,
                                              const PhraseReader& reader) {
  const std::vector<Token> t = segment_words(text);
  auto lone = [&](std::size_t i) { return t[i].single_han && !reader.is_function(t[i].text(text)); };
  for (std::size_t i = 0; i + 1 < t.size(); ++i)
    if (t[i].end == e && lone(i) && lone(i + 1))
      for (std::size_t j = i + 1; j < t.size() && lone(j) && t[j].begin == e; ++j) e = t[j].end;
  for (std::size_t i = t.size(); i-- > 1;)
    if (t[i].begin == b && lone(i) && lone(i - 1))
      for (std::size_t j = i; j-- > 0 && lone(j) && t[j].end == b;) b = t[j].begin;
  return {b, e};
}

// The end of the head after `topic` and 的 (一楼|的|咖啡厅 → after 咖啡厅), when the fragment is a
// parallel of the topic and then a head of its own (三楼 + 便利店); else nullopt.
std::optional<std::uint32_t> modified_head_end(std::string_view prev_text, const Span& topic,
                                               std::string_view frag, const PhraseReader& reader) {
  if (topic.words != 1 || frag.ends_with("的") || !prev_text.substr(topic.end).starts_with("的"))
    return std::nullopt;
  // The parallel: as long as the topic, its last character the same (三楼 of 一楼, B座 of A座).
  // 普通|员工 of 高管的差旅标准 is no parallel: it modifies the head.
  const std::string_view modifier = prev_text.substr(topic.begin, topic.end - topic.begin);
  const std::string_view last = last_code_point(modifier);
  const std::size_t at = frag.find(last);
  if (at == std::string_view::npos || at + last.size() != modifier.size() ||
      frag.substr(0, modifier.size()) == modifier)
    return std::nullopt;
  // A head of two or more characters after it, some of them content (便利|店).
  const std::string_view head = trim_end(frag.substr(modifier.size()));
  if (count_code_points(head) < 2 || reader.spans(head).empty()) return std::nullopt;
  const std::uint32_t head_at = topic.end + static_cast<std::uint32_t>(std::string_view("的").size());
  for (const Span& s : reader.spans(prev_text))
    if (s.begin == head_at) return s.end;
  return std::nullopt;
}

namespace {

// The first word of `frag` (ICU's) is an adverb of time or scope: it opens a predicate. 最后一部
// and 还有… open none (最后 is a word of its own; 还有 adds an item), nor does a bare negation:
// 不饱和脂肪 and 没下过的 name the opposite of an item (饱和脂肪, 下过单的). 还是 may be "or" before
// an item (还是打车呢) as well as "still" (还是卡呢), and an adverb may open a modifier (已经印刷的,
// 再便宜点的); either way the fragment goes beside the topic: put in an item's place it splices
// (去还是打车坐地铁…, 已经印刷公子写过…). So does a request for one of something (举个例子, 给个链接).
constexpr std::string_view kPicks[] = {"单", "整", "半", "上", "下", "各"};

bool predicate_first(std::string_view frag) {
  const std::vector<Token> w = segment_words(frag);
  if (w.size() < 2) return false;
  const std::string_view first = w.front().text(frag);
  for (std::string_view a : {"还是", "还", "也", "都", "又", "就", "才", "再", "已经", "一直", "总是",
                             "仍然", "依然", "也不", "也没", "都不", "都没", "还没"})
    if (first == a) return true;
  // A lone verb and a count of what it asks for (举|个|例子, 给个|链接): a request, no item. 这个,
  // 一个, 单个, 上个 … count, point or pick; they open no request.
  const std::string_view verb = w[0].single_han ? first : first.substr(0, first.size() - 3);
  const bool counted = w[0].single_han ? w[1].text(frag) == "个" && w.size() >= 3
                                       : first.size() == 6 && first.ends_with("个");
  const std::size_t thing = w[0].single_han ? 2 : 1;
  return counted && thing < w.size() && count_code_points(frag.substr(w[thing].begin)) >= 2 &&
         !counting(verb) && !demonstrative(verb) &&
         std::none_of(std::begin(kPicks), std::end(kPicks), [&](std::string_view p) { return verb == p; });
}

}  // namespace

namespace {

// A fragment of letters or digits in its place: an English noun phrase, an identifier's digits, the
// question's ASCII word; nullopt for any other fragment.
std::optional<Placed> placed_ascii(std::string_view prev_text, const Span& topic,
                                   std::string_view frag, const std::vector<Span>& spans,
                                   const PhraseReader& reader) {
  // English: the fragment in the place of the matching noun phrase.
  if (ascii_text(frag) && ascii_text(prev_text))
    if (auto out = english_substitute(prev_text, frag, reader))
      return Placed{std::move(*out), "ellipsis:english"};
  // Digits in place of an identifier's digits (VPN-1001 + 3001呢 → VPN-3001).
  if (auto out = renumbered(prev_text, frag)) return Placed{std::move(*out), "ellipsis:id"};
  if (auto out = requantified(prev_text, frag)) return Placed{std::move(*out), "ellipsis:quantity"};
  if (auto out = short_versioned(prev_text, frag)) return Placed{std::move(*out), "ellipsis:id"};
  // An ASCII word replaces the previous question's ASCII word (Windows ↔ Mac).
  const Span& x = spans.front();
  if (x.ascii && topic.ascii) {
    // A name goes on over a space and its number or letters (Model 3, iPhone 15 Pro).
    auto alnum = [&](std::size_t i) {
      return i < prev_text.size() && std::isalnum(static_cast<unsigned char>(prev_text[i]));
    };
    std::size_t end = topic.ascii_end;
    while (prev_text.substr(end).starts_with(' ') && alnum(end + 1))
      for (++end; alnum(end);) ++end;
    return Placed{join(join(std::string(prev_text.substr(0, topic.ascii_begin)), frag),
                       prev_text.substr(end)),
                  "ellipsis:ascii"};
  }
  // …or the one ASCII word it holds elsewhere (公司电脑可以装Chrome吗 + 那Firefox呢).
  if (ascii_text(frag))
    if (const auto at = only_ascii_word(prev_text, reader))
      return Placed{join(join(std::string(prev_text.substr(0, at->first)), frag),
                         prev_text.substr(at->second)),
                    "ellipsis:ascii"};
  return std::nullopt;
}

}  // namespace


Placed fragment_in_place(std::string_view prev, std::string_view prev_text, const Span& topic,
                         std::string_view frag, const std::vector<Span>& spans,
                         const PhraseReader& reader, bool asks_ne) {
  // A predicate (还是慢呢, 也不行呢: an adverb its first word) is no item to put in another's place.
  if (predicate_first(frag)) return {"", "ellipsis:predicate", true};
  // A modifier with no safe place in the history (its head cut by ICU, 大|会议|室) is not
  // spliced at a guess: the anchor and the turn still retrieve.
  if (frag.ends_with("的")) {
    if (auto out = modifier_substitute(prev_text, topic, frag, reader))
      return {std::move(out->first), out->second};
    return {"", "ellipsis:modifier", true};
  }
  if (auto out = placed_ascii(prev_text, topic, frag, spans, reader)) return std::move(*out);
  // The act reversed: only the verb swaps (收礼品 + 送礼 → 送礼品).
  if (auto out = opposite_act(prev_text, frag, reader)) return {std::move(*out), "ellipsis:opposite"};
  // A case of the topic counted or ranked (超过百万, 第二次续签, 连续休五天) is no item in its place:
  // it goes after the topic, and the question stays (采购合同超过百万要走几级审批) — unless the
  // question counts too (超过两天 beside 超过三天: the parallel item below).
  auto after_topic = [&] {
    const std::string head(prev_text.substr(0, topic.end));
    return join(join(head, frag), prev_text.substr(topic.end));
  };
  switch (negated_case(prev_text, frag)) {
    case Negated::kCase: return {after_topic(), "ellipsis:case"};
    case Negated::kCaseFirst: return {join(std::string(frag), prev_text), "ellipsis:case"};
    case Negated::kPredicate: return {"", "ellipsis:predicate", true};
    case Negated::kNone: break;
  }
  if (counted_case(frag) && !holds_count(prev_text)) return {after_topic(), "ellipsis:case"};
  // A parallel item with the same head word takes that item's place (试用期员工能签保密协议吗
  // + 那竞业协议呢 → …签竞业协议吗; 员工餐厅早餐几点 + 午餐呢 → 员工餐厅午餐几点).
  if (const auto at = parallel_item(prev_text, frag, reader)) {
    auto [b, e] = whole_run(prev_text, at->first, at->second, reader);
    // An item ending in the fragment's own bound head (借|记|卡 of 信用卡) ends there: the lone
    // characters after it are the next word (年|费), not the rest of the item. Any other shared
    // character may sit inside a name ICU cut up (周|杰|伦 of 林俊杰).
    const std::string_view head = last_code_point(frag);
    if (suffix(head) && head == last_code_point(prev_text.substr(at->first, at->second - at->first)))
      e = at->second;
    return {join(join(std::string(prev_text.substr(0, b)), frag), prev_text.substr(e)),
            "ellipsis:parallel"};
  }
  if (auto out = included_item(prev_text, frag, reader)) return {std::move(*out), "ellipsis:included"};
  if (auto out = versioned(prev_text, topic, frag, reader))
    return {std::move(*out), "ellipsis:version"};
  if (auto out = placed_adjunct(prev_text, topic, frag, reader))
    return {std::move(*out), "ellipsis:place"};
  if (asks_ne) {
    if (auto out = aligned_opening(prev_text, frag, reader)) return {std::move(*out), "ellipsis:aligned"};
    if (auto out = redirected(prev_text, frag, reader)) return {std::move(*out), "ellipsis:direction"};
  }
  // An aspect of a domain topic sits beside it (报销 + 审批 → 报销审批流程); a parallel
  // item takes the topic's place (年假 → 病假, 北京 → 上海).
  const std::string_view first_word = slice(prev, topic.begin, topic.first_end);
  const int topic_source = source_of(reader.lex(), first_word);
  // An aspect is one word (审批); a phrase (商标|续展 beside 软件著作权申请) is a parallel item
  // and takes the topic's place below.
  const std::vector<Token> frag_words = words_of(frag);
  const bool one_word = std::count_if(frag_words.begin(), frag_words.end(),
                                      [](const Token& w) { return w.word; }) == 1;
  if (topic.words >= 2 && topic_source >= 0 && one_word &&
      source_of(reader.lex(), frag) != topic_source)
    return {join(join(std::string(prev_text.substr(0, topic.first_end)), frag),
                 prev_text.substr(topic.first_end)),
            "ellipsis:aspect"};
  // A fragment with a modifier and a head of its own (三楼|便利店) after a topic that is a modifier
  // of 的 and a head (一楼|的|咖啡厅) takes the place of both: its head is what is asked about now.
  if (const auto whole = modified_head_end(prev_text, topic, frag, reader))
    return {join(join(std::string(prev_text.substr(0, topic.begin)), frag), prev_text.substr(*whole)),
            "ellipsis:head"};
  if (auto out = object_in_place(prev_text, topic, frag, reader))
    return {std::move(*out), "ellipsis:object"};
  if (auto out = head_in_place(prev_text, topic, frag, reader))
    return {std::move(*out), "ellipsis:head_of"};
  // Otherwise the fragment takes the topic's place: all of a short topic (哺乳假 → 陪产假;
  // ICU often splits one compound into two words), but of a long one only as many leading
  // words as the fragment has (研发中心年会 + 销售中心的呢 → 销售中心的年会; 普通员工一类城市
  // 住宿标准 + 经理级别呢 → 经理级别一类城市住宿标准): replacing a long topic whole would drop
  // what the question is about.
  std::uint32_t replace_end = topic.end;
  const char* how = "ellipsis";
  // Never cut inside a run of one-character words: that is a name ICU does not know, and
  // half a name is noise.
  if (topic.words >= 3)
    if (const auto e = modifier_end(prev_text, topic, frag, reader)) {
      replace_end = *e;
      how = "ellipsis:modifier";
    }
  replace_end = before_time_words(prev_text, topic.begin, replace_end, frag);
  // A long topic that is the whole question (仓|鼠|能吃|葡萄吗: ICU glued the modal to its verb, and
  // the name run may not be cut) is a clause, not an item: replaced whole, nothing of the question
  // would be left (苹果吗).
  if (topic.words >= 3 && content_words(prev_text.substr(0, topic.begin), reader) == 0 &&
      content_words(prev_text.substr(replace_end), reader) == 0)
    return {"", "ellipsis:clause", true};
  return {join(join(std::string(prev_text.substr(0, topic.begin)), frag),
               prev_text.substr(replace_end)),
          how};
}

}  // namespace qaplan::internal
