#include "planning/analysis/phrases.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/span_cuts.hpp"
#include "planning/analysis/time_expr.hpp"

namespace qaplan::internal {
namespace {

// A closed list of words of W bytes each (one or two Han characters), written as one string and
// held as integers: a lookup packs the word once and compares integers, where a list of
// string_views called memcmp per entry (the rewriter asks of most words it reads).
template <std::size_t W, std::size_t N>
class PackedList {
 public:
  consteval explicit PackedList(const char (&s)[W * N + 1]) {
    for (std::size_t i = 0; i < N; ++i) {
      if (static_cast<unsigned char>(s[W * i]) < 0xE0) throw "an entry is not Han";
      words_[i] = pack(std::string_view(s + W * i, W));
    }
  }
  bool contains(std::string_view w) const {
    if (w.size() != W) return false;
    const std::uint64_t k = pack(w);
    return std::find(words_.begin(), words_.end(), k) != words_.end();
  }
  // Whether `w` opens with an entry.
  bool opens(std::string_view w) const { return w.size() >= W && contains(w.substr(0, W)); }

 private:
  static constexpr std::uint64_t pack(std::string_view w) {
    std::uint64_t k = 0;
    for (const char c : w) k = k << 8 | static_cast<unsigned char>(c);
    return k;
  }
  std::array<std::uint64_t, N> words_{};
};
// One-character (three-byte) and two-character (six-byte) lists.
template <std::size_t B>
consteval PackedList<3, (B - 1) / 3> chars(const char (&s)[B]) {
  return PackedList<3, (B - 1) / 3>(s);
}
template <std::size_t B>
consteval PackedList<6, (B - 1) / 6> pairs(const char (&s)[B]) {
  return PackedList<6, (B - 1) / 6>(s);
}

bool is_connector(std::string_view t) { return t == "-" || t == "_" || t == "." || t == "/"; }

bool is_title(std::string_view w) { return w.starts_with("《"); }


// Units and counters a number is read with (7月, 180天, 10万, 3次): ICU cuts them from the digits,
// and a splice between the two would leave a bare number.
bool number_unit(std::string_view c) {
  static constexpr auto kUnits = chars(
      "年月日号天周时点分秒次个元块岁万千百亿倍楼层期届级类人张台件份条本页米克斤寸");
  return c == "%" || kUnits.contains(c);
}

// A short letter code and the one character that says what it designates name one thing: A类,
// B区, T3航站楼's T3, Pro版. Split, the code stands alone and the character reads as a verb.
bool designated_code(std::string_view code, std::string_view c) {
  static constexpr auto kSuffixes = chars("类级区型号档版座栋楼层款组线段期室馆厅口套舱岗");
  if (code.empty() || code.size() > 4) return false;
  const bool letter = std::any_of(code.begin(), code.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
  });
  const bool alnum = std::all_of(code.begin(), code.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0;
  });
  if (letter && alnum && kSuffixes.contains(c)) return true;
  // One letter names with the character after it (C罗, B站, K歌, A股): alone a letter is no
  // word, unless that character is a function word of the clause (A是, B和C).
  static constexpr auto kClause = chars("的了着过是和与跟及或在有要能会可把被将让给向对从到为也都"
                                        "就还又再才很太更最比吗呢吧啊么个");
  return code.size() == 1 && letter && !kClause.contains(c);
}

// The periods the time filters read (今天, 上个月, 去年 …: time_expr.hpp), the words that say
// when without a period the filters could read, and the days of the week (周一, 星期六, 礼拜天):
// one set, built once (the rewriter asks of every word it reads).
const WordSet& temporal_words() {
  static const WordSet words = [] {
    std::vector<std::string> w;
    for (const TimeWord& t : time_words())
      if (t.kind == TimeWord::Kind::kRelative || t.kind == TimeWord::Kind::kYear)
        w.emplace_back(t.text);
    for (std::string_view when :
         {"明天", "后天", "每天", "天天", "早上", "上午", "中午", "下午", "晚上", "周末", "平时", "工作日",
          "每周", "下周", "每月", "下个月", "每年", "明年", "最近", "现在", "以前", "小时候", "刚才",
          "今晚", "明晚", "早晨", "傍晚", "凌晨", "半夜", "周天"})
      w.emplace_back(when);
    for (std::string_view week : {"周", "星期", "礼拜"})
      for (std::string_view day : {"一", "二", "三", "四", "五", "六", "日", "天"})
        w.push_back(std::string(week) + std::string(day));
    return WordSet(std::move(w));
  }();
  return words;
}
}  // namespace

bool all_digits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool temporal(std::string_view w) { return temporal_words().contains(w); }

bool names_a_break(std::string_view w) {
  static const WordSet breaks(std::vector<std::string>{
      "春节", "过年", "国庆", "国庆节", "元旦", "元旦节", "五一", "劳动节", "清明", "清明节", "端午",
      "端午节", "中秋", "中秋节", "节假日", "法定节假日", "节日", "假期", "假日", "寒假", "暑假",
      "长假", "小长假", "黄金周"});
  return breaks.contains(w);
}

bool temporal_phrase(std::string_view frag) {
  if (temporal(frag)) return true;
  std::string_view rest = frag;
  for (std::string_view edge : {"期间", "前", "后", "当天"})
    if (rest.size() > edge.size() && rest.ends_with(edge)) {
      rest.remove_suffix(edge.size());
      break;
    }
  if (names_a_break(rest)) return true;
  // Words that each say when (周日|下午, 明天|晚上): ICU's words, or two of them it cut apart.
  const std::vector<Token> w = words_of(frag);
  int words = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w[i].word) return false;
    const std::string_view one = w[i].text(frag);
    if (temporal(one) || names_a_break(one)) {
      ++words;
      continue;
    }
    if (i + 1 < w.size() && w[i + 1].word && temporal(slice(frag, w[i].begin, w[i + 1].end))) {
      ++words;
      ++i;
      continue;
    }
    return false;
  }
  return words >= 2;
}

bool adverbs_only(std::string_view w) {
  constexpr std::string_view kAdverbs = "不没也都还就又很最只才刚再一直总";
  if (w.empty() || w.size() % 3 != 0) return false;
  for (std::size_t i = 0; i < w.size(); i += 3)
    if (kAdverbs.find(w.substr(i, 3)) == std::string_view::npos) return false;
  return true;
}

namespace {
constexpr auto kParticles = chars("吗呢吧呗啊呀哦嘛啦");
}  // namespace

std::string_view without_closing_particle(std::string_view s) {
  if (s.size() > 3 && kParticles.contains(s.substr(s.size() - 3))) return s.substr(0, s.size() - 3);
  return s;
}

bool closing_particle(std::string_view w) { return kParticles.contains(w); }

bool manner_word(std::string_view w) { return w == "怎么" || w == "如何" || w == "怎样" || w == "咋"; }

bool bare_why(std::string_view turn) { return turn == "为什么" || turn == "为啥" || turn == "为何"; }

bool demonstrative(std::string_view w) {
  static constexpr auto kDemonstratives = chars("这那哪每某该");
  return kDemonstratives.contains(w);
}

bool drop_modal(std::string_view& s) {
  for (std::string_view m : {"可以", "能够", "需要", "能", "要"})
    if (s.starts_with(m)) {
      s.remove_prefix(m.size());
      return true;
    }
  return false;
}

bool opens_with_adverb(std::string_view w) {
  static constexpr auto kOne = chars("又还也都就才再刚挺很太真最更不没");
  static constexpr auto kTwo = pairs("已经一直总是经常正在一共总共分别各自只有通常");
  return kOne.opens(w) || kTwo.opens(w);
}

bool counting(std::string_view w) {
  static constexpr auto kNumerals = chars("一二两三四五六七八九十几");
  return kNumerals.opens(w);
}

// A word that counts (一家, 两部) or picks from a set (所有, 这些, 其中).
bool counts_or_picks(std::string_view w) {
  static constexpr std::string_view kPicks[] = {"所有", "全部", "一些", "有些", "部分", "各", "各位",
                                                "各个", "每", "每个", "每种", "其中", "任何", "这些",
                                                "那些", "哪些", "只有"};
  if (std::find(std::begin(kPicks), std::end(kPicks), w) != std::end(kPicks)) return true;
  return count_code_points(w) == 2 && counting(w);
}

bool classifier(std::string_view c) {
  static constexpr auto kClassifiers = chars(
      "个家位种款部本件条张只台所项份篇首场次门辆间座支套类批笔段双对副块把瓶杯碗盒包棵头匹架顶"
      "串颗根盘袋束幅顿趟封枚栋盆株朵样");
  return kClassifiers.contains(c);
}


bool id_like(std::string_view w) {
  bool alpha = false, digit = false, joined = false;
  for (unsigned char c : w) {
    alpha = alpha || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    digit = digit || (c >= '0' && c <= '9');
    joined = joined || c == '-' || c == '_' || c == '.' || c == '/';
  }
  return (alpha && digit) || (joined && (alpha || digit));
}

std::vector<Token> words_of(std::string_view text) {
  std::vector<Token> t;
  words_of_into(text, t);
  return t;
}

void words_of_into(std::string_view text, std::vector<Token>& t) {
  // Merged in place: the words kept are t[0, n), and n never passes the token being read (one
  // vector per call; this runs several times per follow-up).
  segment_words_into(text, t);
  std::size_t n = 0;
  auto back = [&]() -> Token& { return t[n - 1]; };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string_view w = t[i].text(text);
    if (w == "《") {
      std::size_t j = i + 1;
      while (j < t.size() && t[j].text(text) != "》" && t[j].text(text) != "《") ++j;
      if (j < t.size() && t[j].text(text) == "》" && j > i + 1) {
        Token m = t[i];
        m.end = t[j].end;
        m.word = true;
        m.single_han = false;
        m.ascii = false;
        t[n++] = m;
        i = j;
        continue;
      }
    }
    if (is_connector(w) && n > 0 && back().ascii && back().end == t[i].begin &&
        i + 1 < t.size() && t[i + 1].ascii && t[i + 1].begin == t[i].end) {
      back().end = t[i + 1].end;
      ++i;
      continue;
    }
    if (t[i].ascii && n > 0 && back().ascii && back().end == t[i].begin) {
      back().end = t[i].end;  // 2024 + abc split by ICU: one word
      continue;
    }
    if (n > 0 && back().ascii && back().end == t[i].begin && all_digits(back().text(text)) &&
        number_unit(w)) {
      back().end = t[i].end;  // 7 + 月: one word, 7月
      back().ascii = false;
      continue;
    }
    if (n > 0 && back().ascii && back().end == t[i].begin && t[i].single_han &&
        designated_code(back().text(text), w)) {
      back().end = t[i].end;  // A + 类: one word, A类
      back().ascii = false;
      continue;
    }
    t[n++] = t[i];
  }
  t.resize(n);
}

// A word ICU glued from function words (我想, 你在, 总共|有) is no content either: a Han word
// that splits whole into two or more listed words.
bool PhraseReader::of_function_chars(std::string_view word) const {
  constexpr std::size_t kMaxBytes = 24;  // eight Han characters: longer is no glued function word
  if (word.empty() || word.size() > kMaxBytes) return false;
  // pieces[i]: the fewest listed words that make word[0, i), 0 when none do.
  std::array<std::uint8_t, kMaxBytes + 1> pieces{};
  pieces[0] = 0;
  std::array<bool, kMaxBytes + 1> reached{};
  reached[0] = true;
  for (std::size_t b = 0; b < word.size();) {
    std::size_t e = b;
    if (next_code_point(word, e) < 0x3400) return false;
    if (reached[b])
      for (std::size_t j = e;; next_code_point(word, j)) {
        // The whole word as one piece is no glue of two (and was looked up by the caller).
        const bool whole = b == 0 && j == word.size();
        if (!whole && is_function(word.substr(b, j - b)) && (!reached[j] || pieces[j] > pieces[b] + 1)) {
          reached[j] = true;
          pieces[j] = static_cast<std::uint8_t>(pieces[b] + 1);
        }
        if (j >= word.size()) break;
      }
    b = e;
  }
  return reached[word.size()] && pieces[word.size()] >= 2;
}

namespace {

// A classifier after a demonstrative (这|家|店, 那|部|片子, 每|位) counts the noun that follows; it
// is no part of it, nor is the demonstrative: both are marked in `fn` like function words.
void mark_counting_words(std::string_view text, const std::vector<Token>& tokens,
                         std::vector<bool>& fn) {
  for (std::size_t i = 1; i + 1 < tokens.size(); ++i)
    if (tokens[i].single_han && !fn[i + 1] && tokens[i - 1].end == tokens[i].begin &&
        demonstrative(tokens[i - 1].text(text)) && classifier(tokens[i].text(text)))
      fn[i] = fn[i - 1] = true;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view w = tokens[i].text(text);
    if (!fn[i] && !tokens[i].ascii && count_code_points(w) == 2) {
      const std::string_view first = w.substr(0, w.size() - last_code_point(w).size());
      if (demonstrative(first) && classifier(last_code_point(w))) fn[i] = true;  // 那部, 这家
    }
  }
}

// A listed function word ICU cut across a word boundary (一|共有 for 一共|有, 总|共有): the word
// and the rest of the token it ends in are function words, so neither leaves a lone character
// (一) to be taken for a topic. Only a listed word that opens a token and a rest that is listed.
void mark_cut_across(std::string_view text, const std::vector<Token>& tokens, std::vector<bool>& fn,
                     const PhraseReader& reader) {
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    // ICU cuts a listed word across a boundary after a short piece of it (一|共有, 告诉|我有).
    if ((fn[i] && fn[i + 1]) || tokens[i].ascii || tokens[i].end - tokens[i].begin > 6) continue;
    if (!tokens[i + 1].word || tokens[i].end != tokens[i + 1].begin) continue;
    const std::string_view next = tokens[i + 1].text(text);
    for (std::size_t k = 0; k < next.size();) {
      next_code_point(next, k);
      if (k >= next.size()) break;
      if (reader.is_function(text.substr(tokens[i].begin, tokens[i + 1].begin + k - tokens[i].begin)) &&
          reader.is_function(next.substr(k))) {
        fn[i] = fn[i + 1] = true;
        break;
      }
    }
  }
}

// Function characters that never open a compound: persons, pointers, particles, adverbs, modals
// and the prepositions that take an object (你|买|基金, 那|日|活跃用户, 的|母|公司, 谁|为|一家,
// 最|受|用户, 要|交|押金, 把|钱|转账).
bool never_opens_compound(std::string_view c) {
  static constexpr auto kNever = chars("你我他她它您的了着过谁其是有最很太更还也都就又再才挺"
                                       "要能会得想把被将让给向跟和与比");
  return demonstrative(c) || kNever.contains(c);
}

// A lone character and 会 opening a clause before when or where it is held or a 的 (年|会|在哪里
// 办, 周|会|几点开, 晨|会|的时间): ICU did not know the meeting, and 会 is its head, not "will".
void mark_meeting_head(std::string_view text, const std::vector<Token>& t, std::vector<bool>& fn) {
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (!t[i].single_han || fn[i] || t[i + 1].text(text) != "会" || t[i].end != t[i + 1].begin)
      continue;
    if (i > 0 && t[i - 1].word && !fn[i - 1]) continue;  // a piece of the phrase before
    const std::string_view rest = text.substr(t[i + 2].begin);
    for (std::string_view w : {"在哪", "几点", "什么时候", "哪天", "几号", "的"})
      if (rest.starts_with(w)) fn[i + 1] = false;
  }
}

void mark_wedged(std::string_view text, const std::vector<Token>& tokens, std::vector<bool>& fn) {
  for (std::size_t i = 0; i + 2 < tokens.size(); ++i)
    if (opens_unknown_compound(text, tokens, fn, i)) fn[i] = false;
}

}  // namespace

// A lone function character opening a clause, then a lone character and a word (对|公|转账,
// 内|推|奖励, 在|线|支付, 各|游|乐园, 用|印|怎么): ICU did not know the compound, and the character
// is a piece of it, not a preposition.
bool opens_unknown_compound(std::string_view text, const std::vector<Token>& t,
                            const std::vector<bool>& fn, std::size_t i) {
  if (i + 2 >= t.size() || !fn[i] || !t[i].single_han || !t[i + 1].single_han || fn[i + 1]) return false;
  if (t[i].end != t[i + 1].begin || t[i + 1].end != t[i + 2].begin) return false;
  const bool opens = i == 0 || !t[i - 1].word;
  // The word after may be a question word or a modal (用|印|怎么申请, 用|车|需要…): what follows
  // the compound asks about it.
  const std::string_view after = t[i + 2].text(text);
  bool asks = false;
  for (std::string_view q : {"怎么", "怎样", "如何", "多少", "哪些", "什么", "为什么", "哪里", "多久",
                             "需要", "可以", "应该", "必须", "能否", "能不能"})
    asks = asks || after == q;
  return opens && t[i + 2].word && (!fn[i + 2] || asks) && !t[i + 2].single_han &&
         !never_opens_compound(t[i].text(text));
}

// Derivational suffixes (-ization, -ness, -style, -type, -rate …) and bound heads that are no
// verb (著作|权, 差旅|费, 门禁|卡, 保|险, 旗舰|版, 青春|类), and classifiers of books and
// containers that end a compound ICU does not hold whole (笔记|本, 手提|箱, 药|盒): closed classes of the language.
bool suffix(std::string_view c) {
  static constexpr auto kSuffixes = chars("化性式型率度者级权费证卡额税险金室科本册箱盒袋瓶"
                                          "间表机器仪处厅场站馆品部组房肉店院厂楼区版类");
  return kSuffixes.contains(c);
}

// Which tokens are function words, not content: listed words and words made of them, question
// words, counting words, punctuation — and which are not though they look it.
std::vector<bool> PhraseReader::function_marks(std::string_view text, const std::vector<Token>& tokens,
                                               const std::vector<CueHit>& questions) const {
  // An ASCII word glued to Chinese (IT设备台账) is a name, never an English function word (it).
  // A single letter (A类) is left to the rules for codes.
  auto glued = [&](std::size_t i) {
    auto han = [&](std::size_t k) { return tokens[k].word && !tokens[k].ascii; };
    return tokens[i].ascii && tokens[i].end - tokens[i].begin >= 2 && ((i > 0 && tokens[i - 1].end == tokens[i].begin && han(i - 1)) ||
                               (i + 1 < tokens.size() && tokens[i + 1].begin == tokens[i].end &&
                                han(i + 1)));
  };
  auto function = [&](std::size_t i) {
    const Token& t = tokens[i];
    if (!t.word) return true;
    if (glued(i)) return false;
    if (is_function(t.text(text)) || of_function_chars(t.text(text))) return true;
    for (const CueHit& h : questions)
      if (h.begin < t.end && t.begin < h.end) return true;
    return false;
  };
  std::vector<bool> fn(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) fn[i] = function(i);
  mark_counting_words(text, tokens, fn);
  // A listed function word ICU cut in pieces (接|下来) is one function word.
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
    for (std::size_t n = 2; n <= 3 && i + n <= tokens.size(); ++n)
      if (is_function(slice(text, tokens[i].begin, tokens[i + n - 1].end)))
        std::fill(fn.begin() + i, fn.begin() + i + n, true);
  mark_cut_across(text, tokens, fn, *this);
  mark_wedged(text, tokens, fn);
  mark_meeting_head(text, tokens, fn);
  // A one-letter ASCII word closing the text after a content word is a label, not an article
  // (building a, plan b).
  for (std::size_t i = tokens.size(); i-- > 0;) {
    if (!tokens[i].word) continue;
    if (tokens[i].ascii && tokens[i].end - tokens[i].begin == 1) {
      std::size_t k = i;
      while (k > 0 && !tokens[k - 1].word) --k;
      if (k > 0 && !fn[k - 1] && tokens[k - 1].ascii) fn[i] = false;
    }
    break;
  }
  return fn;
}

std::vector<Span> PhraseReader::spans(std::string_view text) const {
  // The words in a per-thread buffer (nothing below reads spans again): several calls a turn.
  thread_local std::vector<Token> words;
  words_of_into(text, words);
  const std::vector<Token>& tokens = words;
  thread_local std::vector<CueHit> questions;
  lex_.question_word_hits(text, questions);
  const std::vector<bool> fn = function_marks(text, tokens, questions);
  const SpanCuts cuts(text, tokens, fn, questions);
  std::vector<Span> out;
  std::optional<Span> cur;
  int singles = 0;
  auto close = [&] {
    if (!cur) return;
    cur->name_like = singles >= 2 && singles == cur->words;
    out.push_back(*cur);
    cur.reset();
    singles = 0;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (cur && cuts.space_inside(i)) continue;
    if (const std::size_t n = cuts.outside(i)) {
      close();
      i += n - 1;
      continue;
    }
    if (!cur) {
      cur = Span{t.begin, t.end, t.end, 0, false, false, 0, 0, false};
    }
    cur->end = t.end;
    const std::string_view w = t.text(text);
    if ((t.ascii && id_like(w)) || is_title(w)) cur->strong = true;
    ++cur->words;
    if (t.single_han) ++singles;
    if (t.ascii && !cur->ascii) {
      cur->ascii = true;
      cur->ascii_begin = t.begin;
      cur->ascii_end = t.end;
    }
  }
  close();
  return out;
}

std::string_view slice(std::string_view s, std::uint32_t b, std::uint32_t e) {
  return s.substr(b, e - b);
}

// Without trailing punctuation, spaces and emoji — but a 》 that closes a title the text opened
// is part of its last word (最近在追《繁花》).
std::string_view trim_end(std::string_view s) {
  const std::string_view core = core_text(s);
  constexpr std::string_view open = "《", close = "》";
  if (!s.substr(core.size()).starts_with(close)) return core;
  const std::size_t opened = core.rfind(open), closed = core.rfind(close);
  const bool unclosed = opened != std::string_view::npos && (closed == std::string_view::npos || closed < opened);
  return unclosed ? s.substr(0, core.size() + close.size()) : core;
}

// Without leading non-word characters.
std::string_view trim_start(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = i;
    const std::int32_t cp = next_code_point(s, j);
    if (cp >= 0 && is_word_char(cp)) break;
    i = j;
  }
  return s.substr(i);
}

namespace {
// What ends a clause inside one turn (好啊，你想看哪部; 葬送的芙莉莲，超好看).
constexpr std::string_view kClauseBreaks[] = {"，", ",", "；", ";", "。"};
}  // namespace

bool listed(const std::vector<std::string>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

std::string_view first_clause(std::string_view s) {
  for (std::string_view b : kClauseBreaks) s = s.substr(0, s.find(b));
  return s;
}

std::string_view last_clause(std::string_view s) {
  // After the break that ends last (each break's last occurrence, the furthest end of them):
  // one backward pass, where an rfind per break compared at every byte.
  std::size_t at = s.size();
  for (; at > 0; --at)
    if (std::any_of(std::begin(kClauseBreaks), std::end(kClauseBreaks), [&](std::string_view b) {
          return at >= b.size() && same_bytes(s.substr(at - b.size(), b.size()), b);
        }))
      break;
  return trim_start(s.substr(at));
}

// 难不难, 好不好, 能不能, 可不可以: a character, 不, the same character again asks a yes-no
// question as surely as a question word does.
bool a_not_a(std::string_view text) {
  for (std::size_t at = text.find("不"); at != std::string_view::npos; at = text.find("不", at + 3)) {
    if (at == 0 || at + 3 >= text.size()) continue;
    std::size_t b = at;
    do --b; while (b > 0 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80);
    const std::string_view before = text.substr(b, at - b);
    if (text.substr(at + 3).starts_with(before)) return true;
  }
  return false;
}

bool question_like(std::string_view text, const ScannedQuery& q, const LexiconIds& ids) {
  return text.find('?') != std::string_view::npos || text.find("？") != std::string_view::npos ||
         q.has(ids.question_word) || a_not_a(text);
}

// The first hit of `list` in q, if any.
std::optional<CueHit> first_hit(const ScannedQuery& q, std::uint32_t list) {
  std::optional<CueHit> best;
  for (const CueHit& h : q.hits)
    if (h.list == list && (!best || h.begin < best->begin ||
                           (h.begin == best->begin && h.end > best->end)))
      best = h;
  return best;
}

// The source index whose keywords contain `word` exactly, or -1.
int source_of(const Lexicon& lex, std::string_view word) {
  const auto& sources = lex.config().sources;
  for (std::size_t s = 0; s < sources.size(); ++s)
    for (const std::string& k : sources[s].keywords)
      if (same_bytes(k, word)) return static_cast<int>(s);
  return -1;
}

std::string join(std::string_view a, std::string_view b) {
  // ASCII words keep a space between them; Chinese needs none.
  std::string out(a);
  if (!a.empty() && !b.empty() && is_ascii_alnum(static_cast<unsigned char>(a.back())) &&
      is_ascii_alnum(static_cast<unsigned char>(b.front())))
    out += ' ';
  out += b;
  return out;
}

std::string_view last_code_point(std::string_view s) {
  std::size_t b = s.size();
  while (b > 0 && (static_cast<unsigned char>(s[b - 1]) & 0xC0) == 0x80) --b;
  return b > 0 ? s.substr(b - 1) : s;
}


bool ascii_text(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

int content_words(std::string_view text, const PhraseReader& reader) {
  int n = 0;
  for (const Token& t : words_of(text)) n += t.word && !reader.is_function(t.text(text));
  return n;
}

// Runs joined by a linking word into one noun phrase: 深圳园区|的|停车费, 仲裁|和|诉讼,
// 合同台账|里|XH-HT-2025-0084. Returns the end of the phrase that starts with spans[first].
bool is_link(std::string_view gap) {
  if (gap == "的" || gap == "和" || gap == "跟" || gap == "与" || gap == "及" || gap == "里" ||
      gap == "中")
    return true;
  // A demonstrative and its classifier pick one of the noun after it (成都锦程|那份|合同).
  if (count_code_points(gap) != 2) return false;
  const std::string_view c = last_code_point(gap);
  return demonstrative(gap.substr(0, gap.size() - c.size())) && classifier(c);
}

std::uint32_t phrase_end(std::string_view text, const std::vector<Span>& spans, std::size_t first) {
  std::uint32_t end = spans[first].end;
  for (std::size_t k = first + 1; k < spans.size(); ++k) {
    if (!is_link(slice(text, end, spans[k].begin))) break;
    end = spans[k].end;
  }
  return end;
}

// The start of a span that sits in a container (合同台账里XH-HT-2025-0084, 会议室清单中天枢):
// the container's start, else the span's own.
std::uint32_t container_begin(std::string_view text, const std::vector<Span>& spans, std::size_t k) {
  if (k == 0) return spans[k].begin;
  const std::string_view gap = slice(text, spans[k - 1].end, spans[k].begin);
  return gap == "里" || gap == "中" ? spans[k - 1].begin : spans[k].begin;
}

}  // namespace qaplan::internal
