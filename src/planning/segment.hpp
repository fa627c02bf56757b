#pragma once
// Word segmentation: ICU's dictionary-based word break iterator (its CJK dictionary; no extra
// dependency). The rewriter reads with it, and so does the follow-up stage's first-word test
// (bare_question.hpp), which is why it sits beside the shared text helpers, not in analysis/. Words ICU does not know — most names — come out one
// character per token, which the rewriter uses as a hint that a run of them is a name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qaplan::internal {

class DomainLexicon;
class PatternMatcher;

/// The host's vocabulary the word break keeps whole: the [domain] lexicon's terms and the
/// [glossary] terms and aliases (a matcher whose hits are terms; list ids are ignored).
struct WordTerms {
  const DomainLexicon* lexicon = nullptr;
  const PatternMatcher* glossary = nullptr;
  bool operator==(const WordTerms&) const = default;
};

struct Token {
  std::uint32_t begin = 0;  ///< byte offsets into the text
  std::uint32_t end = 0;
  bool word = false;         ///< letters, digits or ideographs (not punctuation/space)
  bool single_han = false;   ///< exactly one Han character
  bool ascii = false;        ///< ASCII letters/digits
  std::string_view text(std::string_view s) const { return s.substr(begin, end - begin); }
};

/// Tokens of valid UTF-8 `text`, in order, covering it. Thread-safe (one iterator per thread).
/// While a ScopedTerms is alive on the calling thread, a term of its vocabulary that ICU cut into
/// pieces at least one of which is a lone Han character (供应|商, 加班|费) is one token.
std::vector<Token> segment_words(std::string_view text);
/// The same into `out`, whose storage is reused (a caller that reads the words and drops them).
void segment_words_into(std::string_view text, std::vector<Token>& out);

/// ICU's words of `text` before the vocabulary's terms are joined (`joined` false), or
/// segment_words(text) when this thread has it at hand (`joined` true). For a caller whose answer
/// a joined term can only take away from (a term joins lone characters, it never makes one): it
/// asks join_terms_of only when ICU's words hold what it looks for, and skips the term scans.
struct WordBreak {
  std::vector<Token> tokens;
  bool joined = false;
};
WordBreak segment_words_unjoined(std::string_view text);
/// Makes `w` segment_words(text): joins the terms of the vocabulary in scope (once).
void join_terms_of(std::string_view text, WordBreak& w);

/// Builds the trie of `terms` that segment_words reads while they are in scope, so the first
/// question does not (1.5 M instructions for the shipped vocabularies). Thread-safe.
void build_term_trie(const WordTerms& terms);

/// For tests: ICU's break iterator alone, and the dictionary path alone (nullopt when the text
/// holds a character whose breaks need the iterator's rules). Neither caches or joins terms;
/// segment_words uses the dictionary path whenever it answers, and the two must agree.
std::vector<Token> segment_words_by_iterator(std::string_view text);
std::optional<std::vector<Token>> segment_words_by_dictionary(std::string_view text);
/// For tests: the spans of the vocabulary in scope's terms in `text` (sorted, each once) that
/// the word break joins ICU's pieces by: read by one walk of a trie of both vocabularies, or by
/// the domain lexicon's scan and the glossary's (`one_trie` false). The two must agree.
std::vector<std::pair<std::uint32_t, std::uint32_t>> term_spans_of(std::string_view text,
                                                                   bool one_trie);
/// For tests: whether the word break's decoding of `text` (any bytes) is the code-point-at-a-time
/// decoding it stands for.
bool decodes_as_code_points(std::string_view text);

/// The host's vocabulary the word break keeps whole on this thread for the scope's lifetime (the
/// analysis of one question). Empty = ICU's words only.
class ScopedTerms {
 public:
  explicit ScopedTerms(WordTerms terms);
  ~ScopedTerms();
  ScopedTerms(const ScopedTerms&) = delete;
  ScopedTerms& operator=(const ScopedTerms&) = delete;

 private:
  WordTerms saved_;
};

}  // namespace qaplan::internal
