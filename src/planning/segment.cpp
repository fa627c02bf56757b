#include "planning/segment.hpp"

#include <unicode/brkiter.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/cjk_dictionary.hpp"
#include "planning/domain_lexicon.hpp"
#include "planning/domain_trie.hpp"
#include "planning/lexicon.hpp"
#include "planning/matcher.hpp"

namespace qaplan::internal {
namespace {

// Creating a word iterator loads ICU's dictionaries (slow); each thread clones one prototype.
icu::BreakIterator* thread_iterator() {
  static const std::unique_ptr<icu::BreakIterator> prototype = [] {
    UErrorCode st = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> b(
        icu::BreakIterator::createWordInstance(icu::Locale::getChinese(), st));
    return U_SUCCESS(st) ? std::move(b) : nullptr;
  }();
  thread_local std::unique_ptr<icu::BreakIterator> mine(prototype ? prototype->clone() : nullptr);
  return mine.get();
}

}  // namespace

namespace {

// The text as UTF-16 for ICU, with each UTF-16 index's UTF-8 byte offset and its code point's
// class, decoded once (the tokens' flags are read off these, not by decoding again).
struct Utf16View {
  std::vector<char16_t> units;
  std::vector<std::uint32_t> byte_at;  // per UTF-16 index, and one past the end
  std::vector<std::uint8_t> cls;       // per UTF-16 index: kWord | kHan | kAscii, kLead on a lead unit
  static constexpr std::uint8_t kWord = 1, kHan = 2, kAscii = 4, kLead = 8;

  // One pass, written in place (no push_back per unit): a word break decodes every text it has
  // not seen, several per follow-up. ASCII and three-byte characters (every BMP ideograph) are
  // decoded and classed inline; the rest as everywhere else.
  void assign(std::string_view text) {
    const std::size_t bytes = text.size();
    units.resize(bytes);  // a UTF-16 unit per byte at most
    byte_at.resize(bytes + 1);
    cls.resize(bytes);
    const auto* b = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t n = 0;
    for (std::size_t i = 0; i < bytes;) {
      const auto at = static_cast<std::uint32_t>(i);
      const unsigned char b0 = b[i];
      std::int32_t cp;
      if (b0 < 0x80) {
        cp = b0;
        ++i;
      } else if (b0 >= 0xE1 && b0 <= 0xEF && b0 != 0xED && i + 2 < bytes &&
                 (b[i + 1] & 0xC0) == 0x80 && (b[i + 2] & 0xC0) == 0x80) {
        // Past E0 (overlong forms) and ED (surrogates): every such sequence is well-formed.
        cp = ((b0 & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F);
        i += 3;
      } else {
        cp = next_code_point(text, i);
      }
      std::uint8_t c;
      if (cp >= 0x4E00 && cp <= 0x9FFF) {
        c = kLead | kWord | kHan;  // CJK Unified Ideographs
      } else if (cp < 0x80) {
        c = is_ascii_alnum(cp) ? kLead | kWord | kAscii : kLead;
      } else {
        c = kLead;
        if (cp >= 0 && is_word_char(cp)) c |= kWord;
        if (cp >= 0 && is_han(cp)) c |= kHan;
      }
      const std::uint32_t u = cp < 0 ? 0xFFFD : static_cast<std::uint32_t>(cp);
      if (u >= 0x10000) {
        units[n] = static_cast<char16_t>(0xD800 + ((u - 0x10000) >> 10));
        units[n + 1] = static_cast<char16_t>(0xDC00 + ((u - 0x10000) & 0x3FF));
        byte_at[n] = byte_at[n + 1] = at;
        cls[n] = c;
        cls[n + 1] = static_cast<std::uint8_t>(c & ~kLead);
        n += 2;
      } else {
        units[n] = static_cast<char16_t>(u);
        byte_at[n] = at;
        cls[n] = c;
        ++n;
      }
    }
    units.resize(n);
    cls.resize(n);
    byte_at[n] = static_cast<std::uint32_t>(bytes);
    byte_at.resize(n + 1);
  }

  // The same decoded a code point at a time, as everywhere else: what a test holds assign() to.
  void assign_by_code_points(std::string_view text) {
    units.clear();
    byte_at.clear();
    cls.clear();
    for (std::size_t i = 0; i < text.size();) {
      const auto at = static_cast<std::uint32_t>(i);
      const std::int32_t cp = next_code_point(text, i);
      std::uint8_t c = kLead;
      if (cp >= 0 && is_word_char(cp)) c |= kWord;
      if (cp >= 0 && is_han(cp)) c |= kHan;
      if (cp >= 0 && is_ascii_alnum(cp)) c |= kAscii;
      const std::uint32_t u = cp < 0 ? 0xFFFD : static_cast<std::uint32_t>(cp);
      if (u >= 0x10000) {
        units.push_back(static_cast<char16_t>(0xD800 + ((u - 0x10000) >> 10)));
        units.push_back(static_cast<char16_t>(0xDC00 + ((u - 0x10000) & 0x3FF)));
        byte_at.insert(byte_at.end(), {at, at});
        cls.insert(cls.end(), {c, static_cast<std::uint8_t>(c & ~kLead)});
      } else {
        units.push_back(static_cast<char16_t>(u));
        byte_at.push_back(at);
        cls.push_back(c);
      }
    }
    byte_at.push_back(static_cast<std::uint32_t>(text.size()));
  }

  // The token over UTF-16 indices [p, q).
  Token token(std::size_t p, std::size_t q) const {
    Token t;
    t.begin = byte_at[p];
    t.end = byte_at[q];
    int chars = 0;
    bool han = true, ascii = true;
    for (std::size_t k = p; k < q; ++k) {
      if (!(cls[k] & kLead)) continue;
      ++chars;
      t.word = t.word || (cls[k] & kWord);
      han = han && (cls[k] & kHan);
      ascii = ascii && (cls[k] & kAscii);
    }
    t.single_han = han && chars == 1;
    t.ascii = ascii && chars > 0;
    return t;
  }
  // A word of a run of BMP ideographs [p, q) (each one unit, a word and Han: token() would say so).
  Token ideographs(std::size_t p, std::size_t q) const {
    return Token{byte_at[p], byte_at[q], true, q - p == 1, false};
  }
};

// What a UTF-16 unit is to the dictionary path: the characters whose word breaks follow from
// their own class alone (UAX #29 as ICU implements it), so no rule of the break iterator is needed.
enum class Part : std::uint8_t {
  kIdeograph,  // CJK Unified Ideographs (and extension A): a dictionary run
  kAlnum,      // ASCII letters and digits: a run is one word (WB5, WB8-10)
  kSpace,      // WSegSpace: a run is one token (WB3d)
  kMid,        // MidLetter/MidNum/MidNumLet/Single_Quote: alone unless between letters/digits
  kLone,       // punctuation and symbols that are always a token of their own (WB999)
  kRules,      // anything else: the break iterator's rules decide
};

bool cjk_script(char16_t u) {
  UErrorCode st = U_ZERO_ERROR;
  const UScriptCode sc = uscript_getScript(u, &st);
  return sc == USCRIPT_HAN || sc == USCRIPT_HIRAGANA || sc == USCRIPT_KATAKANA;
}

Part part_of(char16_t u) {
  if ((u >= 0x4E00 && u <= 0x9FFF) || (u >= 0x3400 && u <= 0x4DBF)) return Part::kIdeograph;
  if (u < 0x80 && ((u >= '0' && u <= '9') || ((u | 0x20) >= 'a' && (u | 0x20) <= 'z')))
    return Part::kAlnum;
  if (u >= 0xD800 && u <= 0xDFFF) return Part::kRules;
  switch (u_getIntPropertyValue(u, UCHAR_WORD_BREAK)) {
    case U_WB_WSEGSPACE:
      return Part::kSpace;
    case U_WB_MIDLETTER: case U_WB_MIDNUM: case U_WB_MIDNUMLET: case U_WB_SINGLE_QUOTE:
      return Part::kMid;
    case U_WB_LF: case U_WB_NEWLINE: case U_WB_DOUBLE_QUOTE:
      return Part::kLone;
    case U_WB_OTHER:
      // Punctuation and symbols only. Not @ (ICU's rules count it a letter), nor signs of scripts
      // with dictionaries of their own (Thai, Myanmar: line break class SA), nor emoji (ZWJ
      // rules), nor Han or kana symbols (Kangxi radicals, 々: the CJK dictionary's, normalized).
      if (u == '@' || !(U_GET_GC_MASK(u) & (U_GC_P_MASK | U_GC_S_MASK)) ||
          u_hasBinaryProperty(u, UCHAR_EXTENDED_PICTOGRAPHIC) ||
          u_getIntPropertyValue(u, UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT || cjk_script(u))
        return Part::kRules;
      return Part::kLone;
    default:
      return Part::kRules;
  }
}

// The tokens of a text made only of the parts above, from ICU's dictionary without its break
// iterator; false (and `out` unspecified) when a character needs the iterator's rules.
bool segment_by_dictionary(const Utf16View& v, std::vector<Token>& out) {
  thread_local std::vector<Part> parts;
  thread_local std::vector<std::uint32_t> breaks;
  const std::size_t n = v.units.size();
  parts.resize(n);
  out.reserve(n);
  for (std::size_t k = 0; k < n; ++k)
    if ((parts[k] = part_of(v.units[k])) == Part::kRules) return false;
  for (std::size_t k = 0; k < n;) {
    std::size_t e = k + 1;
    const Part p = parts[k];
    if (p == Part::kMid && k > 0 && e < n && parts[k - 1] == Part::kAlnum && parts[e] == Part::kAlnum)
      return false;  // 3.5, a,b, don't: rules WB6/7, WB11/12 may join them
    if (p == Part::kIdeograph) {
      while (e < n && parts[e] == p) ++e;
      if (!split_ideographs(v.units.data() + k, e - k, breaks)) return false;
      std::size_t from = k;
      for (const std::uint32_t b : breaks) out.push_back(v.ideographs(from, k + b)), from = k + b;
    } else {
      if (p == Part::kAlnum || p == Part::kSpace)
        while (e < n && parts[e] == p) ++e;
      out.push_back(v.token(k, e));
    }
    k = e;
  }
  return true;
}

// ICU's break iterator over the decoded text.
std::vector<Token> segment_with_iterator(const Utf16View& v) {
  std::vector<Token> out;
  icu::BreakIterator* bi = thread_iterator();
  if (bi == nullptr) {  // no ICU data: one token per code point
    for (std::size_t k = 0; k < v.units.size();) {
      std::size_t e = k + 1;
      while (e < v.units.size() && !(v.cls[e] & Utf16View::kLead)) ++e;
      out.push_back(v.token(k, e));
      k = e;
    }
    return out;
  }
  // A read-only alias of the units: ICU reads them, nothing is copied.
  const icu::UnicodeString u(false, v.units.data(), static_cast<int32_t>(v.units.size()));
  bi->setText(u);
  int32_t p = bi->first();
  for (int32_t q = bi->next(); q != icu::BreakIterator::DONE; p = q, q = bi->next())
    out.push_back(v.token(static_cast<std::size_t>(p), static_cast<std::size_t>(q)));
  return out;
}

// ICU's words of `text` into `out` (cleared first; its storage reused).
void segment_uncached(std::string_view text, std::vector<Token>& out) {
  thread_local Utf16View v;
  v.assign(text);
  out.clear();
  if (!segment_by_dictionary(v, out)) out = segment_with_iterator(v);
}

}  // namespace

thread_local WordTerms current_terms;

namespace {

// A term occurrence [begin, end) in bytes.
struct TermSpan {
  std::uint32_t begin, end;
};

// The glossary's terms and the domain lexicon's in one trie (domain_trie.hpp), scanned once:
// the glossary's Aho-Corasick scan cost some 50 instructions a byte, the trie's walk a fraction.
// A lexicon term sits at word boundaries (DomainLexicon::scan), a glossary term anywhere.
struct TermTrie {
  std::uint64_t lexicon_serial = 0, glossary_serial = 0;
  DomainTrie trie;
  std::vector<bool> bounded;  // per term: the lexicon's alone, held to word boundaries
  bool usable = false;        // false: a glossary term the trie cannot hold (scan both then)
};

std::shared_ptr<const TermTrie> build_term_trie(const WordTerms& terms, std::uint64_t ls,
                                                std::uint64_t gs) {
  auto out = std::make_shared<TermTrie>();
  out->lexicon_serial = ls;
  out->glossary_serial = gs;
  std::vector<std::string> glossary;
  bool fits = true;
  terms.glossary->for_each_pattern([&](std::string_view p) {
    fits = fits && p.size() <= DomainTrie::kMaxTermBytes && is_valid_utf8(p);
    glossary.emplace_back(p);
  });
  if (!fits) return out;
  std::sort(glossary.begin(), glossary.end());
  // The lexicon's terms are in byte order already (its loader checks): a merge, one entry per
  // term, bounded only when the glossary does not hold it.
  std::vector<std::string_view> all;
  std::size_t bytes = 0;
  const auto lexicon_terms =
      static_cast<std::uint32_t>(terms.lexicon ? terms.lexicon->term_count() : 0);
  std::size_t g = 0;
  for (std::uint32_t l = 0; l < lexicon_terms || g < glossary.size();) {
    const std::string_view lt = l < lexicon_terms ? terms.lexicon->term_text(l) : "";
    const bool from_glossary = l == lexicon_terms || (g < glossary.size() && glossary[g] <= lt);
    const std::string_view t = from_glossary ? std::string_view(glossary[g]) : lt;
    if (from_glossary) ++g;
    if (!from_glossary || (l < lexicon_terms && lt == t)) ++l;  // the same term in both: once
    all.push_back(t);
    out->bounded.push_back(!from_glossary);
    bytes += t.size();
  }
  out->trie.build(static_cast<std::uint32_t>(all.size()), [&](std::uint32_t i) { return all[i]; },
                  bytes);
  out->usable = true;
  return out;
}

// The trie of the vocabulary in scope, built once per vocabulary (keyed on its serials) and
// shared by all threads; each thread keeps the last one it used.
const TermTrie* term_trie(const WordTerms& terms) {
  if (terms.glossary == nullptr) return nullptr;
  const std::uint64_t ls = terms.lexicon ? terms.lexicon->serial() : 0;
  const std::uint64_t gs = terms.glossary->serial();
  thread_local std::shared_ptr<const TermTrie> last;
  if (last && last->lexicon_serial == ls && last->glossary_serial == gs) return last.get();
  static std::mutex mutex;
  static std::vector<std::shared_ptr<const TermTrie>> built;  // the latest few vocabularies
  const std::lock_guard lock(mutex);
  const auto it = std::find_if(built.begin(), built.end(), [&](const auto& t) {
    return t->lexicon_serial == ls && t->glossary_serial == gs;
  });
  if (it != built.end()) {
    last = *it;
  } else {
    if (built.size() >= 4) built.erase(built.begin());
    built.push_back(build_term_trie(terms, ls, gs));
    last = built.back();
  }
  return last.get();
}

}  // namespace

void build_term_trie(const WordTerms& terms) { term_trie(terms); }

namespace {

// Every occurrence of a term of the vocabulary, by begin byte (all overlaps kept; one span may
// be reported twice, which the join does not mind).
std::vector<TermSpan>& term_spans(std::string_view text, const WordTerms& terms,
                                  bool one_trie = true) {
  thread_local std::vector<DomainLexicon::Hit> hits;
  thread_local std::vector<TermSpan> spans;
  spans.clear();
  if (const TermTrie* joined = one_trie ? term_trie(terms) : nullptr; joined && joined->usable) {
    joined->trie.scan(text, [&](std::uint32_t term, std::uint32_t b, std::uint32_t e) {
      if (!joined->bounded[term] || at_word_boundaries(text, b, e)) spans.push_back({b, e});
    });
  } else {
    if (terms.lexicon) {
      terms.lexicon->scan(text, hits);
      for (const auto& h : hits) spans.push_back({h.begin, h.end});
    }
    if (terms.glossary)
      terms.glossary->scan(text, [&](std::uint32_t, std::uint32_t b, std::uint32_t e) {
        spans.push_back({b, e});
      });
  }
  std::sort(spans.begin(), spans.end(), [](const TermSpan& a, const TermSpan& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  return spans;
}

// ICU's pieces of a term joined: a term that starts and ends on token boundaries, spans two or
// more Han tokens and holds a lone Han character (ICU's sign that it did not know the word).
// Leftmost, longest first. Merged in place: the tokens kept are [0, n), and n never passes the
// token being read.
void join_terms(std::string_view text, const WordTerms& terms, std::vector<Token>& tokens) {
  // Only a lone character is joined: without one the vocabulary's scan would find nothing to do.
  if (std::none_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.single_han; }))
    return;
  const std::vector<TermSpan>& spans = term_spans(text, terms);
  if (spans.empty()) return;
  std::size_t h = 0, n = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::size_t best = i;
    for (; h < spans.size() && spans[h].begin < tokens[i].begin; ++h) {}
    for (std::size_t k = h; k < spans.size() && spans[k].begin == tokens[i].begin; ++k) {
      bool lone = false, han = true;
      std::size_t j = i;
      for (; j < tokens.size() && tokens[j].end <= spans[k].end; ++j) {
        lone = lone || tokens[j].single_han;
        han = han && tokens[j].word && !tokens[j].ascii;
      }
      if (j > i + 1 && tokens[j - 1].end == spans[k].end && lone && han) best = std::max(best, j - 1);
    }
    Token t = tokens[i];
    if (best > i) {
      t.end = tokens[best].end;
      t.single_han = false;
      i = best;
    }
    tokens[n++] = t;
  }
  tokens.resize(n);
}

// One analysis segments the same few texts several times (the previous question for its spans,
// its topic and the garble check; the turn and its fragment): the last few results per thread
// are kept, so ICU's dictionary break runs once per text. Keyed on the vocabulary's serials, not
// only its addresses: a vocabulary freed and another built at the same address (a host that
// reloads its planner) must not find the old words.
struct KeptWords {
  std::string text;
  WordTerms terms;
  std::uint64_t lexicon_serial = 0, glossary_serial = 0;
  std::vector<Token> tokens;
};

struct WordCache {
  static constexpr std::size_t kKept = 8;
  std::array<KeptWords, kKept> kept;
  std::size_t next = 0;
  WordTerms terms;  // the vocabulary of the lookup in progress, and its serials
  std::uint64_t lexicon_serial = 0, glossary_serial = 0;

  const std::vector<Token>* find(std::string_view text) {
    terms = current_terms;
    lexicon_serial = terms.lexicon ? terms.lexicon->serial() : 0;
    glossary_serial = terms.glossary ? terms.glossary->serial() : 0;
    for (const KeptWords& k : kept)
      if (k.text.size() == text.size() && k.terms == terms && !k.tokens.empty() &&
          k.lexicon_serial == lexicon_serial && k.glossary_serial == glossary_serial &&
          k.text == text)
        return &k.tokens;
    return nullptr;
  }
  // Keeps `tokens` for `text` under the vocabulary of the last find().
  void keep(std::string_view text, const std::vector<Token>& tokens) {
    KeptWords& slot = kept[next++ % kKept];
    slot.text.assign(text);
    slot.terms = terms;
    slot.lexicon_serial = lexicon_serial;
    slot.glossary_serial = glossary_serial;
    slot.tokens = tokens;
  }
};

WordCache& word_cache() {
  thread_local WordCache cache;
  return cache;
}

}  // namespace

std::vector<Token> segment_words(std::string_view text) {
  std::vector<Token> out;
  segment_words_into(text, out);
  return out;
}

void segment_words_into(std::string_view text, std::vector<Token>& out) {
  if (text.empty()) {
    out.clear();
    return;
  }
  WordCache& cache = word_cache();
  if (const std::vector<Token>* kept = cache.find(text)) {
    out.assign(kept->begin(), kept->end());
    return;
  }
  segment_uncached(text, out);
  if (cache.terms != WordTerms{}) join_terms(text, cache.terms, out);
  cache.keep(text, out);
}

WordBreak segment_words_unjoined(std::string_view text) {
  WordBreak w;
  w.joined = text.empty();  // no words: nothing to join
  if (text.empty()) return w;
  WordCache& cache = word_cache();
  if (const std::vector<Token>* kept = cache.find(text)) {
    w.tokens = *kept;
    w.joined = true;
    return w;
  }
  segment_uncached(text, w.tokens);
  w.joined = cache.terms == WordTerms{};
  return w;
}

void join_terms_of(std::string_view text, WordBreak& w) {
  if (w.joined) return;
  w.joined = true;
  if (current_terms == WordTerms{}) return;
  join_terms(text, current_terms, w.tokens);
  WordCache& cache = word_cache();
  if (cache.find(text) == nullptr) cache.keep(text, w.tokens);
}

std::vector<Token> segment_words_by_iterator(std::string_view text) {
  Utf16View v;
  v.assign(text);
  return segment_with_iterator(v);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> term_spans_of(std::string_view text,
                                                                   bool one_trie) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const TermSpan& t : term_spans(text, current_terms, one_trie))
    out.emplace_back(t.begin, t.end);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool decodes_as_code_points(std::string_view text) {
  Utf16View fast, slow;
  fast.assign(text);
  slow.assign_by_code_points(text);
  return fast.units == slow.units && fast.byte_at == slow.byte_at && fast.cls == slow.cls;
}

std::optional<std::vector<Token>> segment_words_by_dictionary(std::string_view text) {
  Utf16View v;
  v.assign(text);
  std::vector<Token> out;
  if (!segment_by_dictionary(v, out)) return std::nullopt;
  return out;
}

ScopedTerms::ScopedTerms(WordTerms terms) : saved_(current_terms) { current_terms = terms; }
ScopedTerms::~ScopedTerms() { current_terms = saved_; }

}  // namespace qaplan::internal
