#include "planning/analysis/rewrite.hpp"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/coordination.hpp"
#include "planning/analysis/rewrite_check.hpp"
#include "planning/analysis/segment.hpp"

namespace qaplan::internal {
namespace {

// A run of content words (no function word, no punctuation) inside one text.
struct Span {
  std::uint32_t begin = 0, end = 0;
  std::uint32_t first_end = 0;  // end of the span's first word
  int words = 0;
  bool name_like = false;  // ≥ 2 words ICU did not know (one Han character each): likely a name
  bool ascii = false;      // holds an ASCII word
  std::uint32_t ascii_begin = 0, ascii_end = 0;
  bool strong = false;     // holds an identifier (XH-IT-2024-0034, XH-Connect) or a 《title》
};

bool is_connector(std::string_view t) { return t == "-" || t == "_" || t == "." || t == "/"; }

// An identifier-shaped ASCII word: letters and digits, or words joined by a connector
// (XH-HT-2025-0084, XH-Connect, vpn.xinghe-tech.com, PRN-0040).
bool id_like(std::string_view w) {
  bool alpha = false, digit = false, joined = false;
  for (unsigned char c : w) {
    alpha = alpha || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    digit = digit || (c >= '0' && c <= '9');
    joined = joined || c == '-' || c == '_' || c == '.' || c == '/';
  }
  return (alpha && digit) || (joined && (alpha || digit));
}

bool is_title(std::string_view w) { return w.starts_with("《"); }

// ICU's words with the units a reader keeps whole: ASCII words joined by - _ . / without spaces
// (an ID, a hyphenated name, a host name) are one word, and so is a 《book title》.
std::vector<Token> words_of(std::string_view text) {
  const std::vector<Token> t = segment_words(text);
  std::vector<Token> out;
  out.reserve(t.size());
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
        out.push_back(m);
        i = j;
        continue;
      }
    }
    if (is_connector(w) && !out.empty() && out.back().ascii && out.back().end == t[i].begin &&
        i + 1 < t.size() && t[i + 1].ascii && t[i + 1].begin == t[i].end) {
      out.back().end = t[i + 1].end;
      ++i;
      continue;
    }
    if (t[i].ascii && !out.empty() && out.back().ascii && out.back().end == t[i].begin) {
      out.back().end = t[i].end;  // 2024 + abc split by ICU: one word
      continue;
    }
    out.push_back(t[i]);
  }
  return out;
}

// Splits text into content-word phrases (runs between function words).
class PhraseReader {
 public:
  PhraseReader(const Lexicon& lex, const WordSet& words) : lex_(lex), function_(words) {}

  bool is_function(std::string_view word) const { return function_.contains(word); }

  // Runs of content words. A run ends at a function word, at a word holding a question word
  // (几年, 多少) and before a lone one-character word that is followed by another content word
  // or by an aspect particle — in Chinese that is nearly always a verb (签保密协议, 坏了,
  // 换一次), while a lone character at the end of a run is a suffix (打车费, 报销单). Runs of
  // one-character words are names ICU does not know (姚笛) and stay together.
  std::vector<Span> spans(std::string_view text) const {
    const std::vector<Token> tokens = words_of(text);
    const ScannedQuery scanned = lex_.scan(NormalizedQuery{std::string(text), 0});
    const std::uint32_t qw = lex_.ids().question_word;
    auto function = [&](std::size_t i) {
      const Token& t = tokens[i];
      if (!t.word || is_function(t.text(text))) return true;
      for (const CueHit& h : scanned.hits)
        if (h.list == qw && h.begin < t.end && t.begin < h.end) return true;
      return false;
    };
    std::vector<bool> fn(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) fn[i] = function(i);
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
    // Spaces between two ASCII content words do not end a run (navicat premium, parental leave
    // policy): in Chinese text a space only ever stands between ASCII words.
    auto space_inside = [&](std::size_t i) {
      if (tokens[i].word || i == 0 || i + 1 >= tokens.size()) return false;
      for (char c : tokens[i].text(text))
        if (c != ' ') return false;
      return tokens[i - 1].ascii && !fn[i - 1] && tokens[i + 1].ascii && !fn[i + 1];
    };
    auto single = [&](std::size_t i) { return i < tokens.size() && !fn[i] && tokens[i].single_han; };
    auto verb = [&](std::size_t i) {
      if (!single(i) || (i > 0 && single(i - 1)) || single(i + 1)) return false;
      if (i + 1 >= tokens.size()) return false;
      const std::string_view next = tokens[i + 1].text(text);
      return !fn[i + 1] || next == "了" || next == "过" || next == "着";
    };
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
      if (cur && space_inside(i)) continue;
      if (fn[i] || verb(i)) {
        close();
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

  const Lexicon& lex() const { return lex_; }

 private:
  const Lexicon& lex_;
  const WordSet& function_;
};

std::string_view slice(std::string_view s, std::uint32_t b, std::uint32_t e) {
  return s.substr(b, e - b);
}

// Without trailing punctuation, spaces and emoji.
std::string_view trim_end(std::string_view s) { return core_text(s); }

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
      if (k == word) return static_cast<int>(s);
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
  const std::vector<Token> p = words_of(prev);
  for (std::size_t i = p.size(); i-- > 0;) {
    const std::string_view w = p[i].text(prev);
    if (!p[i].word || reader.is_function(w)) continue;
    const bool same = w == head;
    const bool same_last = !same && count_code_points(w) >= 2 && count_code_points(head) >= 2 &&
                           !p[i].ascii && last_code_point(w) == last_code_point(head);
    if (!same && !same_last) continue;
    std::size_t first = i;
    for (std::size_t k = 1; k < f.size() && first > 0; ++k) {
      const Token& t = p[first - 1];
      if (!t.word || reader.is_function(t.text(prev))) break;
      --first;
    }
    const std::string_view item = prev.substr(p[first].begin, p[i].end - p[first].begin);
    if (item == frag) return std::nullopt;  // the same thing again: nothing parallel
    return std::pair{std::size_t{p[first].begin}, std::size_t{p[i].end}};
  }
  return std::nullopt;
}

// The byte end of the first `k` content words of text[begin, end), or nullopt when the range
// holds no more than k of them (replacing them all would drop the head) or a one-character word
// stands at the cut: ICU cuts a word it does not know into characters (版|年|付, 会议|室), and a
// cut beside one may fall inside that word.
std::optional<std::size_t> leading_words_end(std::string_view text, std::size_t begin,
                                             std::size_t end, int k, const PhraseReader& reader) {
  int seen = 0;
  const Token* last = nullptr;
  for (const Token& t : words_of(text)) {
    if (t.begin < begin || t.end > end || !t.word || reader.is_function(t.text(text))) continue;
    if (seen == k) {
      if (t.single_han || (last && last->single_han)) return std::nullopt;
      return t.begin;
    }
    ++seen;
    last = &t;
  }
  return std::nullopt;
}

int content_words(std::string_view text, const PhraseReader& reader) {
  int n = 0;
  for (const Token& t : words_of(text)) n += t.word && !reader.is_function(t.text(text));
  return n;
}

// A fragment ending in 的 names a modifier (海外的呢, B类的呢, 住宿的): it takes the place of the
// previous question's parallel item (境外A类 → B类) or of the topic's leading words (国内出差的餐补
// → 海外出差的餐补, 餐饮发票 → 住宿的发票), or goes in front of a one-word topic (周末的加班费) —
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
  // The history's own 的 after the item stays the only one (今年|的 + 去年的 → 去年的).
  if (const auto at = parallel_item(prev, item, reader))
    return std::pair{splice(at->first, at->second, prev.substr(at->second).starts_with("的") ? item : frag),
                     "ellipsis:parallel"};
  const std::vector<Token> tokens = words_of(prev);
  const int k = content_words(item, reader);
  // The 的-modifier at the topic (国内出差|的|餐补, 今年|的|合规审计) or, without one, the topic.
  const std::size_t de = prev.substr(0, topic.end + 3).find("的");
  if (de == std::string_view::npos) {
    if (const auto e = leading_words_end(prev, topic.begin, topic.end, k, reader))
      return std::pair{splice(topic.begin, *e, frag), "ellipsis:modifier"};
    // A topic of no more words than the modifier is its head: the modifier goes in front
    // (加班费 + 周末的 → 周末的加班费) — unless a lone character stands before it, which may be
    // the first piece of the topic's own word (大|会议室).
    const bool lone_before = std::any_of(tokens.begin(), tokens.end(), [&](const Token& t) {
      return t.end == topic.begin && t.single_han && !reader.is_function(t.text(prev));
    });
    if (topic.words <= k && !lone_before)
      return std::pair{splice(topic.begin, topic.begin, frag), "ellipsis:modifier"};
    return std::nullopt;
  }
  std::size_t mod_begin = std::min<std::size_t>(topic.begin, de);
  for (const Token& t : tokens)
    if (t.end == de && t.word && t.begin < mod_begin) mod_begin = t.begin;
  if (content_words(prev.substr(mod_begin, de - mod_begin), reader) <= k)
    return std::pair{splice(mod_begin, de + 3, frag), "ellipsis:de"};
  if (const auto e = leading_words_end(prev, mod_begin, de, k, reader))
    return std::pair{splice(mod_begin, *e, item), "ellipsis:de"};
  return std::nullopt;
}

// Runs joined by a linking word into one noun phrase: 深圳园区|的|停车费, 仲裁|和|诉讼,
// 合同台账|里|XH-HT-2025-0084. Returns the end of the phrase that starts with spans[first].
bool is_link(std::string_view gap) {
  return gap == "的" || gap == "和" || gap == "跟" || gap == "与" || gap == "及" || gap == "里" ||
         gap == "中";
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

// An ASCII fragment of digits in place of the digits of an identifier (VPN-1001 + 3001 →
// VPN-3001); nullopt when the previous question holds no identifier ending in digits.
std::optional<std::string> renumbered(std::string_view prev, std::string_view frag) {
  if (frag.empty() || !std::all_of(frag.begin(), frag.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
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
  return std::nullopt;
}

bool is_determiner(std::string_view w) {
  return w == "the" || w == "a" || w == "an" || w == "my" || w == "your" || w == "our" ||
         w == "his" || w == "her" || w == "their" || w == "its";
}

bool ascii_text(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

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
  for (const Span& s : spans) {
    for (const Token& t : words_of(slice(prev, s.begin, s.end))) {
      const std::string_view w = t.text(slice(prev, s.begin, s.end));
      if (!t.word || reader.is_function(w)) continue;
      for (std::string_view f : fw)
        if (f == w && !is_determiner(f) && f != "one") target = &s;
    }
  }
  if (target == nullptr) target = &spans.back();
  std::uint32_t begin = target->begin;
  if (det) {  // the fragment's determiner replaces the phrase's (my access badge → a parking permit)
    const std::vector<Token> pt = words_of(prev.substr(0, begin));
    for (std::size_t i = pt.size(); i-- > 0;) {
      if (!pt[i].word) continue;
      if (is_determiner(pt[i].text(prev))) begin = pt[i].begin;
      break;
    }
  }
  std::string sub(frag);
  if (one) {
    const std::string_view phrase = slice(prev, target->begin, target->end);
    const std::size_t sp = phrase.rfind(' ');
    sub = std::string(frag.substr(0, frag.size() - 3)) +
          std::string(sp == std::string_view::npos ? phrase : phrase.substr(sp + 1));
  }
  return std::string(prev.substr(0, begin)) + sub + std::string(prev.substr(target->end));
}

}  // namespace

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

namespace {

// The noun phrase a who-question asks about (公司的DPO是谁 → 公司的DPO): the content spans before
// 谁, joined over linking words; nullopt when the question asks no "who".
std::optional<std::string> who_was_asked(std::string_view prev, const std::vector<Span>& spans,
                                         const ScannedQuery& scan, const LexiconIds& ids) {
  std::optional<CueHit> who;
  for (const CueHit& h : scan.hits)
    if (h.list == ids.question_word && slice(prev, h.begin, h.end) == "谁") who = h;
  if (!who) return std::nullopt;
  std::size_t last = spans.size();
  for (std::size_t k = 0; k < spans.size(); ++k)
    if (spans[k].end <= who->begin) last = k;
  if (last == spans.size()) return std::nullopt;
  std::size_t first = last;
  while (first > 0 && is_link(slice(prev, spans[first - 1].end, spans[first].begin))) --first;
  return std::string(slice(prev, spans[first].begin, spans[last].end));
}

// A name (a run of characters ICU does not know) in `turn`, with the names coordinated with it
// (鹿晗和关晓彤) when `plural`.
std::optional<std::string> name_in(std::string_view turn, const PhraseReader& reader, bool plural) {
  const std::vector<Span> spans = reader.spans(turn);
  for (std::size_t k = 0; k < spans.size(); ++k) {
    if (!spans[k].name_like) continue;
    std::size_t last = k;
    while (plural && last + 1 < spans.size() &&
           is_link(slice(turn, spans[last].end, spans[last + 1].begin)) &&
           slice(turn, spans[last].end, spans[last + 1].begin) != "的")
      ++last;
    return std::string(slice(turn, spans[k].begin, spans[last].end));
  }
  return std::nullopt;
}

// Whom 他 / 她 / 他们 stands for: a name in the newest turn; else the one the previous question
// asked about (公司的DPO是谁 → 公司的DPO); else a name in an older turn of the window. Nullopt
// leaves it to the thing rule (the previous question's most specific phrase).
std::optional<std::string> person_antecedent(const std::vector<std::string_view>& window,
                                             std::string_view prev, const std::vector<Span>& prev_spans,
                                             const ScannedQuery& prev_scan, std::string_view pronoun,
                                             const PhraseReader& reader) {
  const bool plural = pronoun.ends_with("们") || pronoun == "they" || pronoun == "them";
  if (auto name = name_in(window.front(), reader, plural)) return name;
  if (auto who = who_was_asked(prev, prev_spans, prev_scan, reader.lex().ids())) return who;
  for (std::size_t i = 1; i < window.size(); ++i)
    if (auto name = name_in(window[i], reader, plural)) return name;
  return std::nullopt;
}

// Bytes of the longest tail of `antecedent` that `rest` starts with (模板 of 供应商合同模板 in
// 模板能改…); 0 when none.
std::size_t shared_head(std::string_view antecedent, std::string_view rest) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < antecedent.size();) {
    const std::string_view tail = antecedent.substr(i);
    if (tail.size() > best && rest.starts_with(tail)) best = tail.size();
    next_code_point(antecedent, i);
  }
  return best;
}

// The rewrite of a turn without social words around it.
Rewrite rewrite_turn(std::string_view question, const std::vector<std::string>& history,
                     const Lexicon& lex, const WordSet& words) {
  const LexiconIds& ids = lex.ids();
  const RewriteConfig& cfg = lex.config().rewrite;
  Rewrite r;
  r.query = std::string(question);
  r.by = "builtin";
  if (history.empty()) {
    r.reasons.push_back("no_history");
    return r;
  }
  const PhraseReader reader(lex, words);
  // The window: the last turns, newest first. The previous question is the newest turn that
  // reads like a question (history may hold the assistant's answers too).
  const std::size_t n = std::min<std::size_t>(history.size(), static_cast<std::size_t>(cfg.window_turns));
  std::vector<std::string_view> window;
  for (std::size_t i = 0; i < n; ++i) window.push_back(history[history.size() - 1 - i]);
  std::string_view prev = window.front();
  bool prev_is_question = false;
  for (std::string_view turn : window) {
    const ScannedQuery tq = lex.scan(NormalizedQuery{std::string(turn), 0});
    if (question_like(turn, tq, ids)) {
      prev = turn;
      prev_is_question = true;
      break;
    }
  }
  const std::vector<Span> prev_spans = reader.spans(prev);
  const ScannedQuery prev_scan = lex.scan(NormalizedQuery{std::string(prev), 0});
  // The topic anchor: the previous question's first content span.
  const Span* const topic = prev_spans.empty() ? nullptr : &prev_spans.front();
  // …extended over linking words into its noun phrase (深圳园区的停车费, 仲裁和诉讼,
  // 合同台账里XH-HT-2025-0084).
  const std::uint32_t subject_end = topic ? phrase_end(prev, prev_spans, 0) : 0;
  if (topic) r.topic_anchor = std::string(slice(prev, topic->begin, subject_end));
  r.history_summary = history_summary(question, history, r.topic_anchor);

  const ScannedQuery q = lex.scan(NormalizedQuery{std::string(question), 0});
  const std::string_view text = trim_end(question);
  // Every rewrite passes the garble check (rewrite_check.hpp) or falls back to the anchor and
  // the turn — or, should that fail too, to the turn alone.
  const RewriteSources sources{trim_end(q.content()), window, r.topic_anchor, cfg.max_growth};
  auto done = [&](std::string out, const char* reason) {
    r.reasons.push_back(reason);
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

  // 1. A pronoun: its antecedent in its place.
  for (auto [list, person] : {std::pair{ids.person_pronoun, true}, std::pair{ids.thing_pronoun, false}}) {
    const auto hit = first_hit(q, list);
    if (!hit || hit->end > text.size()) continue;
    std::optional<std::string> antecedent;
    if (person)
      antecedent = person_antecedent(window, prev, prev_spans, prev_scan,
                                     slice(text, hit->begin, hit->end), reader);
    // A thing: the previous question's most specific span (the longest; 公司的保密协议在哪里签
    // → 保密协议), the subject when they tie. A modifier (公司|的) and a quantity (几|条线) are
    // what a thing is described by, not the thing: they come last.
    // An identifier or a 《title》 is the entity the question is about, ahead of any longer
    // run (合同台账里XH-HT-2025-0084是什么合同 → XH-HT-2025-0084), and keeps the container it was
    // looked up in.
    if (!antecedent && topic) {
      // A run looked up in a container (软件授权清单里Navicat Premium) is such an entity too.
      auto entity = [&](std::size_t k) {
        return prev_spans[k].strong || container_begin(prev, prev_spans, k) != prev_spans[k].begin;
      };
      auto describes = [&](std::size_t k) {
        if (slice(prev, prev_spans[k].end, prev_spans[k].end + 3) == "的") return true;
        for (const CueHit& h : prev_scan.hits)
          if (h.list == ids.question_word && h.end == prev_spans[k].begin) return true;
        return false;
      };
      std::size_t best = 0;
      for (std::size_t k = 1; k < prev_spans.size(); ++k) {
        const bool e = entity(k), eb = entity(best);
        const bool d = describes(k), db = describes(best);
        if (e != eb ? e : d != db ? !d : prev_spans[k].words > prev_spans[best].words) best = k;
      }
      const std::uint32_t begin = entity(best) ? container_begin(prev, prev_spans, best)
                                               : prev_spans[best].begin;
      antecedent = std::string(slice(prev, begin, prev_spans[best].end));
    }
    if (!antecedent) break;
    // A demonstrative with its noun (这个模板, 这个假): the noun is the antecedent's head, and the
    // whole phrase takes the antecedent's place (供应商合同模板能改…, 休产假期间…).
    const std::size_t head = shared_head(*antecedent, text.substr(hit->end));
    std::string out(text.substr(0, hit->begin));
    out = join(out, *antecedent);
    out = join(out, text.substr(hit->end + head));
    return done(std::move(out), person ? "pronoun:person" : head ? "pronoun:head" : "pronoun");
  }
  if (!topic) return done(std::string(question), "no_antecedent");

  // Strip the ellipsis markers around a fragment: 那…呢, what about …
  std::string_view frag = text;
  if (const auto m = first_hit(q, ids.ellipsis_marker); m && m->begin == 0) frag = trim_start(frag.substr(m->end));
  // Only 呢 is a pure ellipsis particle: 吗 asks (好看吗) and 么 ends 什么 / 为什么.
  const bool asks_ne = frag.ends_with("呢");
  if (asks_ne) frag = trim_end(frag.substr(0, frag.size() - 3));
  // The previous turn without its trailing punctuation, but never shorter than its topic span:
  // a span may keep characters trimming drops ("search_'"), and the rewrites below cut this text
  // at the span's offsets (issue 11's analyze fuzzer: out_of_range).
  const std::string_view prev_text =
      prev.substr(0, std::max<std::size_t>(trim_end(prev).size(), topic ? topic->end : 0));

  // 2. A condition: the topic goes after its marker (如果没休完怎么办 → 如果年假没休完怎么办).
  if (const auto m = first_hit(q, ids.condition_marker); m && m->begin == 0) {
    const std::string_view rest = text.substr(m->end);
    if (rest.find(r.topic_anchor) != std::string_view::npos)
      return done(std::string(question), "condition_has_topic");
    // The particle 呢 of a condition asks what to do (万一弄丢了呢 → …弄丢了怎么办).
    std::string_view body = rest;
    const bool ne = body.ends_with("呢");
    if (ne) body = trim_end(body.substr(0, body.size() - 3));
    std::string out = join(join(text.substr(0, m->end), r.topic_anchor), body);
    if (ne) out += "怎么办";
    return done(std::move(out), "condition");
  }

  // 3. A comparison: attached to the previous question's subject (跟去年比呢).
  if (const auto m = first_hit(q, ids.comparison_marker); m && m->begin == 0) {
    // The previous question up to what it asked (现在满1年不满10年年假|几天), or its subject
    // phrase when that runs further.
    std::uint32_t frame_end = subject_end;
    if (const auto w = first_hit(prev_scan, ids.question_word))
      for (const Span& sp : prev_spans)
        if (sp.end <= w->begin && sp.end > frame_end) frame_end = sp.end;
    std::string out = std::string(trim_end(slice(prev, 0, frame_end)));
    out = join(out, frag);
    if (frag.ends_with("比")) out += "怎么样";
    return done(std::move(out), "comparison");
  }

  // 3b. Which of two (哪个快一点, 两者有啥区别): the pair the window coordinated, newest turn
  // first, stands in front — not the previous question's predicate (仲裁和诉讼都能走吗).
  if (asks_which(text) && !coordinated_pair(text, words))
    for (std::string_view turn : window)
      if (auto pair = coordinated_pair(trim_end(turn), words))
        return done(which_of_pair(*pair, text), "which_of_pair");

  const std::vector<Span> spans = reader.spans(frag);
  // A question word of the fragment itself (not of a marker: how about …).
  const std::size_t frag_at = static_cast<std::size_t>(frag.data() - question.data());
  bool predicate = a_not_a(frag);
  for (const CueHit& h : q.hits)
    predicate = predicate || (h.list == ids.question_word && h.begin >= frag_at &&
                              h.end <= frag_at + frag.size());

  // 4. An elliptical fragment without its own predicate: in the previous question's place.
  // …了呢 asks about an event, not a thing: what happens if it occurs (超时了呢 → 访客车位超时了
  // 怎么办, 没满就走了呢). Without 呢 it reports an event (搞定了): not a question to complete.
  if (!predicate && !spans.empty() && asks_ne && frag.ends_with("了"))
    return done(join(r.topic_anchor, frag) + "怎么办", "condition:event");
  if (!predicate && !asks_ne && frag.ends_with("了") && !question_like(text, q, ids))
    return done(std::string(question), "event_report");
  // 4. …with one run of content words (a clause of several runs has a frame of its own).
  if (!predicate && !spans.empty() && (spans.size() == 1 || ascii_text(frag))) {
    // A modifier with no safe place in the history (its head cut by ICU, 大|会议|室) is not
    // spliced at a guess: the anchor and the turn still retrieve.
    if (frag.ends_with("的")) {
      if (auto out = modifier_substitute(prev_text, *topic, frag, reader))
        return done(std::move(out->first), out->second);
      r.reasons.push_back("rewrite:fallback:no_place");
      return done(GarbleCheck(sources, words).fallback(), "ellipsis:modifier");
    }
    // English: the fragment in the place of the matching noun phrase.
    if (ascii_text(frag) && ascii_text(prev_text))
      if (auto out = english_substitute(prev_text, frag, reader))
        return done(std::move(*out), "ellipsis:english");
    // Digits in place of an identifier's digits (VPN-1001 + 3001呢 → VPN-3001).
    if (auto out = renumbered(prev_text, frag)) return done(std::move(*out), "ellipsis:id");
    // An ASCII word replaces the previous question's ASCII word (Windows ↔ Mac).
    const Span& x = spans.front();
    if (x.ascii && topic->ascii)
      return done(join(join(std::string(prev_text.substr(0, topic->ascii_begin)), frag),
                       prev_text.substr(topic->ascii_end)),
                  "ellipsis:ascii");
    // A parallel item with the same head word takes that item's place (试用期员工能签保密协议吗
    // + 那竞业协议呢 → …签竞业协议吗; 员工餐厅早餐几点 + 午餐呢 → 员工餐厅午餐几点).
    if (const auto at = parallel_item(prev_text, frag, reader))
      return done(join(join(std::string(prev_text.substr(0, at->first)), frag),
                       prev_text.substr(at->second)),
                  "ellipsis:parallel");
    // An aspect of a domain topic sits beside it (报销 + 审批 → 报销审批流程); a parallel
    // item takes the topic's place (年假 → 病假, 北京 → 上海).
    const std::string_view first_word = slice(prev, topic->begin, topic->first_end);
    const int topic_source = source_of(lex, first_word);
    if (topic->words >= 2 && topic_source >= 0 && source_of(lex, frag) != topic_source)
      return done(join(join(std::string(prev_text.substr(0, topic->first_end)), frag),
                       prev_text.substr(topic->first_end)),
                  "ellipsis:aspect");
    // Otherwise the fragment takes the topic's place: all of a short topic (哺乳假 → 陪产假;
    // ICU often splits one compound into two words), but of a long one only as many leading
    // words as the fragment has (研发中心年会 + 销售中心的呢 → 销售中心的年会; 普通员工一类城市
    // 住宿标准 + 经理级别呢 → 经理级别一类城市住宿标准): replacing a long topic whole would drop
    // what the question is about.
    std::uint32_t replace_end = topic->end;
    const char* how = "ellipsis";
    // Never cut inside a run of one-character words: that is a name ICU does not know, and
    // half a name is noise.
    if (topic->words >= 3) {
      const int keep = std::min(spans.front().words, topic->words - 1);
      const std::vector<Token> tokens = segment_words(prev_text);
      int seen = 0;
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (!t.word || t.begin < topic->begin || t.end > topic->end || ++seen != keep) continue;
        const bool splits_name =
            t.single_han && i + 1 < tokens.size() && tokens[i + 1].single_han;
        if (!splits_name) {
          replace_end = t.end;
          how = "ellipsis:modifier";
        }
        break;
      }
    }
    return done(join(join(std::string(prev_text.substr(0, topic->begin)), frag),
                     prev_text.substr(replace_end)),
                how);
  }

  // 5. A bare predicate (怎么申请呢, 多少钱, 好看吗): the topic in front, unless it is there.
  // After a statement (合同已经盖完章签好了 + 接下来还要做什么) the whole statement is the frame the
  // question continues.
  if (std::string_view(question).find(r.topic_anchor) != std::string_view::npos)
    return done(std::string(question), "has_topic");
  if (!prev_is_question) return done(join(prev_text, frag), "statement_prefix");
  return done(join(r.topic_anchor, frag), "topic_prefix");
}

// The turn without greetings, thanks, goodbyes and acknowledgements at its edges (谢谢，那年假呢
// → 那年假呢). Politeness stays: `can i` still frames the question.
std::string_view without_social_edges(std::string_view text, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  const ScannedQuery q = lex.scan(NormalizedQuery{std::string(text), 0});
  const auto [b, e] = trim_edges(q, {ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement});
  return b < e ? text.substr(b, e - b) : text;
}

}  // namespace

// The social words around a follow-up (谢谢，那年假呢; 好的，那病假呢，谢谢) are no part of what it
// asks: the turn without them is rewritten, so they never land inside the rewrite.
Rewrite rewrite_follow_up(std::string_view question, const std::vector<std::string>& history,
                          const Lexicon& lex, const WordSet& words) {
  const std::string_view content = without_social_edges(question, lex);
  if (content.empty() || content.size() == question.size() || history.empty())
    return rewrite_turn(question, history, lex, words);
  Rewrite r = rewrite_turn(content, history, lex, words);
  if (!r.rewritten) r.query = std::string(question);
  r.rewritten = r.query != question;
  r.history_summary = history_summary(question, history, r.topic_anchor);
  return r;
}

}  // namespace qaplan::internal
