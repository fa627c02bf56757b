#pragma once
// How the rewriter reads a text: ICU's words (segment.hpp) with IDs and 《titles》 kept whole, and
// the runs of content words between function words (Span) that its rules cut and splice. Also the
// small text helpers the rewrite rules share (slices, joins, trims, question shape).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planning/analysis/constraints.hpp"
#include "planning/segment.hpp"
#include "planning/lexicon.hpp"

namespace qaplan::internal {

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

/// An identifier-shaped ASCII word: letters and digits, or words joined by a connector
/// (XH-HT-2025-0084, XH-Connect, vpn.xinghe-tech.com, PRN-0040).
bool id_like(std::string_view w);

/// ICU's words with the units a reader keeps whole: ASCII words joined by - _ . / without spaces
/// (an ID, a hyphenated name, a host name) are one word, and so is a 《book title》.
std::vector<Token> words_of(std::string_view text);
/// The same into `out`, whose storage is reused.
void words_of_into(std::string_view text, std::vector<Token>& out);

// Splits text into content-word phrases (runs between function words).
class PhraseReader {
 public:
  PhraseReader(const Lexicon& lex, const WordSet& words) : lex_(lex), function_(words) {}

  bool is_function(std::string_view word) const { return function_.contains(word); }
  /// A Han word of two or more characters that are each a function word (我想, 你在).
  bool of_function_chars(std::string_view word) const;

  // Runs of content words. A run ends at a function word, at a word holding a question word
  // (几年, 多少) and before a lone one-character word that is followed by another content word
  // or by an aspect particle — in Chinese that is nearly always a verb (签保密协议, 坏了,
  // 换一次), while a lone character at the end of a run is a suffix (打车费, 报销单). Runs of
  // one-character words are names ICU does not know (姚笛) and stay together.
  std::vector<Span> spans(std::string_view text) const;

  const Lexicon& lex() const { return lex_; }

 private:
  std::vector<bool> function_marks(std::string_view text, const std::vector<Token>& tokens,
                                   const std::vector<CueHit>& questions) const;

  const Lexicon& lex_;
  const WordSet& function_;
};


std::string_view slice(std::string_view s, std::uint32_t b, std::uint32_t e);
/// a == b, compared inline from the last byte (a Han character's differs most): words are a few
/// bytes, and a memcmp call per comparison cost more than the comparison.
inline bool same_bytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return false;
  return true;
}
/// A lone character that makes a word with the word before it (私有|化, 著作|权, 差旅|费): a
/// derivational suffix or a bound head, never a verb.
bool suffix(std::string_view c);
/// Every byte an ASCII digit, and at least one (2016, 5000).
bool all_digits(std::string_view w);

/// Token i of `t` (function marks `fn`), a lone function character, opens a compound ICU did not
/// know (对|公|转账, 在|职|员工): it opens a clause before a lone character and a word.
bool opens_unknown_compound(std::string_view text, const std::vector<Token>& t,
                            const std::vector<bool>& fn, std::size_t i);
/// 这, 那, 哪, 每, 某, 该: a demonstrative, before a classifier (这|家, 那|部).
/// A word that says when (周末, 每天, 平时, 下个月): it frames a question, it is not what the
/// question is about — yet one such word parallels another (周末 + 平时呢).
bool temporal(std::string_view w);
/// A fragment that only says when, in one or more words: 周日下午, 明天晚上, and a public holiday
/// or break with 期间 / 前 / 后 (春节期间, 节假日, 暑假).
bool temporal_phrase(std::string_view frag);
/// A public holiday or a break by name (国庆, 中秋节, 暑假, 节假日).
bool names_a_break(std::string_view w);
/// A word that is or begins with an adverb, which opens a predicate and never a noun: after a
/// subject (马斯克|又|上热搜了, 梅西|已经…) or after a classifier (那部|挺好|看吗, 这场|最高…).
bool opens_with_adverb(std::string_view w);
/// True when every character of `w` is an adverb of degree, time or negation (还没, 刚, 也, 不):
/// what ICU glues to a speaker (我不|想去) or puts before a verb (上周刚|吃过).
bool adverbs_only(std::string_view w);
/// `s` without one sentence-final particle (吗, 呢, 吧, 呗, 啊, 呀, 哦, 嘛, 啦), never emptied.
std::string_view without_closing_particle(std::string_view s);
/// 吗, 呢, 吧 …: a particle that closes a question or a request.
bool closing_particle(std::string_view w);
/// What the rewriter says itself when it completes a case or a comparison (要是丢了呢 → …丢了怎么办,
/// 跟上海比呢 → …跟上海比怎么样). The garble check reads them as a source: ICU may cut 怎么|办 where
/// the history has 办理, and 办 is then no piece of a history word.
inline constexpr std::string_view kWhatToDo = "怎么办";
inline constexpr std::string_view kHowItCompares = "怎么样";
inline constexpr std::string_view kWhatNext = "之后的流程是什么";
inline constexpr std::string_view kExpedite = "能加急吗";
inline constexpr std::string_view kLimits[] = {"金额限制", "容量限制", "大小限制"};
inline constexpr std::string_view kRewriterPhrases[] = {kWhatToDo, kHowItCompares, kWhatNext,
                                                        kExpedite, kLimits[0], kLimits[1],
                                                        kLimits[2]};
/// Drops a modal of ability or need opening `s` (可以, 能够, 需要, 能, 要: 可以在网点兑换 →
/// 在网点兑换); true when one was there.
bool drop_modal(std::string_view& s);
/// 怎么, 如何, 怎样, 咋: a question word that asks how, before the verb it asks about.
bool manner_word(std::string_view w);
/// The turn is only "why" (为什么, 为啥, 为何): it asks why of what was said before.
bool bare_why(std::string_view turn);
bool demonstrative(std::string_view w);
/// A one-character classifier (个, 家, 部, 本 …) that counts the noun after it.
bool classifier(std::string_view c);
/// A word that counts (一家, 两部) or picks from a set (所有, 这些, 其中).
bool counts_or_picks(std::string_view w);
/// A word that counts (几杯, 一张, 两天): it starts with a numeral or 几.
bool counting(std::string_view w);
/// Without trailing punctuation, spaces and emoji.
std::string_view trim_end(std::string_view s);
/// Without leading non-word characters.
std::string_view trim_start(std::string_view s);
/// True when `word` is one of `list` (a cue list of the rules file, read as a set).
bool listed(const std::vector<std::string>& list, std::string_view word);
/// The first clause of `s`: up to its first clause break (，,；;。), or all of it.
std::string_view first_clause(std::string_view s);
/// The last clause of `s`: after its last clause break, without leading non-word characters.
std::string_view last_clause(std::string_view s);
/// 难不难, 好不好, 能不能: a character, 不, the same character again asks a yes-no question.
bool a_not_a(std::string_view text);
bool question_like(std::string_view text, const ScannedQuery& q, const LexiconIds& ids);
/// The first hit of `list` in q, if any.
std::optional<CueHit> first_hit(const ScannedQuery& q, std::uint32_t list);
/// The source index whose keywords contain `word` exactly, or -1.
int source_of(const Lexicon& lex, std::string_view word);
/// a + b; ASCII words keep a space between them, Chinese needs none.
std::string join(std::string_view a, std::string_view b);
std::string_view last_code_point(std::string_view s);
bool ascii_text(std::string_view s);
/// Content words (not function words) of the text.
int content_words(std::string_view text, const PhraseReader& reader);

/// A linking word between two runs of one noun phrase: 深圳园区|的|停车费, 仲裁|和|诉讼,
/// 合同台账|里|XH-HT-2025-0084.
bool is_link(std::string_view gap);
/// The end of the noun phrase that starts with spans[first] (runs joined by linking words).
std::uint32_t phrase_end(std::string_view text, const std::vector<Span>& spans, std::size_t first);
/// The start of a span that sits in a container (合同台账里XH-HT-2025-0084, 会议室清单中天枢):
/// the container's start, else the span's own.
std::uint32_t container_begin(std::string_view text, const std::vector<Span>& spans, std::size_t k);

}  // namespace qaplan::internal
