#pragma once
// Word segmentation: ICU's dictionary-based word break iterator (its CJK dictionary; no extra
// dependency). The rewriter reads with it, and so does the follow-up stage's first-word test
// (bare_question.hpp), which is why it sits beside the shared text helpers, not in analysis/. Words ICU does not know — most names — come out one
// character per token, which the rewriter uses as a hint that a run of them is a name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

/// For tests: ICU's break iterator alone, and the dictionary path alone (nullopt when the text
/// holds a character whose breaks need the iterator's rules). Neither caches or joins terms;
/// segment_words uses the dictionary path whenever it answers, and the two must agree.
std::vector<Token> segment_words_by_iterator(std::string_view text);
std::optional<std::vector<Token>> segment_words_by_dictionary(std::string_view text);

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
