#pragma once
// Word segmentation for the rewriter: ICU's dictionary-based word break iterator (its CJK
// dictionary; no extra dependency). Words ICU does not know — most names — come out one
// character per token, which the rewriter uses as a hint that a run of them is a name.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qaplan::internal {

class DomainLexicon;
class PatternMatcher;
class WordSet;

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

/// The texts an analysis reads from — the question and its history — on this thread for the
/// scope's lifetime. While it is alive, a text made wholly of runs of whole tokens of those of
/// them read so far in the scope (the fragment 病假 of 那病假呢; the rewrite 病假怎么申请 of 病假 and
/// 年假|怎么|申请) is read as those tokens were read there, without a second word break; anything
/// else is read afresh. The reading is a function of the analysis's inputs: only sources read
/// inside the scope count, never what an earlier call left behind. The texts are copied.
class ScopedSources {
 public:
  /// `function`: the function words (那, 呢, 的 …). A piece is cut from a source only where no
  /// lone content character is parted from the word beside it (海贼|王, 打|车费: most likely one
  /// word ICU does not know); a text that needs such a cut is read afresh.
  ScopedSources(std::vector<std::string> sources, const WordSet* function);
  ~ScopedSources();
  ScopedSources(const ScopedSources&) = delete;
  ScopedSources& operator=(const ScopedSources&) = delete;

  /// Whether a scope is alive on this thread.
  static bool active();
  /// Adds a source to the innermost scope alive on this thread (none: nothing happens).
  static void add(std::string_view text);

  /// No scope for its lifetime: what is read meanwhile is read afresh (the garble check reads a
  /// rewrite on its own, as the gate and any outside check read it).
  class Paused {
   public:
    Paused();
    ~Paused();
    Paused(const Paused&) = delete;
    Paused& operator=(const Paused&) = delete;

   private:
    ScopedSources* saved_;
  };

  struct Read {
    std::string text;
    std::vector<Token> tokens;
  };
  std::vector<std::string> sources;
  std::vector<Read> read;  ///< the sources read so far, in the order first read
  const WordSet* function;

 private:
  ScopedSources* saved_;
};

}  // namespace qaplan::internal
