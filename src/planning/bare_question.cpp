#include "planning/bare_question.hpp"

#include <algorithm>
#include <cctype>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/segment.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {
namespace {

// The longest of `words` that text[i..] starts with (an ASCII word only where a word ends), in
// bytes; 0 when none.
std::size_t function_word_at(std::string_view text, std::size_t i,
                             const std::vector<std::string>& words) {
  std::size_t best = 0;
  for (const std::string& w : words) {
    // The first byte rules out nearly every word before a comparison is called.
    if (w.size() <= best || w[0] != text[i] || text.compare(i, w.size(), w) != 0) continue;
    const bool ascii = static_cast<unsigned char>(w.back()) < 0x80;
    const std::size_t end = i + w.size();
    if (ascii && end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) continue;
    best = w.size();
  }
  return best;
}

}  // namespace

int residual_units(const ScannedQuery& q, const Lexicon& lex) {
  const std::string_view text = q.query.text;
  const std::vector<std::string>& fw = lex.config().rewrite.function_words;
  const std::vector<bool> asked = cue_coverage(q, {lex.ids().question_word});
  int units = 0;
  bool in_word = false;
  for (std::size_t i = q.content_begin; i < q.content_end;) {
    const bool word_start = !in_word;
    if (asked[i]) {
      ++i;
      in_word = false;
      // 几 asks with the character that counts (几天, 几个, 几次): that is asked too.
      if (i < q.content_end && !asked[i] && text.substr(0, i).ends_with("几")) {
        std::size_t j = i;
        if (const std::int32_t cp = next_code_point(text, j); cp >= 0 && is_han(cp)) i = j;
      }
      continue;
    }
    if (const std::size_t n = word_start ? function_word_at(text, i, fw) : 0; n > 0) {
      i += n;
      continue;
    }
    const std::int32_t cp = next_code_point(text, i);
    const bool alnum = cp >= 0 && cp < 0x80 && std::isalnum(cp);
    if (cp >= 0 && is_han(cp)) ++units;
    if (alnum && !in_word) units += 2;
    in_word = alnum;
  }
  return units;
}

bool bare_question(const ScannedQuery& q, const Lexicon& lex) {
  const int max_units = lex.config().intent.bare_question_max_units;
  return max_units > 0 && q.has_in_content(lex.ids().question_word) &&
         q.query.query_units <= 4 * max_units && residual_units(q, lex) <= max_units;
}

namespace {

// A term of the KB that starts the text and ends past `end`.
bool term_runs_past(std::string_view text, std::size_t end, const DomainLexicon* kb) {
  if (kb == nullptr) return false;
  thread_local std::vector<DomainLexicon::Hit> hits;
  kb->scan(text, hits);
  return std::any_of(hits.begin(), hits.end(),
                     [&](const DomainLexicon::Hit& h) { return h.begin == 0 && h.end > end; });
}

}  // namespace

namespace {

// The first word of `clause` (ICU's) is one of [intent] subjectless_openers and no KB term starting
// with it runs past it (一般纳税人 where ICU reads 一般|纳税人).
bool opens_with_opener(std::string_view clause, const IntentConfig& c, const DomainLexicon* kb) {
  // Bytes first: the word break runs only when an opener could be the first word.
  auto opens = [&](const std::string& w) { return clause.starts_with(w); };
  if (std::none_of(c.subjectless_openers.begin(), c.subjectless_openers.end(), opens)) return false;
  const std::vector<Token> words = segment_words(clause);
  if (words.empty()) return false;
  const std::string_view first = words.front().text(clause);
  // 对 heads many compounds ICU cuts after it (对|公转账, 对|口, 对|接人, 对|账单): as the
  // preposition that leaves its subject out it stands before a word of its own in a yes-or-no
  // question (对|信用记录|有影响吗); one asking what or how (对新人有什么福利, 对账单怎么下载) names
  // its own topic.
  if (first == "对" &&
      (words.size() < 2 || words[1].single_han || !clause.ends_with("吗")))
    return false;
  return std::find(c.subjectless_openers.begin(), c.subjectless_openers.end(), first) !=
             c.subjectless_openers.end() &&
         !term_runs_past(clause, words.front().end, kb);
}

// Bytes of the clause break at text[i] (normalized: ，；？！ are ASCII), 0 when there is none.
std::size_t clause_break(std::string_view text, std::size_t i) {
  const char b = text[i];
  if (b == ',' || b == ';' || b == '?' || b == '!') return 1;
  return text.compare(i, 3, "。") == 0 ? 3 : 0;
}

// A turn of two or three clauses, each within subjectless_max_units, each opening with an opener
// or a question word, one with an opener at least (一般几天，需要提前申请吗; 要多久，怎么加急): no
// clause names a subject. A clause that opens any other way may (一般来说，公司的年假有几天).
bool subjectless_clauses(const ScannedQuery& q, const Lexicon& lex, const DomainLexicon* kb) {
  const IntentConfig& c = lex.config().intent;
  const std::string_view text = q.query.text;
  int clauses = 0;
  bool opener = false;
  for (std::size_t b = q.content_begin; b < q.content_end;) {
    std::size_t e = b;
    while (e < q.content_end && clause_break(text, e) == 0) ++e;
    std::string_view clause = text.substr(b, e - b);
    b = e < q.content_end ? e + clause_break(text, e) : e;
    while (!clause.empty() && clause.front() == ' ') clause.remove_prefix(1);
    while (!clause.empty() && clause.back() == ' ') clause.remove_suffix(1);
    if (clause.empty()) continue;
    if (++clauses > 3 || count_query_units(clause) > c.subjectless_max_units ||
        clause.starts_with("要不要"))
      return false;
    const std::size_t at = static_cast<std::size_t>(clause.data() - text.data());
    const bool asks = std::any_of(q.hits.begin(), q.hits.end(), [&](const CueHit& h) {
      return h.list == lex.ids().question_word && h.begin == at;
    });
    const bool opens = opens_with_opener(clause, c, kb);
    if (!opens && !asks) return false;
    opener = opener || opens;
  }
  return clauses >= 2 && opener;
}

}  // namespace

bool which_without_noun(const ScannedQuery& q, const Lexicon& lex) {
  const IntentConfig& c = lex.config().intent;
  const std::string_view content = q.content();
  if (q.query.query_units > 2 * c.subjectless_max_units) return false;
  std::size_t which = 0;  // bytes of the longest which-word opening the content
  for (const std::string& w : c.subjectless_which)
    if (w.size() > which && content.starts_with(w)) which = w.size();
  if (which == 0) return false;
  // ICU may read the which-word as one word (哪些) or two (哪|家): it must end where a word does.
  const std::vector<Token> words = segment_words(content);
  const auto after = std::find_if(words.begin(), words.end(), [&](const Token& k) { return k.begin == which; });
  if (after == words.end()) return false;
  // What can follow a which-word but no noun can start: a particle, a copula, a preposition, a
  // degree adverb, a passive, or an opener (a modal or an adverb).
  const std::string_view next = after->text(content);
  for (std::string_view w : {"的", "是", "在", "最", "更", "比较", "被"})
    if (next == w) return true;
  return std::find(c.subjectless_openers.begin(), c.subjectless_openers.end(), next) !=
         c.subjectless_openers.end();
}

bool subjectless_question(const ScannedQuery& q, const Lexicon& lex, const DomainLexicon* kb) {
  const IntentConfig& c = lex.config().intent;
  const std::string_view content = q.content();
  // 要不要… proposes (要不要一起吃火锅) as often as it asks about a topic: no witness either way.
  if (content.starts_with("要不要")) return false;
  if (q.query.query_units > c.subjectless_max_units) return subjectless_clauses(q, lex, kb);
  // A time word first (周末也来吗, 晚上能办理吗): the opener after it names no subject either —
  // unless it asks what there is then (周末有什么活动, 晚上有哪些课): a topic of its own.
  for (const std::string& w : c.subjectless_times)
    if (content.starts_with(w) && content.size() > w.size()) {
      const std::string_view rest = content.substr(w.size());
      for (std::string_view what : {"有什么", "有哪些", "有啥", "有没有什么"})
        if (rest.starts_with(what)) return false;
      if (rest.starts_with("也") || opens_with_opener(rest, c, kb)) return true;
    }
  return opens_with_opener(content, c, kb);
}

}  // namespace qaplan::internal
